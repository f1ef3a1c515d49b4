package server

import (
	"bytes"
	"encoding/binary"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/fairfabric/fairfabric/p4switch/bundle"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

// These tests run the real pipeline (the v1model interpreter) with
// testdata/l3router behind the server, as a controller would use it.

type l3 struct {
	*harness
	st   *stream
	info *p4configv1.P4Info
}

func newL3(t *testing.T) *l3 {
	t.Helper()
	h := newHarness(t, v1model.Load)
	st := h.primary(1)
	cfg, err := bundle.Create("../testdata/l3router/l3router.p4")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT, cfg); err != nil {
		t.Fatal(err)
	}
	return &l3{harness: h, st: st, info: h.srv.P4Info()}
}

func (l *l3) id(kind, name string) uint32 {
	l.t.Helper()
	var pres []*p4configv1.Preamble
	switch kind {
	case "table":
		for _, x := range l.info.Tables {
			pres = append(pres, x.Preamble)
		}
	case "action":
		for _, x := range l.info.Actions {
			pres = append(pres, x.Preamble)
		}
	case "counter":
		for _, x := range l.info.Counters {
			pres = append(pres, x.Preamble)
		}
	case "meter":
		for _, x := range l.info.Meters {
			pres = append(pres, x.Preamble)
		}
	case "register":
		for _, x := range l.info.Registers {
			pres = append(pres, x.Preamble)
		}
	case "profile":
		for _, x := range l.info.ActionProfiles {
			pres = append(pres, x.Preamble)
		}
	}
	for _, p := range pres {
		if p.Name == name {
			return p.Id
		}
	}
	l.t.Fatalf("no %s %s in the P4Info", kind, name)
	return 0
}

func (l *l3) action(name string, params ...[]byte) *p4v1.Action {
	a := &p4v1.Action{ActionId: l.id("action", name)}
	for i, v := range params {
		a.Params = append(a.Params, &p4v1.Action_Param{ParamId: uint32(i + 1), Value: v})
	}
	return a
}

func ent(e any) *p4v1.Entity {
	switch x := e.(type) {
	case *p4v1.TableEntry:
		return &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: x}}
	case *p4v1.CounterEntry:
		return &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: x}}
	case *p4v1.DirectCounterEntry:
		return &p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: x}}
	case *p4v1.MeterEntry:
		return &p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: x}}
	case *p4v1.RegisterEntry:
		return &p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: x}}
	case *p4v1.ActionProfileMember:
		return &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: x}}
	case *p4v1.ActionProfileGroup:
		return &p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: x}}
	case *p4v1.CloneSessionEntry:
		return &p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{
			Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: x}}}}
	}
	panic("unknown entity")
}

func upd(t p4v1.Update_Type, e any) *p4v1.Update { return &p4v1.Update{Type: t, Entity: ent(e)} }

// route is an ipv4_lpm entry dst/plen → ipv4_forward(mac, port).
func (l *l3) route(dst []byte, plen int32, mac, port []byte) *p4v1.TableEntry {
	return &p4v1.TableEntry{TableId: l.id("table", "RouterIngress.ipv4_lpm"),
		Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: dst, PrefixLen: plen}}}},
		Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: l.action("RouterIngress.ipv4_forward", mac, port)}}}
}

var (
	hostMAC1 = []byte{0, 0, 0, 0, 0, 1}
	hostMAC2 = []byte{0, 0, 0, 0, 0, 2}
	hostMAC3 = []byte{0, 0, 0, 0, 0, 3}
	ip1      = []byte{10, 0, 0, 1}
	ip2      = []byte{10, 0, 0, 2}
	ip3      = []byte{10, 0, 0, 3}
)

