package v1model

import (
	"strings"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

type fixture struct {
	t    *testing.T
	p    *Pipeline
	info *p4configv1.P4Info
}

func newFixture(t *testing.T) *fixture {
	c, err := CompileFile("../testdata/p4info_names.p4", nil)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, p: New(c, 0), info: c.P4Info}
}

func (f *fixture) id(name string) uint32 {
	for _, x := range f.info.Tables {
		if x.Preamble.Name == name {
			return x.Preamble.Id
		}
	}
	for _, x := range f.info.Actions {
		if x.Preamble.Name == name {
			return x.Preamble.Id
		}
	}
	for _, x := range f.info.Counters {
		if x.Preamble.Name == name {
			return x.Preamble.Id
		}
	}
	for _, x := range f.info.Meters {
		if x.Preamble.Name == name {
			return x.Preamble.Id
		}
	}
	for _, x := range f.info.Registers {
		if x.Preamble.Name == name {
			return x.Preamble.Id
		}
	}
	for _, x := range f.info.ActionProfiles {
		if x.Preamble.Name == name {
			return x.Preamble.Id
		}
	}
	f.t.Fatalf("no %s", name)
	return 0
}

func tableEntity(te *p4v1.TableEntry) *p4v1.Entity {
	return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}
}

func (f *fixture) lpmEntry(addr []byte, plen int32, port byte) *p4v1.TableEntry {
	return &p4v1.TableEntry{
		TableId: f.id("MyIngress.ipv4_lpm"),
		Match:   []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: addr, PrefixLen: plen}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: f.id("MyIngress.set_nhop"),
			Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{1}}, {ParamId: 2, Value: []byte{port}}}}}},
	}
}

func (f *fixture) write(typ p4v1.Update_Type, e *p4v1.Entity) error {
	return f.p.Write(&p4v1.Update{Type: typ, Entity: e})
}

func (f *fixture) read(e *p4v1.Entity) []*p4v1.Entity {
	var out []*p4v1.Entity
	if err := f.p.Read(e, func(x *p4v1.Entity) error { out = append(out, x); return nil }); err != nil {
		f.t.Fatalf("read: %v", err)
	}
	return out
}

func wantCode(t *testing.T, err error, code codes.Code, substr string) {
	t.Helper()
	if status.Code(err) != code {
		t.Fatalf("got %v, want %v", err, code)
	}
	if substr != "" && !strings.Contains(err.Error(), substr) {
		t.Fatalf("error %q does not mention %q", err, substr)
	}
}

func TestTableWrites(t *testing.T) {
	f := newFixture(t)
	e := f.lpmEntry([]byte{10, 0, 0, 0}, 8, 3)
	if err := f.write(p4v1.Update_INSERT, tableEntity(e)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(e)), codes.AlreadyExists, "")

	bad := []struct {
		name  string
		mut   func(*p4v1.TableEntry)
		code  codes.Code
		words string
	}{
		{"unknown table", func(x *p4v1.TableEntry) { x.TableId = 123 }, codes.NotFound, "table"},
		{"unknown action", func(x *p4v1.TableEntry) { x.Action.GetAction().ActionId = 99 }, codes.NotFound, "action"},
		{"too wide", func(x *p4v1.TableEntry) { x.Match[0].GetLpm().Value = []byte{1, 0, 0, 0, 0} }, codes.InvalidArgument, "does not fit in 32 bits"},
		{"prefix too long", func(x *p4v1.TableEntry) { x.Match[0].GetLpm().PrefixLen = 33 }, codes.InvalidArgument, "prefix length"},
		{"bits past prefix", func(x *p4v1.TableEntry) { x.Match[0].GetLpm().Value = []byte{10, 0, 0, 1} }, codes.InvalidArgument, "beyond the /8 prefix"},
		{"param too wide", func(x *p4v1.TableEntry) { x.Action.GetAction().Params[1].Value = []byte{2, 0} }, codes.InvalidArgument, "port"},
		{"missing param", func(x *p4v1.TableEntry) { x.Action.GetAction().Params = x.Action.GetAction().Params[:1] }, codes.InvalidArgument, "expects 2 parameters"},
		{"action not in table", func(x *p4v1.TableEntry) { x.Action.GetAction().ActionId = f.id("MyIngress.set_dmac") }, codes.InvalidArgument, "not an action of table"},
		{"wrong match kind", func(x *p4v1.TableEntry) {
			x.Match[0].FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{1}}}
		}, codes.InvalidArgument, "expected a lpm match"},
		{"unknown field", func(x *p4v1.TableEntry) { x.Match[0].FieldId = 7 }, codes.InvalidArgument, "no match field"},
		{"priority on lpm", func(x *p4v1.TableEntry) { x.Priority = 3 }, codes.InvalidArgument, "priority"},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			x := proto.Clone(f.lpmEntry([]byte{11, 0, 0, 0}, 8, 4)).(*p4v1.TableEntry)
			b.mut(x)
			wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(x)), b.code, b.words)
		})
	}
	// nothing above changed the table
	if n := len(f.read(tableEntity(&p4v1.TableEntry{TableId: f.id("MyIngress.ipv4_lpm")}))); n != 1 {
		t.Fatalf("%d entries after failed writes, want 1", n)
	}
	// a failed MODIFY leaves the entry as it was
	m := proto.Clone(e).(*p4v1.TableEntry)
	m.Action.GetAction().Params[1].Value = []byte{0xff, 0xff}
	wantCode(t, f.write(p4v1.Update_MODIFY, tableEntity(m)), codes.InvalidArgument, "")
	got := f.read(tableEntity(&p4v1.TableEntry{TableId: f.id("MyIngress.ipv4_lpm")}))
	if !proto.Equal(got[0].GetTableEntry(), e) {
		t.Fatalf("entry changed by a failed modify: %v", got[0])
	}
	// MODIFY and canonical read-back
	m.Action.GetAction().Params[1].Value = []byte{0, 5}
	if err := f.write(p4v1.Update_MODIFY, tableEntity(m)); err != nil {
		t.Fatal(err)
	}
	got = f.read(tableEntity(&p4v1.TableEntry{TableId: f.id("MyIngress.ipv4_lpm")}))
	if v := got[0].GetTableEntry().GetAction().GetAction().Params[1].Value; string(v) != "\x05" {
		t.Fatalf("read-back not canonical: %x", v)
	}
	// size limit
	for i := byte(1); i < 4; i++ {
		if err := f.write(p4v1.Update_INSERT, tableEntity(f.lpmEntry([]byte{20, i, 0, 0}, 16, 1))); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(f.lpmEntry([]byte{30, 0, 0, 0}, 8, 1))), codes.ResourceExhausted, "full")
	// wildcard read of every table
	if n := len(f.read(tableEntity(&p4v1.TableEntry{}))); n != 4 {
		t.Fatalf("wildcard read returned %d entries, want 4", n)
	}
	// DELETE
	if err := f.write(p4v1.Update_DELETE, tableEntity(e)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.write(p4v1.Update_DELETE, tableEntity(e)), codes.NotFound, "")
}

