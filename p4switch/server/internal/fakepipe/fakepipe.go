// Package fakepipe is a hand-written target.Pipeline for testing the switch
// side of p4switch without the P4 interpreter: an L2 switch with one exact
// table on the destination MAC, controller packet_in/packet_out headers and
// a MAC-learning digest. It is a test double, not a feature.
//
// The program it pretends to be:
//
//	header packet_out_t { bit<9> egress_port; bit<7> _pad; }  // @controller_header("packet_out")
//	header packet_in_t  { bit<9> ingress_port; bit<7> _pad; } // @controller_header("packet_in")
//	table dmac { key = { hdr.ethernet.dstAddr: exact; }
//	             actions = { forward(bit<9> port); drop; NoAction; } default_action = NoAction; }
//
// From the CPU port, the packet_out header's egress_port is used directly.
// A dmac miss sends the frame to the CPU (packet_in) and emits digest
// "learn" {srcAddr bit<48>, port bit<9>}.
package fakepipe

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// IDs of the fake program's P4Info objects.
const (
	TableDmac      = 0x02000001
	ActionForward  = 0x01000001
	ActionDrop     = 0x01000002
	ActionNoAction = 0x01000003
	PacketInID     = 0x40000001
	PacketOutID    = 0x40000002
	DigestLearn    = 0x3d000001
)

// Loader accepts the device config "fake-l2" and nothing else.
func Loader(config []byte, cpuPort uint32) (target.Pipeline, error) {
	if !bytes.Equal(config, []byte("fake-l2")) {
		return nil, fmt.Errorf("fakepipe: device config must be \"fake-l2\", got %d bytes", len(config))
	}
	return &Pipe{cpu: cpuPort, entries: map[string]*p4v1.TableEntry{}, digests: map[uint32]*p4v1.DigestEntry{}}, nil
}

// Pipe is one loaded instance.
type Pipe struct {
	cpu     uint32
	mu      sync.Mutex
	entries map[string]*p4v1.TableEntry // by 6-byte MAC
	digests map[uint32]*p4v1.DigestEntry
}

// P4Info describes the fake program.
func (p *Pipe) P4Info() *p4configv1.P4Info { return Info() }

// Info is the fake program's P4Info.
func Info() *p4configv1.P4Info {
	return &p4configv1.P4Info{
		PkgInfo: &p4configv1.PkgInfo{Arch: "v1model"},
		Tables: []*p4configv1.Table{{
			Preamble: &p4configv1.Preamble{Id: TableDmac, Name: "MyIngress.dmac", Alias: "dmac"},
			MatchFields: []*p4configv1.MatchField{{Id: 1, Name: "hdr.ethernet.dstAddr", Bitwidth: 48,
				Match: &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_EXACT}}},
			ActionRefs: []*p4configv1.ActionRef{{Id: ActionForward}, {Id: ActionDrop}, {Id: ActionNoAction}},
			Size:       1024,
		}},
		Actions: []*p4configv1.Action{
			{Preamble: &p4configv1.Preamble{Id: ActionForward, Name: "MyIngress.forward", Alias: "forward"},
				Params: []*p4configv1.Action_Param{{Id: 1, Name: "port", Bitwidth: 9}}},
			{Preamble: &p4configv1.Preamble{Id: ActionDrop, Name: "MyIngress.drop", Alias: "drop"}},
			{Preamble: &p4configv1.Preamble{Id: ActionNoAction, Name: "NoAction", Alias: "NoAction"}},
		},
		ControllerPacketMetadata: []*p4configv1.ControllerPacketMetadata{
			{Preamble: &p4configv1.Preamble{Id: PacketInID, Name: "packet_in", Alias: "packet_in"},
				Metadata: []*p4configv1.ControllerPacketMetadata_Metadata{{Id: 1, Name: "ingress_port", Bitwidth: 9}, {Id: 2, Name: "_pad", Bitwidth: 7}}},
			{Preamble: &p4configv1.Preamble{Id: PacketOutID, Name: "packet_out", Alias: "packet_out"},
				Metadata: []*p4configv1.ControllerPacketMetadata_Metadata{{Id: 1, Name: "egress_port", Bitwidth: 9}, {Id: 2, Name: "_pad", Bitwidth: 7}}},
		},
		Digests: []*p4configv1.Digest{{Preamble: &p4configv1.Preamble{Id: DigestLearn, Name: "learn", Alias: "learn"},
			TypeSpec: &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Struct{Struct: &p4configv1.P4NamedType{Name: "learn_t"}}}}},
	}
}

