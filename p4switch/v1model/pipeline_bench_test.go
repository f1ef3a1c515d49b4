package v1model

import (
	"encoding/hex"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// BenchmarkL3 measures ingress+egress of the L3 test program per packet.
func BenchmarkL3(b *testing.B) {
	c, err := CompileFile("../testdata/l3.p4", nil)
	if err != nil {
		b.Fatal(err)
	}
	p := New(c, 0)
	tid := c.P4Info.Tables[0].Preamble.Id
	aid := c.P4Info.Tables[0].ActionRefs[0].Id
	for i := 0; i < 100; i++ {
		err := p.Write(&p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
			TableId: tid,
			Match:   []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: []byte{10, byte(i), 0, 0}, PrefixLen: 16}}}},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: aid,
				Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{1, 2, 3, 4, 5, 6}}, {ParamId: 2, Value: []byte{3}}}}}}}}}})
		if err != nil {
			b.Fatal(err)
		}
	}
	pkt, _ := hex.DecodeString("000000000001000000000002080045000014000100004006f9d50a0000010a320002")
	pkt = append(pkt, make([]byte, 1400)...)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := p.Ingress(target.Arrival{Port: 1, Data: pkt})
		for _, q := range r.Queued {
			if e := p.Egress(q, target.QueueMeta{}); e.Out == nil {
				b.Fatal("dropped")
			}
		}
	}
}

// BenchmarkInsert measures table entry inserts through Write.
func BenchmarkInsert(b *testing.B) {
	c, err := CompileFile("../testdata/l3.p4", nil)
	if err != nil {
		b.Fatal(err)
	}
	c.Prog.Tables[0].Size = b.N + 1
	p := New(c, 0)
	tid := c.P4Info.Tables[0].Preamble.Id
	aid := c.P4Info.Tables[0].ActionRefs[0].Id
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := p.Write(&p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
			TableId: tid,
			Match:   []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: []byte{10, byte(i >> 16), byte(i >> 8), byte(i)}, PrefixLen: 32}}}},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: aid,
				Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{1, 2, 3, 4, 5, 6}}, {ParamId: 2, Value: []byte{3}}}}}}}}}})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkL3Router measures ingress+egress of the benchmark's program
// (testdata/l3router) per 1500-byte packet.
func BenchmarkL3Router(b *testing.B) {
	c, err := CompileFile("../testdata/l3router/l3router.p4", nil)
	if err != nil {
		b.Fatal(err)
	}
	p := New(c, 255)
	var tid, aid uint32
	for _, t := range c.P4Info.Tables {
		if t.Preamble.Name == "RouterIngress.ipv4_lpm" {
			tid = t.Preamble.Id
		}
	}
	for _, a := range c.P4Info.Actions {
		if a.Preamble.Name == "RouterIngress.ipv4_forward" {
			aid = a.Preamble.Id
		}
	}
	err = p.Write(&p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
		TableId: tid,
		Match:   []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: []byte{10, 50, 0, 2}, PrefixLen: 32}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: aid,
			Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{1, 2, 3, 4, 5, 6}}, {ParamId: 2, Value: []byte{2}}}}}}}}}})
	if err != nil {
		b.Fatal(err)
	}
	pkt, _ := hex.DecodeString("000000000001000000000002080045000014000100004006f9d50a0000010a320002")
	pkt = append(pkt, make([]byte, 1466)...)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := p.Ingress(target.Arrival{Port: 1, Data: pkt})
		if len(r.Queued) != 1 {
			b.Fatal("not forwarded")
		}
		e := p.Egress(r.Queued[0], target.QueueMeta{})
		if e.Out == nil {
			b.Fatal("dropped")
		}
		p.RecycleOutput(e.Out.Data) // as the switch does once the frame is sent
	}
}