func TestDefaultEntry(t *testing.T) {
	f := newFixture(t)
	def := &p4v1.TableEntry{TableId: f.id("MyIngress.ipv4_lpm"), IsDefaultAction: true,
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: f.id("MyIngress.drop")}}}}
	wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(def)), codes.InvalidArgument, "default")
	if err := f.write(p4v1.Update_MODIFY, tableEntity(def)); err != nil {
		t.Fatal(err)
	}
	got := f.read(tableEntity(&p4v1.TableEntry{TableId: f.id("MyIngress.ipv4_lpm"), IsDefaultAction: true}))
	if len(got) != 1 || got[0].GetTableEntry().GetAction().GetAction().ActionId != f.id("MyIngress.drop") {
		t.Fatalf("default entry read: %v", got)
	}
	// @defaultonly NoAction cannot be an entry's action
	ent := &p4v1.TableEntry{TableId: f.id("MyIngress.renamed"), Priority: 1,
		Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: []byte{8, 0}, Mask: []byte{0xff, 0xff}}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: f.id("NoAction")}}}}
	wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(ent)), codes.InvalidArgument, "defaultonly")
	ent.Priority = 0
	ent.Action.GetAction().ActionId = f.id("MyIngress.pinned")
	wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(ent)), codes.InvalidArgument, "priority")
	ent.Match[0].GetTernary().Mask = []byte{0}
	ent.Match[0].GetTernary().Value = []byte{0}
	ent.Priority = 1
	wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(ent)), codes.InvalidArgument, "zero mask")
}