func checksum(b []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(b); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(b[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

// ipv4Frame is Ethernet + a 20-byte IPv4 header + payload.
func ipv4Frame(dstMAC, srcMAC, src, dst []byte, ttl, proto byte, payload string) []byte {
	f := append(append(append([]byte(nil), dstMAC...), srcMAC...), 0x08, 0x00)
	ip := make([]byte, 20)
	ip[0], ip[8], ip[9] = 0x45, ttl, proto
	binary.BigEndian.PutUint16(ip[2:], uint16(20+len(payload)))
	copy(ip[12:], src)
	copy(ip[16:], dst)
	binary.BigEndian.PutUint16(ip[10:], checksum(ip))
	return append(append(f, ip...), payload...)
}

func TestL3RouterForwardsAndRewrites(t *testing.T) {
	l := newL3(t)
	if err := l.write(1,
		upd(p4v1.Update_INSERT, l.route(ip2, 32, hostMAC2, []byte{2})),
		upd(p4v1.Update_INSERT, &p4v1.TableEntry{TableId: l.id("table", "RouterEgress.mac_rewrite"),
			Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{2}}}}},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: l.action("RouterEgress.set_smac", []byte{0xaa, 0, 0, 0, 0, 2})}}}),
	); err != nil {
		t.Fatal(err)
	}
	l.send(1, ipv4Frame([]byte{0xaa, 0, 0, 0, 0, 1}, hostMAC1, ip1, ip2, 64, 17, "payload"))
	got, ok := l.receive(2, 5*time.Second)
	if !ok {
		t.Fatal("routed packet did not arrive on port 2")
	}
	want := ipv4Frame(hostMAC2, []byte{0xaa, 0, 0, 0, 0, 2}, ip1, ip2, 63, 17, "payload")
	if !bytes.Equal(got, want) {
		t.Fatalf("routed packet\n got %x\nwant %x", got, want)
	}

	// Write errors with the real pipeline.
	cases := []struct {
		name string
		u    *p4v1.Update
		want codes.Code
	}{
		{"duplicate", upd(p4v1.Update_INSERT, l.route(ip2, 32, hostMAC2, []byte{2})), codes.AlreadyExists},
		{"port param wider than 9 bits", upd(p4v1.Update_INSERT, l.route(ip3, 32, hostMAC3, []byte{2, 0})), codes.InvalidArgument},
		{"modify missing", upd(p4v1.Update_MODIFY, l.route(ip3, 32, hostMAC3, []byte{3})), codes.NotFound},
		{"unknown table", upd(p4v1.Update_INSERT, &p4v1.TableEntry{TableId: 0x02000bad}), codes.NotFound},
	}
	for _, c := range cases {
		got := errorDetails(t, l.write(1, c.u))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %v, want [%v]", c.name, got, c.want)
		}
	}
	// Modify, then the packet follows the new entry; delete, then it is dropped.
	if err := l.write(1, upd(p4v1.Update_MODIFY, l.route(ip2, 32, hostMAC2, []byte{3}))); err != nil {
		t.Fatal(err)
	}
	l.send(1, ipv4Frame(hostMAC1, hostMAC1, ip1, ip2, 64, 17, "again"))
	if _, ok := l.receive(3, 5*time.Second); !ok {
		t.Fatal("after MODIFY the packet did not leave port 3")
	}
	if err := l.write(1, upd(p4v1.Update_DELETE, l.route(ip2, 32, nil, nil))); err != nil {
		t.Fatal(err)
	}
	l.send(1, ipv4Frame(hostMAC1, hostMAC1, ip1, ip2, 64, 17, "gone"))
	for _, p := range []uint32{2, 3} {
		if got, ok := l.receive(p, 200*time.Millisecond); ok {
			t.Fatalf("deleted route still forwards to port %d: %x", p, got)
		}
	}
}

