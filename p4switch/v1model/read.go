package v1model

import (
	"sort"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/fairfabric/fairfabric/p4switch/interp"
)

// Read implements target.Pipeline.
func (p *Pipeline) Read(entity *p4v1.Entity, emit func(*p4v1.Entity) error) error {
	if entity == nil {
		return errf(codes.InvalidArgument, "empty entity")
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	return p.read(entity, emit)
}

// read emits the entities matching entity; the caller holds writeMu.
func (p *Pipeline) read(entity *p4v1.Entity, emit func(*p4v1.Entity) error) error {
	switch e := entity.Entity.(type) {
	case *p4v1.Entity_TableEntry:
		return p.readTable(e.TableEntry, emit)
	case *p4v1.Entity_ActionProfileMember:
		return p.readMembers(e.ActionProfileMember, emit)
	case *p4v1.Entity_ActionProfileGroup:
		return p.readGroups(e.ActionProfileGroup, emit)
	case *p4v1.Entity_CounterEntry:
		return p.readCounters(e.CounterEntry, emit)
	case *p4v1.Entity_DirectCounterEntry:
		return p.readDirectCounters(e.DirectCounterEntry, emit)
	case *p4v1.Entity_MeterEntry:
		return p.readMeters(e.MeterEntry, emit)
	case *p4v1.Entity_DirectMeterEntry:
		return p.readDirectMeters(e.DirectMeterEntry, emit)
	case *p4v1.Entity_RegisterEntry:
		return p.readRegisters(e.RegisterEntry, emit)
	case *p4v1.Entity_PacketReplicationEngineEntry:
		return p.readPRE(e.PacketReplicationEngineEntry, emit)
	case *p4v1.Entity_DigestEntry:
		return p.readDigests(e.DigestEntry, emit)
	case *p4v1.Entity_ValueSetEntry:
		return p.readValueSets(e.ValueSetEntry, emit)
	}
	return errf(codes.Unimplemented, "reading %T is not supported", entity.Entity)
}

// tables returns the tables selected by id (0 = all) in P4Info order.
func (p *Pipeline) tables(id uint32) ([]*interp.Table, error) {
	if id == 0 {
		return p.p.Tables, nil
	}
	t, err := p.tableByID(id)
	if err != nil {
		return nil, err
	}
	return []*interp.Table{t}, nil
}

func (p *Pipeline) actionProto(call *interp.ActionCall) *p4v1.Action {
	a := &p4v1.Action{ActionId: p.c.IDs.Actions[call.Action]}
	for i, prm := range call.Action.Params {
		a.Params = append(a.Params, &p4v1.Action_Param{ParamId: uint32(i + 1), Value: wordsBytes(call.Args[i], prm.Width)})
	}
	return a
}

func (p *Pipeline) entryProto(t *interp.Table, en *interp.Entry, req *p4v1.TableEntry) *p4v1.TableEntry {
	te := &p4v1.TableEntry{TableId: p.c.IDs.Tables[t], Priority: en.Priority, IdleTimeoutNs: en.IdleTimeoutNs}
	if !t.NeedsPriority() {
		te.Priority = 0
	}
	for i, m := range en.Matches {
		if m.Wild {
			continue
		}
		k := t.Keys[i]
		fm := &p4v1.FieldMatch{FieldId: uint32(i + 1)}
		switch k.MatchKind {
		case "exact":
			fm.FieldMatchType = &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: wordsBytes(m.Value, k.Width)}}
		case "lpm":
			fm.FieldMatchType = &p4v1.FieldMatch_Lpm{Lpm: &p4v1.FieldMatch_LPM{Value: wordsBytes(m.Value, k.Width), PrefixLen: int32(m.Plen)}}
		case "ternary":
			fm.FieldMatchType = &p4v1.FieldMatch_Ternary_{Ternary: &p4v1.FieldMatch_Ternary{Value: wordsBytes(m.Value, k.Width), Mask: wordsBytes(m.Mask, k.Width)}}
		case "range":
			fm.FieldMatchType = &p4v1.FieldMatch_Range_{Range: &p4v1.FieldMatch_Range{Low: wordsBytes(m.Value, k.Width), High: wordsBytes(m.High, k.Width)}}
		case "optional":
			fm.FieldMatchType = &p4v1.FieldMatch_Optional_{Optional: &p4v1.FieldMatch_Optional{Value: wordsBytes(m.Value, k.Width)}}
		}
		te.Match = append(te.Match, fm)
	}
	switch {
	case en.UseMember:
		te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileMemberId{ActionProfileMemberId: en.Member}}
	case en.UseGroup:
		te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_ActionProfileGroupId{ActionProfileGroupId: en.Group}}
	case en.Call != nil:
		te.Action = &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: p.actionProto(en.Call)}}
	}
	if len(en.Metadata) == 8 {
		var v uint64
		for _, b := range en.Metadata {
			v = v<<8 | uint64(b)
		}
		te.ControllerMetadata = v
	}
	if t.SupportsIdle && req != nil && req.TimeSinceLastHit != nil {
		te.TimeSinceLastHit = sinceLastHit(en)
	}
	if t.DirectCounter != nil && (req == nil || req.CounterData != nil) {
		te.CounterData = &p4v1.CounterData{PacketCount: int64(en.Counter.Packets.Load()), ByteCount: int64(en.Counter.Bytes.Load())}
	}
	if t.DirectMeter != nil && en.Meter != nil && (req == nil || req.MeterConfig != nil) {
		if cfg := en.Meter.GetConfig(); cfg != nil {
			te.MeterConfig = &p4v1.MeterConfig{Cir: cfg.CIR, Cburst: cfg.CBurst, Pir: cfg.PIR, Pburst: cfg.PBurst}
		}
	}
	return te
}