func errf(c codes.Code, format string, args ...any) error { return status.Errorf(c, format, args...) }

// checkEntry validates a dmac entry and returns its key.
func checkEntry(e *p4v1.TableEntry, needAction bool) (string, error) {
	if e.TableId != TableDmac {
		return "", errf(codes.NotFound, "table id %d not found", e.TableId)
	}
	if len(e.Match) != 1 || e.Match[0].FieldId != 1 || e.Match[0].GetExact() == nil {
		return "", errf(codes.InvalidArgument, "dmac needs one exact match on field 1")
	}
	v := e.Match[0].GetExact().Value
	if len(v) == 0 || len(v) > 6 || (len(v) > 1 && v[0] == 0) {
		return "", errf(codes.InvalidArgument, "field 1 value %x is not a canonical 48-bit value", v)
	}
	if needAction {
		a := e.GetAction().GetAction()
		if a == nil {
			return "", errf(codes.InvalidArgument, "entry has no action")
		}
		switch a.ActionId {
		case ActionForward:
			if len(a.Params) != 1 || a.Params[0].ParamId != 1 {
				return "", errf(codes.InvalidArgument, "forward takes one param, port")
			}
			pv := a.Params[0].Value
			if len(pv) == 0 || len(pv) > 2 || (len(pv) == 2 && pv[0] > 1) {
				return "", errf(codes.InvalidArgument, "param port value %x does not fit in 9 bits", pv)
			}
		case ActionDrop, ActionNoAction:
			if len(a.Params) != 0 {
				return "", errf(codes.InvalidArgument, "action %d takes no params", a.ActionId)
			}
		default:
			return "", errf(codes.NotFound, "action id %d not found", a.ActionId)
		}
	}
	key := make([]byte, 6)
	copy(key[6-len(v):], v)
	return string(key), nil
}

// Write applies one update.
func (p *Pipe) Write(u *p4v1.Update) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := u.GetEntity().GetEntity().(type) {
	case *p4v1.Entity_TableEntry:
		key, err := checkEntry(e.TableEntry, u.Type != p4v1.Update_DELETE)
		if err != nil {
			return err
		}
		_, exists := p.entries[key]
		switch u.Type {
		case p4v1.Update_INSERT:
			if exists {
				return errf(codes.AlreadyExists, "entry already exists")
			}
		case p4v1.Update_MODIFY, p4v1.Update_DELETE:
			if !exists {
				return errf(codes.NotFound, "entry not found")
			}
		default:
			return errf(codes.InvalidArgument, "unknown update type %v", u.Type)
		}
		if u.Type == p4v1.Update_DELETE {
			delete(p.entries, key)
		} else {
			p.entries[key] = proto.Clone(e.TableEntry).(*p4v1.TableEntry)
		}
		return nil
	case *p4v1.Entity_DigestEntry:
		d := e.DigestEntry
		if d.DigestId != DigestLearn {
			return errf(codes.NotFound, "digest id %d not found", d.DigestId)
		}
		_, exists := p.digests[d.DigestId]
		switch {
		case u.Type == p4v1.Update_INSERT && exists:
			return errf(codes.AlreadyExists, "digest entry already exists")
		case u.Type != p4v1.Update_INSERT && !exists:
			return errf(codes.NotFound, "digest entry not found")
		}
		if u.Type == p4v1.Update_DELETE {
			delete(p.digests, d.DigestId)
		} else {
			p.digests[d.DigestId] = proto.Clone(d).(*p4v1.DigestEntry)
		}
		return nil
	case nil:
		return errf(codes.InvalidArgument, "update has no entity")
	default:
		return errf(codes.Unimplemented, "fakepipe supports only table and digest entries")
	}
}