func TestL3RouterCountersRegistersMeters(t *testing.T) {
	l := newL3(t)
	route := l.route(ip2, 32, hostMAC2, []byte{2})
	if err := l.write(1, upd(p4v1.Update_INSERT, route)); err != nil {
		t.Fatal(err)
	}
	srcMAC := []byte{0x02, 0x11, 0x22, 0x33, 0x44, 0x55}
	for i := 0; i < 3; i++ {
		l.send(1, ipv4Frame(hostMAC1, srcMAC, ip1, ip2, 64, 17, "count me"))
		if _, ok := l.receive(2, 5*time.Second); !ok {
			t.Fatal("packet not forwarded")
		}
	}
	// Indirect counter indexed by ingress port.
	es, err := l.read(ent(&p4v1.CounterEntry{CounterId: l.id("counter", "RouterIngress.port_rx"), Index: &p4v1.Index{Index: 1}}))
	if err != nil || len(es) != 1 || es[0].GetCounterEntry().GetData().GetPacketCount() != 3 {
		t.Fatalf("port_rx[1]: %v %v", es, err)
	}
	// Wildcard read of the whole counter array.
	es, err = l.read(ent(&p4v1.CounterEntry{CounterId: l.id("counter", "RouterIngress.port_rx")}))
	if err != nil || len(es) != 512 {
		t.Fatalf("wildcard counter read: %d entries, %v", len(es), err)
	}
	// Direct counter of the route.
	es, err = l.read(ent(&p4v1.DirectCounterEntry{TableEntry: route}))
	if err != nil || len(es) != 1 || es[0].GetDirectCounterEntry().GetData().GetPacketCount() != 3 {
		t.Fatalf("direct counter: %v %v", es, err)
	}
	// Register written by the program, then by the controller.
	reg := l.id("register", "RouterIngress.last_src_mac")
	es, err = l.read(ent(&p4v1.RegisterEntry{RegisterId: reg, Index: &p4v1.Index{Index: 1}}))
	if err != nil || len(es) != 1 || !bytes.Equal(es[0].GetRegisterEntry().GetData().GetBitstring(), srcMAC) {
		t.Fatalf("last_src_mac[1]: %v %v", es, err)
	}
	if err := l.write(1, upd(p4v1.Update_MODIFY, &p4v1.RegisterEntry{RegisterId: reg, Index: &p4v1.Index{Index: 7},
		Data: &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: []byte{0x42}}}})); err != nil {
		t.Fatal(err)
	}
	es, err = l.read(ent(&p4v1.RegisterEntry{RegisterId: reg, Index: &p4v1.Index{Index: 7}}))
	if err != nil || len(es) != 1 || !bytes.Equal(es[0].GetRegisterEntry().GetData().GetBitstring(), []byte{0x42}) {
		t.Fatalf("last_src_mac[7]: %v %v", es, err)
	}
	// A meter configured at 1 byte/s marks the next packets red: dropped.
	meter := &p4v1.MeterEntry{MeterId: l.id("meter", "RouterIngress.port_meter"), Index: &p4v1.Index{Index: 1},
		Config: &p4v1.MeterConfig{Cir: 1, Cburst: 1, Pir: 1, Pburst: 1}}
	if err := l.write(1, upd(p4v1.Update_MODIFY, meter)); err != nil {
		t.Fatal(err)
	}
	es, err = l.read(ent(&p4v1.MeterEntry{MeterId: meter.MeterId, Index: &p4v1.Index{Index: 1}}))
	if err != nil || len(es) != 1 || es[0].GetMeterEntry().GetConfig().GetPir() != 1 {
		t.Fatalf("meter read: %v %v", es, err)
	}
	for i := 0; i < 3; i++ {
		l.send(1, ipv4Frame(hostMAC1, srcMAC, ip1, ip2, 64, 17, "metered away"))
	}
	if got, ok := l.receive(2, 300*time.Millisecond); ok {
		t.Fatalf("a red packet was forwarded: %x", got)
	}
	// Port 3's meter is unconfigured: traffic from port 3 still passes.
	l.send(3, ipv4Frame(hostMAC1, srcMAC, ip3, ip2, 64, 17, "green"))
	if _, ok := l.receive(2, 5*time.Second); !ok {
		t.Fatal("unmetered port's packet was dropped")
	}
}

