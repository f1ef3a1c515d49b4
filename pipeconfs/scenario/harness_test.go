package scenario

import (
	"encoding/binary"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/target"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

const cpuPort = 255

func programPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "p4", "fabric.p4")
}

// harness is one fresh pipeline of the fabric program.
type harness struct {
	t    *testing.T
	p    target.Pipeline
	info *p4configv1.P4Info
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	// Table state lives with the compiled program, so every test compiles anew.
	compiled, err := v1model.CompileFile(programPath(), nil)
	if err != nil {
		t.Fatalf("compiling fabric.p4: %v", err)
	}
	p := v1model.New(compiled, cpuPort)
	return &harness{t: t, p: p, info: p.P4Info()}
}

// out is a frame leaving a port.
type out struct {
	port uint32
	data []byte
}

// send runs one frame through ingress, the (instant) traffic manager with the
// given queue depth, egress, clones and recirculations; it returns every frame
// that leaves a port, in order.
func (h *harness) send(port uint32, frame []byte, now time.Duration, qdepth uint32) []out {
	var outs []out
	pending := h.p.Ingress(target.Arrival{Port: port, Data: frame, Now: now}).Queued
	for rounds := 0; len(pending) > 0; rounds++ {
		if rounds > 100 {
			h.t.Fatal("more than 100 packets from one frame")
		}
		q := pending[0]
		pending = pending[1:]
		r := h.p.Egress(q, target.QueueMeta{EnqTimestamp: now, EnqQdepth: qdepth, DeqQdepth: qdepth, Now: now})
		if r.Out != nil {
			outs = append(outs, out{r.Out.Port, r.Out.Data})
		}
		pending = append(pending, r.Queued...)
		for _, rc := range r.Recirc {
			pending = append(pending, h.p.Ingress(target.Arrival{Port: q.EgressPort, Data: rc.Data, Now: now,
				Preserved: rc.Preserved}).Queued...)
		}
	}
	return outs
}

// sendTo sends a frame and returns the one port it left on (0 = dropped);
// packet-ins are ignored.
func (h *harness) sendTo(port uint32, frame []byte, now time.Duration) uint32 {
	h.t.Helper()
	var ports []uint32
	for _, o := range h.send(port, frame, now, 0) {
		if o.port != cpuPort {
			ports = append(ports, o.port)
		}
	}
	switch len(ports) {
	case 0:
		return 0
	case 1:
		return ports[0]
	}
	h.t.Fatalf("frame left on %v", ports)
	return 0
}

func (h *harness) write(typ p4v1.Update_Type, e *p4v1.Entity) {
	h.t.Helper()
	if err := h.p.Write(&p4v1.Update{Type: typ, Entity: e}); err != nil {
		h.t.Fatalf("write %v: %v", e, err)
	}
}

func (h *harness) table(name string) *p4configv1.Table {
	for _, t := range h.info.GetTables() {
		if t.GetPreamble().GetName() == name {
			return t
		}
	}
	h.t.Fatalf("no table %s", name)
	return nil
}

func (h *harness) actionID(name string) uint32 {
	for _, a := range h.info.GetActions() {
		if a.GetPreamble().GetName() == name {
			return a.GetPreamble().GetId()
		}
	}
	h.t.Fatalf("no action %s", name)
	return 0
}

func (h *harness) action(name string, params ...uint64) *p4v1.Action {
	id := h.actionID(name)
	a := &p4v1.Action{ActionId: id}
	for _, ai := range h.info.GetActions() {
		if ai.GetPreamble().GetId() != id {
			continue
		}
		if len(ai.GetParams()) != len(params) {
			h.t.Fatalf("%s takes %d params", name, len(ai.GetParams()))
		}
		for i, p := range ai.GetParams() {
			a.Params = append(a.Params, &p4v1.Action_Param{ParamId: p.GetId(), Value: canonical(params[i])})
		}
	}
	return a
}

// canonical is the P4Runtime byte string of v: big-endian, no leading zeros.
func canonical(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

// match describes one key field: exact (plen = -1), lpm (plen >= 0), or
// ternary (mask != 0).
type match struct {
	field string
	value uint64
	plen  int
	mask  uint64
}

func exact(field string, v uint64) match { return match{field: field, value: v, plen: -1} }
func ternary(field string, v, mask uint64) match {
	return match{field: field, value: v, plen: -1, mask: mask}
}

func (h *harness) fieldMatches(table string, ms []match) []*p4v1.FieldMatch {
	t := h.table(table)
	var fms []*p4v1.FieldMatch
	for _, m := range ms {
		var id uint32
		for _, f := range t.GetMatchFields() {
			if f.GetName() == m.field {
				id = f.GetId()
			}
		}
		if id == 0 {
			h.t.Fatalf("table %s has no field %s", table, m.field)
		}
		fm := &p4v1.FieldMatch{FieldId: id}
		switch {
		case m.mask != 0:
			fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{
				Value: canonical(m.value & m.mask), Mask: canonical(m.mask)}}
		case m.plen >= 0:
			fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: canonical(m.value), PrefixLen: int32(m.plen)}}
		default:
			fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: canonical(m.value)}}
		}
		fms = append(fms, fm)
	}
	return fms
}