// Read emits the dmac entries (all, or the one matching).
func (p *Pipe) Read(ent *p4v1.Entity, emit func(*p4v1.Entity) error) error {
	p.mu.Lock()
	var out []*p4v1.Entity
	switch e := ent.GetEntity().(type) {
	case *p4v1.Entity_TableEntry:
		if e.TableEntry.TableId != 0 && e.TableEntry.TableId != TableDmac {
			p.mu.Unlock()
			return errf(codes.NotFound, "table id %d not found", e.TableEntry.TableId)
		}
		for _, te := range p.entries {
			out = append(out, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: proto.Clone(te).(*p4v1.TableEntry)}})
		}
	case *p4v1.Entity_DigestEntry:
		for _, d := range p.digests {
			out = append(out, &p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: proto.Clone(d).(*p4v1.DigestEntry)}})
		}
	default:
		p.mu.Unlock()
		return errf(codes.Unimplemented, "fakepipe reads only table and digest entries")
	}
	p.mu.Unlock()
	for _, e := range out {
		if err := emit(e); err != nil {
			return err
		}
	}
	return nil
}

// inflight is the fake's per-packet state.
type inflight struct {
	data   []byte
	inPort uint32
}

// Ingress forwards by dmac, or to the CPU on a miss.
func (p *Pipe) Ingress(a target.Arrival) target.IngressResult {
	data := a.Data
	if a.Port == p.cpu && p.cpu != 0 {
		if len(data) < 2 {
			return target.IngressResult{}
		}
		port := uint32(binary.BigEndian.Uint16(data) >> 7)
		data = data[2:]
		return target.IngressResult{Queued: []target.Queued{{EgressPort: port, Length: len(data), Packet: inflight{data, a.Port}}}}
	}
	if len(data) < 14 {
		return target.IngressResult{}
	}
	p.mu.Lock()
	e := p.entries[string(data[0:6])]
	p.mu.Unlock()
	if e != nil {
		act := e.GetAction().GetAction()
		if act.ActionId != ActionForward {
			return target.IngressResult{}
		}
		pv := act.Params[0].Value
		port := uint32(0)
		for _, b := range pv {
			port = port<<8 | uint32(b)
		}
		return target.IngressResult{Queued: []target.Queued{{EgressPort: port, Length: len(data), Packet: inflight{data, a.Port}}}}
	}
	res := target.IngressResult{Digests: []target.Digest{{DigestID: DigestLearn, Data: &p4v1.P4Data{Data: &p4v1.P4Data_Struct{Struct: &p4v1.P4StructLike{Members: []*p4v1.P4Data{
		{Data: &p4v1.P4Data_Bitstring{Bitstring: canonical(data[6:12])}},
		{Data: &p4v1.P4Data_Bitstring{Bitstring: canonical([]byte{byte(a.Port >> 8), byte(a.Port)})}},
	}}}}}}}
	if p.cpu != 0 {
		res.Queued = []target.Queued{{EgressPort: p.cpu, Length: len(data), Packet: inflight{data, a.Port}}}
	}
	return res
}

func canonical(b []byte) []byte {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return append([]byte(nil), b...)
}

// Egress adds the packet_in header for the CPU port.
func (p *Pipe) Egress(q target.Queued, m target.QueueMeta) target.EgressResult {
	f := q.Packet.(inflight)
	if q.EgressPort == p.cpu {
		hdr := make([]byte, 2, 2+len(f.data))
		binary.BigEndian.PutUint16(hdr, uint16(f.inPort<<7))
		return target.EgressResult{Out: &target.Output{Port: p.cpu, Data: append(hdr, f.data...)}}
	}
	return target.EgressResult{Out: &target.Output{Port: q.EgressPort, Data: f.data}}
}