func TestL3RouterActionProfileGroupAndCloneSession(t *testing.T) {
	l := newL3(t)
	prof := l.id("profile", "RouterIngress.ecmp_selector")
	ups := []*p4v1.Update{
		upd(p4v1.Update_INSERT, &p4v1.ActionProfileMember{ActionProfileId: prof, MemberId: 1, Action: l.action("RouterIngress.ipv4_forward", hostMAC2, []byte{2})}),
		upd(p4v1.Update_INSERT, &p4v1.ActionProfileMember{ActionProfileId: prof, MemberId: 2, Action: l.action("RouterIngress.ipv4_forward", hostMAC3, []byte{3})}),
		upd(p4v1.Update_INSERT, &p4v1.ActionProfileGroup{ActionProfileId: prof, GroupId: 10, MaxSize: 4,
			Members: []*p4v1.ActionProfileGroup_Member{{MemberId: 1, Weight: 1}, {MemberId: 2, Weight: 1}}}),
		upd(p4v1.Update_INSERT, &p4v1.TableEntry{TableId: l.id("table", "RouterIngress.ecmp"),
			Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{10, 0, 9, 9}}}}},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: 10}}}),
	}
	if err := l.write(1, ups...); err != nil {
		t.Fatal(err)
	}
	// A group pointing at a missing member is refused.
	bad := upd(p4v1.Update_INSERT, &p4v1.ActionProfileGroup{ActionProfileId: prof, GroupId: 11, MaxSize: 4,
		Members: []*p4v1.ActionProfileGroup_Member{{MemberId: 99, Weight: 1}}})
	if got := errorDetails(t, l.write(1, bad)); len(got) != 1 || got[0] == codes.OK {
		t.Fatalf("group with a missing member: %v", got)
	}
	members, err := l.read(ent(&p4v1.ActionProfileMember{ActionProfileId: prof}))
	if err != nil || len(members) != 2 {
		t.Fatalf("wildcard member read: %d, %v", len(members), err)
	}
	// Flows spread over the group's members; every packet leaves port 2 or 3.
	seen := map[uint32]bool{}
	for i := 0; i < 32 && len(seen) < 2; i++ {
		src := []byte{10, 1, byte(i), byte(i * 7)}
		l.send(1, ipv4Frame(hostMAC1, hostMAC1, src, []byte{10, 0, 9, 9}, 64, 6, "ecmp"))
		select {
		case <-l.frames[2]:
			seen[2] = true
		case <-l.frames[3]:
			seen[3] = true
		case <-time.After(5 * time.Second):
			t.Fatal("ECMP packet was not forwarded")
		}
	}
	if !seen[2] || !seen[3] {
		t.Fatalf("32 flows all used one member: %v", seen)
	}

	// Clone session 100 mirrors ACL matches (UDP) to port 3.
	if err := l.write(1,
		upd(p4v1.Update_INSERT, &p4v1.CloneSessionEntry{SessionId: 100, Replicas: []*p4v1.Replica{{PortKind: &p4v1.Replica_EgressPort{EgressPort: 3}, Instance: 1}}}),
		upd(p4v1.Update_INSERT, l.route(ip2, 32, hostMAC2, []byte{2})),
		upd(p4v1.Update_INSERT, &p4v1.TableEntry{TableId: l.id("table", "RouterIngress.acl"), Priority: 10,
			Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: []byte{17}, Mask: []byte{0xff}}}}},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: l.action("RouterIngress.mirror")}}}),
	); err != nil {
		t.Fatal(err)
	}
	l.send(1, ipv4Frame(hostMAC1, hostMAC1, ip1, ip2, 64, 17, "mirrored"))
	if _, ok := l.receive(2, 5*time.Second); !ok {
		t.Fatal("original did not reach port 2")
	}
	if got, ok := l.receive(3, 5*time.Second); !ok || !bytes.HasSuffix(got, []byte("mirrored")) {
		t.Fatalf("clone on port 3: %x %v", got, ok)
	}
	es, err := l.read(ent(&p4v1.CloneSessionEntry{}))
	if err != nil || len(es) != 1 || es[0].GetPacketReplicationEngineEntry().GetCloneSessionEntry().GetSessionId() != 100 {
		t.Fatalf("clone session read: %v %v", es, err)
	}
	// TCP does not match the ACL: no clone.
	l.send(1, ipv4Frame(hostMAC1, hostMAC1, ip1, ip2, 64, 6, "not mirrored"))
	l.receive(2, 5*time.Second)
	if got, ok := l.receive(3, 200*time.Millisecond); ok {
		t.Fatalf("TCP was mirrored: %x", got)
	}
}