func (p *Pipeline) readTable(req *p4v1.TableEntry, emit func(*p4v1.Entity) error) error {
	ts, err := p.tables(req.TableId)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if req.IsDefaultAction {
			d := t.GetDefault()
			te := &p4v1.TableEntry{TableId: p.c.IDs.Tables[t], IsDefaultAction: true, Action: &p4v1.TableAction{Type: &p4v1.TableAction_Action{Action: p.actionProto(d)}}}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: te}}); err != nil {
				return err
			}
			continue
		}
		if len(req.Match) > 0 && req.TableId != 0 {
			key, err := p.entryFromProto(t, req)
			if err != nil {
				return err
			}
			if en := t.Lookup(key); en != nil {
				if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: p.entryProto(t, en, req)}}); err != nil {
					return err
				}
			}
			continue
		}
		for _, en := range t.Entries() {
			if req.Priority != 0 && en.Priority != req.Priority {
				continue
			}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: p.entryProto(t, en, req)}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Pipeline) profiles(id uint32) ([]*interp.ActionProfile, error) {
	if id == 0 {
		return p.p.Profiles, nil
	}
	ap, err := p.profileByID(id)
	if err != nil {
		return nil, err
	}
	return []*interp.ActionProfile{ap}, nil
}

func sortedKeys[V any](m map[uint32]V) []uint32 {
	var ks []uint32
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}