func TestExternEntries(t *testing.T) {
	f := newFixture(t)
	// counters: a packet through ingress counts index 0
	pkt := make([]byte, 14+8)
	f.p.Ingress(target.Arrival{Port: 1, Data: pkt})
	ctr := &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{CounterId: f.id("MyIngress.pkt_counter"), Index: &p4v1.Index{Index: 0}}}}
	got := f.read(ctr)
	if len(got) != 1 || got[0].GetCounterEntry().GetData().PacketCount != 1 {
		t.Fatalf("counter read: %v", got)
	}
	if all := f.read(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{}}}); len(all) != 64 {
		t.Fatalf("wildcard counter read: %d cells", len(all))
	}
	wantCode(t, f.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
		CounterId: f.id("MyIngress.pkt_counter"), Index: &p4v1.Index{Index: 64}, Data: &p4v1.CounterData{}}}}), codes.OutOfRange, "")
	// registers: the program wrote 1 at index 0
	reg := &p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: &p4v1.RegisterEntry{RegisterId: f.id("MyIngress.regs"), Index: &p4v1.Index{Index: 0}}}}
	if got := f.read(reg); string(got[0].GetRegisterEntry().GetData().GetBitstring()) != "\x01" {
		t.Fatalf("register read: %v", got)
	}
	w := proto.Clone(reg).(*p4v1.Entity)
	w.GetRegisterEntry().Index.Index = 5
	w.GetRegisterEntry().Data = &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: []byte{0xca, 0xfe}}}
	if err := f.write(p4v1.Update_MODIFY, w); err != nil {
		t.Fatal(err)
	}
	w.GetRegisterEntry().Data = nil
	if got := f.read(w); string(got[0].GetRegisterEntry().GetData().GetBitstring()) != "\xca\xfe" {
		t.Fatalf("register write/read: %v", got)
	}
	// meters
	me := &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: &p4v1.MeterEntry{MeterId: f.id("MyIngress.port_meter"), Index: &p4v1.Index{Index: 2},
		Config: &p4v1.MeterConfig{Cir: 100, Cburst: 10, Pir: 200, Pburst: 20}}}}
	if err := f.write(p4v1.Update_MODIFY, me); err != nil {
		t.Fatal(err)
	}
	if got := f.read(me); got[0].GetMeterEntry().GetConfig().GetPir() != 200 {
		t.Fatalf("meter read: %v", got)
	}
	me.GetMeterEntry().Config.Pir = 50
	wantCode(t, f.write(p4v1.Update_MODIFY, me), codes.InvalidArgument, "PIR")
	// action profile members and an entry that uses one
	prof := f.id("MyIngress.absolute_profile")
	mem := &p4v1.ActionProfileMember{ActionProfileId: prof, MemberId: 7, Action: &p4v1.Action{ActionId: f.id("MyIngress.set_nhop"),
		Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{1}}, {ParamId: 2, Value: []byte{2}}}}}
	memE := &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: mem}}
	if err := f.write(p4v1.Update_INSERT, memE); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.write(p4v1.Update_INSERT, memE), codes.AlreadyExists, "")
	ent := &p4v1.TableEntry{TableId: f.id("global_name"),
		Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{1, 2, 3, 4}}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileMemberId{ActionProfileMemberId: 8}}}
	wantCode(t, f.write(p4v1.Update_INSERT, tableEntity(ent)), codes.NotFound, "member 8")
	ent.Action = &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileMemberId{ActionProfileMemberId: 7}}
	if err := f.write(p4v1.Update_INSERT, tableEntity(ent)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.write(p4v1.Update_DELETE, memE), codes.FailedPrecondition, "in use")
	// clone sessions
	cs := &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
		Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: &p4v1.CloneSessionEntry{SessionId: 3,
			Replicas: []*p4v1.Replica{{PortKind: &p4v1.Replica_EgressPort{EgressPort: 4}, Instance: 1}}}}}}}
	if err := f.write(p4v1.Update_INSERT, cs); err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.write(p4v1.Update_INSERT, cs), codes.AlreadyExists, "")
	all := f.read(&p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
		Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: &p4v1.CloneSessionEntry{}}}}})
	if len(all) != 1 || all[0].GetPacketReplicationEngineEntry().GetCloneSessionEntry().GetSessionId() != 3 {
		t.Fatalf("clone session read: %v", all)
	}
}

func TestDigests(t *testing.T) {
	f := newFixture(t)
	pkt := []byte{1, 2, 3, 4, 5, 6, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x08, 0x00, 1, 1, 1, 1, 2, 2, 2, 2}
	res := f.p.Ingress(target.Arrival{Port: 1, Data: pkt})
	if len(res.Digests) != 3 {
		t.Fatalf("%d digests, want 3", len(res.Digests))
	}
	var id uint32
	for _, d := range f.info.Digests {
		if d.Preamble.Name == "test_digest_t" {
			id = d.Preamble.Id
		}
	}
	d := res.Digests[0]
	if d.DigestID != id || string(d.Data.GetStruct().Members[0].GetBitstring()) != "\x0a\x0b\x0c\x0d\x0e\x0f" {
		t.Fatalf("digest %v", d)
	}
	if got := res.Digests[1].Data.GetStruct().Members[1].GetBitstring(); string(got) != "\x11" {
		t.Fatalf("serializable enum member: %x", got)
	}
	// the forward table's direct counter counts bytes of hits
	fwd := &p4v1.TableEntry{TableId: f.id("MyIngress.forward"),
		Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{2, 2, 2, 2}}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: &p4v1.Action{ActionId: f.id("MyIngress.set_dmac"), Params: []*p4v1.Action_Param{{ParamId: 1, Value: []byte{9}}}}}}}
	if err := f.write(p4v1.Update_INSERT, tableEntity(fwd)); err != nil {
		t.Fatal(err)
	}
	f.p.Ingress(target.Arrival{Port: 1, Data: pkt})
	f.p.Ingress(target.Arrival{Port: 1, Data: pkt})
	dc := f.read(&p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{TableEntry: &p4v1.TableEntry{TableId: f.id("MyIngress.forward")}}}})
	if len(dc) != 1 || dc[0].GetDirectCounterEntry().GetData().GetByteCount() != int64(2*len(pkt)) {
		t.Fatalf("direct counter: %v", dc)
	}
}
