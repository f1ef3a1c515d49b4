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

// withECT marks a frame's IPv4 header ECN-capable (ECT(1)), ipOff bytes in.
func withECT(frame []byte, ipOff int) []byte {
	frame[ipOff+1] |= 1
	frame[ipOff+10], frame[ipOff+11] = 0, 0
	sum := checksum(frame[ipOff : ipOff+20])
	frame[ipOff+10], frame[ipOff+11] = byte(sum>>8), byte(sum)
	return frame
}

// TestSafeRateMarksWhenClassAndLinkAreOver checks P4TE §6.4.1's mark: a packet
// of a class over its safe rate on a link that is not GREEN gets CE; a class
// within its rate on the same busy link does not.
func TestSafeRateMarksWhenClassAndLinkAreOver(t *testing.T) {
	h := newHarness(t)
	leaf(h)
	slow := &p4v1.MeterConfig{Cir: 1000, Cburst: 1500, Pir: 1000, Pburst: 1500}
	safe := h.entry(in+"safe_rate.class_safe_rate",
		[]match{exact("standard_metadata.ingress_port", 1), exact("hdr.ipv4.dscp", dscpLowDelay)}, 0,
		&p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.action(in + "safe_rate.read_class_color")}})
	link := h.entry(eg+"sensing.link_util", []match{exact("standard_metadata.egress_port", 3)}, 0,
		&p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.action(eg + "sensing.read_link_color")}})
	for _, e := range []*p4v1.Entity{safe, link} {
		h.write(p4v1.Update_INSERT, e)
		h.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_DirectMeterEntry{DirectMeterEntry: &p4v1.DirectMeterEntry{
			TableEntry: e.GetTableEntry(), Config: slow}}})
	}
	const ipOut = 14 + 4 + 20 // Ethernet, tag, fabric shim
	ecnOut := func(dscp uint8, now time.Duration) byte {
		for _, o := range h.send(1, withECT(udpFrame(7, h1IP, remoteIP, dscp, 1, 2, 1000), 18), now, 0) {
			if o.port == 3 {
				return o.data[ipOut+1] & 3
			}
		}
		t.Fatal("not forwarded to port 3")
		return 0
	}
	now := time.Second
	if got := ecnOut(dscpLowDelay, now); got != 1 {
		t.Fatalf("first packet (class and link within their rates): ECN %d, want 1", got)
	}
	marked := 0
	for i := 0; i < 20; i++ {
		now += 10 * time.Millisecond
		if ecnOut(dscpLowDelay, now) == 3 {
			marked++
		}
	}
	if marked < 15 {
		t.Fatalf("only %d of 20 packets over both rates marked CE", marked)
	}
	// A class without a safe-rate entry is within its rate: never marked, busy link or not.
	for i := 0; i < 5; i++ {
		now += 10 * time.Millisecond
		if got := ecnOut(0, now); got != 1 {
			t.Fatalf("class within its rate marked: ECN %d", got)
		}
	}
}