func (p *Pipeline) readMembers(req *p4v1.ActionProfileMember, emit func(*p4v1.Entity) error) error {
	aps, err := p.profiles(req.ActionProfileId)
	if err != nil {
		return err
	}
	for _, ap := range aps {
		for _, id := range sortedKeys(ap.Members) {
			if req.MemberId != 0 && id != req.MemberId {
				continue
			}
			m := &p4v1.ActionProfileMember{ActionProfileId: p.c.IDs.Profiles[ap], MemberId: id, Action: p.actionProto(ap.Members[id])}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_ActionProfileMember{ActionProfileMember: m}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Pipeline) readGroups(req *p4v1.ActionProfileGroup, emit func(*p4v1.Entity) error) error {
	aps, err := p.profiles(req.ActionProfileId)
	if err != nil {
		return err
	}
	for _, ap := range aps {
		for _, id := range sortedKeys(ap.Groups) {
			if req.GroupId != 0 && id != req.GroupId {
				continue
			}
			g := ap.Groups[id]
			pg := &p4v1.ActionProfileGroup{ActionProfileId: p.c.IDs.Profiles[ap], GroupId: id, MaxSize: int32(g.MaxSize)}
			for _, m := range g.Members {
				pg.Members = append(pg.Members, &p4v1.ActionProfileGroup_Member{MemberId: m.ID, Weight: int32(m.Weight)})
			}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_ActionProfileGroup{ActionProfileGroup: pg}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Pipeline) readCounters(req *p4v1.CounterEntry, emit func(*p4v1.Entity) error) error {
	var cs []*interp.Counter
	if req.CounterId == 0 {
		for _, c := range p.p.Counters {
			if !c.Direct {
				cs = append(cs, c)
			}
		}
	} else {
		c, err := p.counterByID(req.CounterId, false)
		if err != nil {
			return err
		}
		cs = []*interp.Counter{c}
	}
	for _, c := range cs {
		lo, hi, err := indexRange(req.Index, len(c.Cells), "counter", c.Name)
		if err != nil {
			return err
		}
		for i := lo; i < hi; i++ {
			ce := &p4v1.CounterEntry{CounterId: p.c.IDs.Counters[c], Index: &p4v1.Index{Index: int64(i)},
				Data: &p4v1.CounterData{PacketCount: int64(c.Cells[i].Packets.Load()), ByteCount: int64(c.Cells[i].Bytes.Load())}}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: ce}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Pipeline) readDirectCounters(req *p4v1.DirectCounterEntry, emit func(*p4v1.Entity) error) error {
	has := func(t *interp.Table) bool { return t.DirectCounter != nil }
	return p.eachDirectEntry(req.TableEntry, has, "direct counter", func(t *interp.Table, en *interp.Entry) error {
		d := &p4v1.DirectCounterEntry{TableEntry: p.entryProto(t, en, &p4v1.TableEntry{}),
			Data: &p4v1.CounterData{PacketCount: int64(en.Counter.Packets.Load()), ByteCount: int64(en.Counter.Bytes.Load())}}
		return emit(&p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: d}})
	})
}

// eachDirectEntry visits the entries a direct counter or meter read names: all
// entries of one table (or of every table that has the resource), or the one
// entry its match fields select.
func (p *Pipeline) eachDirectEntry(te *p4v1.TableEntry, has func(*interp.Table) bool, what string,
	visit func(*interp.Table, *interp.Entry) error) error {
	if te == nil {
		te = &p4v1.TableEntry{}
	}
	ts, err := p.tables(te.TableId)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if !has(t) {
			if te.TableId != 0 {
				return errf(codes.InvalidArgument, "table %s has no %s", t.Name, what)
			}
			continue
		}
		ents := t.Entries()
		if len(te.Match) > 0 {
			_, en, err := p.entryFor(te)
			if err != nil {
				return err
			}
			ents = []*interp.Entry{en}
		}
		for _, en := range ents {
			if err := visit(t, en); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexRange is the cells an indexed read names: one, or all n when index is nil.
func indexRange(index *p4v1.Index, n int, kind, name string) (lo, hi int, err error) {
	if index == nil {
		return 0, n, nil
	}
	if index.Index < 0 || index.Index >= int64(n) {
		return 0, 0, errf(codes.OutOfRange, "index %d out of range for %s %s", index.Index, kind, name)
	}
	return int(index.Index), int(index.Index) + 1, nil
}

func meterProto(c *interp.MeterConfig) *p4v1.MeterConfig {
	if c == nil {
		return nil
	}
	return &p4v1.MeterConfig{Cir: c.CIR, Cburst: c.CBurst, Pir: c.PIR, Pburst: c.PBurst}
}

func (p *Pipeline) readMeters(req *p4v1.MeterEntry, emit func(*p4v1.Entity) error) error {
	var ms []*interp.Meter
	if req.MeterId == 0 {
		for _, m := range p.p.Meters {
			if !m.Direct {
				ms = append(ms, m)
			}
		}
	} else {
		m, err := p.meterByID(req.MeterId, false)
		if err != nil {
			return err
		}
		ms = []*interp.Meter{m}
	}
	for _, m := range ms {
		lo, hi, err := indexRange(req.Index, len(m.Cells), "meter", m.Name)
		if err != nil {
			return err
		}
		for i := lo; i < hi; i++ {
			me := &p4v1.MeterEntry{MeterId: p.c.IDs.Meters[m], Index: &p4v1.Index{Index: int64(i)}, Config: meterProto(m.Cells[i].GetConfig())}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_MeterEntry{MeterEntry: me}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Pipeline) readDirectMeters(req *p4v1.DirectMeterEntry, emit func(*p4v1.Entity) error) error {
	has := func(t *interp.Table) bool { return t.DirectMeter != nil }
	return p.eachDirectEntry(req.TableEntry, has, "direct meter", func(t *interp.Table, en *interp.Entry) error {
		var cfg *interp.MeterConfig
		if en.Meter != nil {
			cfg = en.Meter.GetConfig()
		}
		d := &p4v1.DirectMeterEntry{TableEntry: p.entryProto(t, en, &p4v1.TableEntry{}), Config: meterProto(cfg)}
		return emit(&p4v1.Entity{Entity: &p4v1.Entity_DirectMeterEntry{DirectMeterEntry: d}})
	})
}

func (p *Pipeline) readRegisters(req *p4v1.RegisterEntry, emit func(*p4v1.Entity) error) error {
	var rs []*interp.Register
	if req.RegisterId == 0 {
		rs = p.p.Registers
	} else {
		r, err := p.registerByID(req.RegisterId)
		if err != nil {
			return err
		}
		rs = []*interp.Register{r}
	}
	for _, r := range rs {
		lo, hi, err := indexRange(req.Index, r.Size, "register", r.Name)
		if err != nil {
			return err
		}
		vals := make([]uint64, r.Layout.Size)
		for i := lo; i < hi; i++ {
			r.Read(i, vals)
			re := &p4v1.RegisterEntry{RegisterId: p.c.IDs.Registers[r], Index: &p4v1.Index{Index: int64(i)}, Data: p4Data(r.Layout, vals)}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_RegisterEntry{RegisterEntry: re}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func replicaProtos(rs []replica) []*p4v1.Replica {
	var out []*p4v1.Replica
	for _, r := range rs {
		out = append(out, &p4v1.Replica{PortKind: &p4v1.Replica_EgressPort{EgressPort: r.port}, Instance: r.rid})
	}
	return out
}

func (p *Pipeline) readPRE(req *p4v1.PacketReplicationEngineEntry, emit func(*p4v1.Entity) error) error {
	s := &p.pre
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch x := req.Type.(type) {
	case *p4v1.PacketReplicationEngineEntry_MulticastGroupEntry:
		for _, id := range sortedKeys(s.groups) {
			if x.MulticastGroupEntry.MulticastGroupId != 0 && id != x.MulticastGroupEntry.MulticastGroupId {
				continue
			}
			g := &p4v1.MulticastGroupEntry{MulticastGroupId: id, Replicas: replicaProtos(s.groups[id])}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{Type: &p4v1.PacketReplicationEngineEntry_MulticastGroupEntry{MulticastGroupEntry: g}}}}); err != nil {
				return err
			}
		}
		return nil
	case *p4v1.PacketReplicationEngineEntry_CloneSessionEntry:
		for _, id := range sortedKeys(s.sessions) {
			if x.CloneSessionEntry.SessionId != 0 && id != x.CloneSessionEntry.SessionId {
				continue
			}
			cs := s.sessions[id]
			c := &p4v1.CloneSessionEntry{SessionId: id, Replicas: replicaProtos(cs.replicas), ClassOfService: cs.cos, PacketLengthBytes: int32(cs.truncate)}
			if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4v1.PacketReplicationEngineEntry{Type: &p4v1.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: c}}}}); err != nil {
				return err
			}
		}
		return nil
	}
	return errf(codes.InvalidArgument, "packet replication engine read needs a multicast group or clone session entry")
}

func (p *Pipeline) readDigests(req *p4v1.DigestEntry, emit func(*p4v1.Entity) error) error {
	p.pre.mu.RLock()
	defer p.pre.mu.RUnlock()
	for _, id := range sortedKeys(p.digestCfg) {
		if req.DigestId != 0 && req.DigestId != id {
			continue
		}
		if err := emit(&p4v1.Entity{Entity: &p4v1.Entity_DigestEntry{DigestEntry: &p4v1.DigestEntry{DigestId: id, Config: p.digestCfg[id]}}}); err != nil {
			return err
		}
	}
	return nil
}
