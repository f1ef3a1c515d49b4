package v1model

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/interp"
	"github.com/fairfabric/fairfabric/p4switch/target"
)

// TestCountersAndMetersCountWholePacket checks exact byte counts: counters
// and meters, direct and indirect, count the whole packet at ingress and at
// egress (BMv2's packet length), not only the part the parser left unparsed.
func TestCountersAndMetersCountWholePacket(t *testing.T) {
	c, err := CompileFile("../testdata/packet_length.p4", nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, p: New(c, 0), info: c.P4Info}
	entry := func(table string, action string) *p4v1.TableEntry {
		return &p4v1.TableEntry{
			TableId: f.id(table),
			Match:   []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{0x12, 0x34}}}}},
			Action:  &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: f.id(action)}}},
		}
	}
	ingressEntry, egressEntry := entry("MyIngress.ingress_table", "MyIngress.forward"), entry("MyEgress.egress_table", "MyEgress.mark")
	// A 100-byte packet fits the committed burst of 170 bytes once: the
	// first packet is green, the second (70 bytes left) yellow.
	config := &p4v1.MeterConfig{Cir: 1, Cburst: 170, Pir: 1, Pburst: 1000}
	updates := []*p4v1.Entity{
		tableEntity(ingressEntry), tableEntity(egressEntry),
		{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{MeterId: f.id("MyIngress.ingress_meter"), Index: &p4v1.Index{Index: 0}, Config: config}}},
		{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{MeterId: f.id("MyEgress.egress_meter"), Index: &p4v1.Index{Index: 0}, Config: config}}},
		{Entity: &p4v1.Entity_DirectMeterEntry{DirectMeterEntry: &p4v1.DirectMeterEntry{TableEntry: ingressEntry, Config: config}}},
		{Entity: &p4v1.Entity_DirectMeterEntry{DirectMeterEntry: &p4v1.DirectMeterEntry{TableEntry: egressEntry, Config: config}}},
	}
	for i, u := range updates {
		typ := p4v1.Update_MODIFY
		if i < 2 {
			typ = p4v1.Update_INSERT
		}
		if err := f.write(typ, u); err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
	}

	const length = 100
	pkt := make([]byte, length)
	pkt[12], pkt[13] = 0x12, 0x34
	wantColours := [][4]byte{
		{interp.Green, interp.Green, interp.Green, interp.Green},
		{interp.Yellow, interp.Yellow, interp.Yellow, interp.Yellow},
	}
	for i, want := range wantColours {
		res := f.p.Ingress(target.Arrival{Port: 1, Data: pkt})
		if len(res.Queued) != 1 {
			t.Fatalf("packet %d: %d packets queued, want 1", i, len(res.Queued))
		}
		out := f.p.Egress(res.Queued[0], target.QueueMeta{})
		if out.Out == nil || len(out.Out.Data) != length {
			t.Fatalf("packet %d: output %v, want %d bytes", i, out.Out, length)
		}
		// colours: ingress, ingress direct, egress, egress direct
		if got := [4]byte(out.Out.Data[14:18]); got != want {
			t.Errorf("packet %d: meter colours %v, want %v", i, got, want)
		}
	}

	wantData := func(what string, d *p4v1.CounterData) {
		t.Helper()
		if d.GetPacketCount() != 2 || d.GetByteCount() != 2*length {
			t.Errorf("%s: %d packets, %d bytes; want 2 packets, %d bytes", what, d.GetPacketCount(), d.GetByteCount(), 2*length)
		}
	}
	for _, name := range []string{"MyIngress.ingress_counter", "MyEgress.egress_counter"} {
		got := f.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: f.id(name), Index: &p4v1.Index{Index: 0}}}})
		wantData(name, got[0].GetCounterEntry().GetData())
	}
	for _, te := range []*p4v1.TableEntry{ingressEntry, egressEntry} {
		got := f.read(&p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{TableEntry: te}}})
		if len(got) != 1 {
			t.Fatalf("direct counter read: %v", got)
		}
		wantData("direct counter of table "+f.tableName(te.TableId), got[0].GetDirectCounterEntry().GetData())
	}
}

func (f *fixture) tableName(id uint32) string {
	for _, x := range f.info.Tables {
		if x.Preamble.Id == id {
			return x.Preamble.Name
		}
	}
	return "?"
}