func TestL3RouterPacketInOut(t *testing.T) {
	l := newL3(t)
	// Packet-out: egress_port metadata picks the port; the header is removed.
	frame := ipv4Frame(hostMAC3, hostMAC1, ip1, ip3, 64, 17, "from controller")
	l.st.s.Send(&p4v1.StreamMessageRequest{Update: &p4v1.StreamMessageRequest_Packet{Packet: &p4v1.PacketOut{
		Payload: frame, Metadata: []*p4v1.PacketMetadata{{MetadataId: 1, Value: []byte{3}}}}}})
	if got, ok := l.receive(3, 5*time.Second); !ok || !bytes.Equal(got, frame) {
		t.Fatalf("packet-out on port 3: %x %v", got, ok)
	}
	// TTL 1 goes to the controller with the ingress port as metadata.
	expiring := ipv4Frame(hostMAC2, hostMAC1, ip1, ip2, 1, 17, "ttl expires")
	l.send(2, expiring)
	pin := next(l.st, func(m *p4v1.StreamMessageResponse) (*p4v1.PacketIn, bool) { return m.GetPacket(), m.GetPacket() != nil })
	if !bytes.Equal(pin.Payload, expiring) || len(pin.Metadata) < 1 || pin.Metadata[0].MetadataId != 1 ||
		!bytes.Equal(pin.Metadata[0].Value, []byte{2}) {
		t.Fatalf("packet-in %v", pin)
	}
	// Wildcard read across all tables after a few inserts.
	if err := l.write(1, upd(p4v1.Update_INSERT, l.route(ip2, 32, hostMAC2, []byte{2})),
		upd(p4v1.Update_INSERT, l.route([]byte{10, 1, 0, 0}, 16, hostMAC3, []byte{3}))); err != nil {
		t.Fatal(err)
	}
	es, err := l.read(ent(&p4v1.TableEntry{}))
	if err != nil || len(es) != 2 {
		t.Fatalf("wildcard read of all tables: %d entries, %v", len(es), err)
	}
}

func TestL3RouterReconcileKeepsState(t *testing.T) {
	l := newL3(t)
	prof := l.id("profile", "RouterIngress.ecmp_selector")
	reg := l.id("register", "RouterIngress.last_src_mac")
	if err := l.write(1,
		upd(p4v1.Update_INSERT, &p4v1.ActionProfileMember{ActionProfileId: prof, MemberId: 1, Action: l.action("RouterIngress.ipv4_forward", hostMAC2, []byte{2})}),
		upd(p4v1.Update_INSERT, &p4v1.ActionProfileGroup{ActionProfileId: prof, GroupId: 10, MaxSize: 4, Members: []*p4v1.ActionProfileGroup_Member{{MemberId: 1, Weight: 1}}}),
		upd(p4v1.Update_INSERT, &p4v1.TableEntry{TableId: l.id("table", "RouterIngress.ecmp"),
			Match:  []*p4v1.FieldMatch{{FieldId: 1, FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{10, 0, 9, 9}}}}},
			Action: &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: 10}}}),
		upd(p4v1.Update_INSERT, l.route(ip2, 32, hostMAC2, []byte{2})),
		upd(p4v1.Update_INSERT, &p4v1.CloneSessionEntry{SessionId: 100, Replicas: []*p4v1.Replica{{PortKind: &p4v1.Replica_EgressPort{EgressPort: 3}, Instance: 1}}}),
		upd(p4v1.Update_MODIFY, &p4v1.RegisterEntry{RegisterId: reg, Index: &p4v1.Index{Index: 5}, Data: &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: []byte{9}}}}),
	); err != nil {
		t.Fatal(err)
	}
	cfg, _ := bundle.Create("../testdata/l3router/l3router.p4")
	if err := l.setPipeline(1, p4v1.SetForwardingPipelineConfigRequest_RECONCILE_AND_COMMIT, cfg); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name string
		e    *p4v1.Entity
		want int
	}{
		{"tables", ent(&p4v1.TableEntry{}), 2},
		{"members", ent(&p4v1.ActionProfileMember{ActionProfileId: prof}), 1},
		{"groups", ent(&p4v1.ActionProfileGroup{ActionProfileId: prof}), 1},
		{"clone sessions", ent(&p4v1.CloneSessionEntry{}), 1},
	}
	for _, c := range checks {
		if es, err := l.read(c.e); err != nil || len(es) != c.want {
			t.Errorf("after reconcile, %s: %d (%v), want %d", c.name, len(es), err, c.want)
		}
	}
	es, err := l.read(ent(&p4v1.RegisterEntry{RegisterId: reg, Index: &p4v1.Index{Index: 5}}))
	if err != nil || len(es) != 1 || !bytes.Equal(es[0].GetRegisterEntry().GetData().GetBitstring(), []byte{9}) {
		t.Errorf("register after reconcile: %v %v", es, err)
	}
	l.send(1, ipv4Frame(hostMAC1, hostMAC1, ip1, ip2, 64, 17, "still routed"))
	if _, ok := l.receive(2, 5*time.Second); !ok {
		t.Fatal("route lost in reconcile")
	}
}
