package scenario

import (
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// TestUtilizationColourEvents drives the pinned uplink 3 through the P4TE
// utilisation meter (CIR 100 kB/s, PIR 200 kB/s) at rising then falling rates
// of about 1 kB frames (each phase is far from the thresholds).
func TestUtilizationColourEvents(t *testing.T) {
	h := newHarness(t)
	leaf(h)
	e := h.entry(eg+"sensing.link_util", []match{exact("standard_metadata.egress_port", 3)}, 0,
		&p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.action(eg + "sensing.read_link_color")}})
	h.write(p4v1.Update_INSERT, e)
	h.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_DirectMeterEntry{DirectMeterEntry: &p4v1.DirectMeterEntry{
		TableEntry: e.GetTableEntry(),
		Config:     &p4v1.MeterConfig{Cir: 100000, Cburst: 10000, Pir: 200000, Pburst: 10000}}}})

	type phase struct {
		name string
		pps  int
		secs int
	}
	phases := []phase{{"below CIR", 40, 3}, {"between CIR and PIR", 150, 3}, {"above PIR", 300, 3}, {"low again", 20, 3}}
	now := time.Second
	events := map[string][]packetIn{}
	for _, p := range phases {
		gap := time.Second / time.Duration(p.pps)
		for i := 0; i < p.pps*p.secs; i++ {
			now += gap
			for _, o := range h.send(1, udpFrame(7, h1IP, remoteIP, 0, 1, 2, 1000), now, 0) {
				if o.port == cpuPort {
					pin := decodePacketIn(o.data)
					if pin.metric != 2 || pin.eventPort != 3 || pin.reason != 2 {
						t.Fatalf("%s: unexpected packet-in %+v", p.name, pin)
					}
					events[p.name] = append(events[p.name], pin)
				}
			}
		}
	}
	if len(events["below CIR"]) != 0 {
		t.Fatalf("events below CIR: %+v", events["below CIR"])
	}
	first := events["between CIR and PIR"]
	if len(first) == 0 || first[0].direction != 1 || first[0].value != 1 {
		t.Fatalf("between CIR and PIR: want an INCREASE to YELLOW first, got %+v", first)
	}
	for _, ev := range first {
		if ev.value == 2 {
			t.Fatalf("RED reported below PIR: %+v", first)
		}
	}
	sawRed := false
	for _, ev := range events["above PIR"] {
		if ev.value == 2 && ev.direction == 1 {
			sawRed = true
		}
	}
	if !sawRed {
		t.Fatalf("above PIR: no INCREASE to RED in %+v", events["above PIR"])
	}
	// A trTCM colours packet by packet, so above CIR some packets are still
	// green; at the low rate every packet is green: no INCREASE, and the last
	// event reported is a DECREASE to GREEN.
	var all []packetIn
	for _, p := range phases {
		all = append(all, events[p.name]...)
	}
	for _, ev := range events["low again"] {
		if ev.direction != 2 {
			t.Fatalf("low again: %+v", events["low again"])
		}
	}
	if last := all[len(all)-1]; last.value != 0 || last.direction != 2 {
		t.Fatalf("last event %+v, want a DECREASE to GREEN", last)
	}
	// The recirculated events kept port_utilizations[3] current for Algorithm 3.
	got := h.readRegister(in+"port_utilization.port_utilizations", 0)
	if v := got[len(got)-1] >> 6; v != 0 {
		t.Fatalf("port_utilizations[3] = %d after the last event, want GREEN", v)
	}
}