func (h *harness) entry(table string, ms []match, priority int32, act *p4v1.TableAction) *p4v1.Entity {
	return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
		TableId: h.table(table).GetPreamble().GetId(), Match: h.fieldMatches(table, ms), Priority: priority, Action: act}}}
}

// add inserts a table entry with a direct action.
func (h *harness) add(table string, ms []match, priority int32, action string, params ...uint64) {
	h.t.Helper()
	h.write(p4v1.Update_INSERT, h.entry(table, ms, priority,
		&p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: h.action(action, params...)}}))
}

func (h *harness) profileID(name string) uint32 {
	for _, p := range h.info.GetActionProfiles() {
		if p.GetPreamble().GetName() == name {
			return p.GetPreamble().GetId()
		}
	}
	h.t.Fatalf("no action profile %s", name)
	return 0
}

// member inserts (or, with typ MODIFY, changes) an action profile member.
func (h *harness) member(typ p4v1.Update_Type, profile string, id uint32, action string, params ...uint64) {
	h.t.Helper()
	h.write(typ, &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: &p4v1.ActionProfileMember{
		ActionProfileId: h.profileID(profile), MemberId: id, Action: h.action(action, params...)}}})
}

// group inserts or modifies a selector group with the given members.
func (h *harness) group(typ p4v1.Update_Type, profile string, id uint32, members ...uint32) {
	h.t.Helper()
	g := &p4v1.ActionProfileGroup{ActionProfileId: h.profileID(profile), GroupId: id, MaxSize: 16}
	for _, m := range members {
		g.Members = append(g.Members, &p4v1.ActionProfileGroup_Member{MemberId: m, Weight: 1})
	}
	h.write(typ, &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: g}})
}

// groupEntry points a routing-group table entry (DCN prefix, priority) at a group.
func (h *harness) groupEntry(typ p4v1.Update_Type, table string, priority int32, group uint32) {
	h.t.Helper()
	h.write(typ, h.entry(table, []match{ternary("hdr.ipv4.dst_addr", dcnPrefix, 0xFF000000)}, priority,
		&p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: group}}))
}

func (h *harness) registerID(name string) uint32 {
	for _, r := range h.info.GetRegisters() {
		if r.GetPreamble().GetName() == name {
			return r.GetPreamble().GetId()
		}
	}
	h.t.Fatalf("no register %s", name)
	return 0
}

func (h *harness) setRegister(name string, index int64, value []byte) {
	h.t.Helper()
	h.write(p4v1.Update_MODIFY, &p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: &p4v1.RegisterEntry{
		RegisterId: h.registerID(name), Index: &p4v1.Index{Index: index},
		Data: &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: value}}}}})
}

func (h *harness) readRegister(name string, index int64) []byte {
	h.t.Helper()
	var got []byte
	err := h.p.Read(&p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: &p4v1.RegisterEntry{
		RegisterId: h.registerID(name), Index: &p4v1.Index{Index: index}}}}, func(e *p4v1.Entity) error {
		got = e.GetRegisterEntry().GetData().GetBitstring()
		return nil
	})
	if err != nil {
		h.t.Fatalf("reading %s[%d]: %v", name, index, err)
	}
	return got
}

func (h *harness) cloneSessionToCPU() {
	h.t.Helper()
	h.write(p4v1.Update_INSERT, &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{
		PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
			Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: &p4v1.CloneSessionEntry{
				SessionId: 511, Replicas: []*p4v1.Replica{{PortKind: &p4v1.Replica_EgressPort{EgressPort: cpuPort}, Instance: 1}},
			}}}}})
}

// packetIn is the decoded packet_in header of a frame sent to the CPU.
type packetIn struct {
	ingressPort, reason, eventPort, metric, direction uint32
	value                                             uint32
}

func decodePacketIn(b []byte) packetIn {
	return packetIn{
		ingressPort: uint32(b[0])<<1 | uint32(b[1])>>7,
		reason:      uint32(b[2]),
		eventPort:   uint32(b[3])<<1 | uint32(b[4])>>7,
		metric:      uint32(b[5]),
		direction:   uint32(b[6]),
		value:       binary.BigEndian.Uint32(b[7:11]),
	}
}
