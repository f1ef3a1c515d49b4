package v1model

import (
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

func TestActionSelectorAndValueSet(t *testing.T) {
	c, err := CompileFile("../testdata/selector.p4", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := New(c, 0)
	info := c.P4Info
	prof := info.ActionProfiles[0].Preamble.Id
	if !info.ActionProfiles[0].WithSelector {
		t.Fatal("selector not marked with_selector")
	}
	var fwd uint32
	for _, a := range info.Actions {
		if a.Preamble.Name == "I.fwd" {
			fwd = a.Preamble.Id
		}
	}
	write := func(typ p4v1.Update_Type, e *p4v1.Entity) {
		t.Helper()
		if err := p.Write(&p4v1.Update{Type: typ, Entity: e}); err != nil {
			t.Fatal(err)
		}
	}
	for i, port := range []byte{1, 2, 3} {
		write(p4v1.Update_INSERT, &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: &p4v1.ActionProfileMember{
			ActionProfileId: prof, MemberId: uint32(i + 1),
			Action: &p4v1.Action{ActionId: fwd, Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{port}}, {ParamId: 2, Value: []byte{port * 16}}}}}}})
	}
	write(p4v1.Update_INSERT, &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: &p4v1.ActionProfileGroup{
		ActionProfileId: prof, GroupId: 10, MaxSize: 8,
		Members: []*p4v1.ActionProfileGroup_Member{{MemberId: 1, Weight: 1}, {MemberId: 2, Weight: 1}, {MemberId: 3, Weight: 2}}}}})
	write(p4v1.Update_INSERT, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
		TableId: info.Tables[0].Preamble.Id,
		Match:   []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{0x12, 0x34}}}}},
		Action:  &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: 10}}}}})

	send := func(kind uint16, flow uint32, extra ...byte) *target.Output {
		pkt := []byte{byte(kind >> 8), byte(kind), byte(flow >> 24), byte(flow >> 16), byte(flow >> 8), byte(flow), 0}
		pkt = append(pkt, extra...)
		res := p.Ingress(target.Arrival{Port: 0, Data: pkt})
		if len(res.Queued) != 1 {
			t.Fatalf("%d queued", len(res.Queued))
		}
		return p.Egress(res.Queued[0], target.QueueMeta{}).Out
	}
	ports := map[uint32]int{}
	for i := uint32(0); i < 400; i++ {
		flow := i * 2654435761
		o := send(0x1234, flow)
		if o.Data[6] != byte(o.Port*16) {
			t.Fatalf("flow %d: port %d with tag %x", flow, o.Port, o.Data[6])
		}
		if again := send(0x1234, flow); again.Port != o.Port {
			t.Fatalf("flow %d: not sticky (%d then %d)", flow, o.Port, again.Port)
		}
		ports[o.Port]++
	}
	if len(ports) != 3 || ports[3] < ports[1] {
		t.Fatalf("selection spread over members: %v", ports)
	}
	if o := send(0x9999, 1); o.Port != 9 {
		t.Fatalf("miss went to port %d", o.Port)
	}
	// value set: kind 0x0800 parses x only once it is a member
	if o := send(0x0800, 1, 5); len(o.Data) != 8 || o.Data[7] != 5 {
		t.Fatalf("before value_set write: %x", o.Data)
	}
	write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{
		ValueSetId: info.ValueSets[0].Preamble.Id,
		Members: []*p4v1.ValueSetMember{{Match: []*p4v1.FieldMatch{{FieldId: 1,
			FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{8, 0}}}}}}}}}})
	if o := send(0x0800, 1, 5); o.Data[7] != 6 {
		t.Fatalf("after value_set write: %x", o.Data)
	}
}
