package v1model

import (
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"

	"github.com/fairfabric/fairfabric/p4switch/interp"
)

func (p *Pipeline) profileByID(id uint32) (*interp.ActionProfile, error) {
	for a, aid := range p.c.IDs.Profiles {
		if aid == id {
			return a, nil
		}
	}
	return nil, errf(codes.NotFound, "no action profile with id %d", id)
}

// memberInUse reports whether a group or table entry refers to the member.
func memberInUse(ap *interp.ActionProfile, id uint32) bool {
	for _, g := range ap.Groups {
		for _, m := range g.Members {
			if m.ID == id {
				return true
			}
		}
	}
	for _, t := range ap.Tables {
		for _, e := range t.Entries() {
			if e.UseMember && e.Member == id {
				return true
			}
		}
	}
	return false
}

func (p *Pipeline) writeMember(typ p4v1.Update_Type, m *p4v1.ActionProfileMember) error {
	ap, err := p.profileByID(m.ActionProfileId)
	if err != nil {
		return err
	}
	_, exists := ap.Members[m.MemberId]
	if typ == p4v1.Update_DELETE {
		if !exists {
			return errf(codes.NotFound, "no member %d in %s", m.MemberId, ap.Name)
		}
		if memberInUse(ap, m.MemberId) {
			return errf(codes.FailedPrecondition, "member %d of %s is in use", m.MemberId, ap.Name)
		}
		ap.Lock()
		delete(ap.Members, m.MemberId)
		ap.Unlock()
		return nil
	}
	var table *interp.Table
	if len(ap.Tables) > 0 {
		table = ap.Tables[0]
	}
	call, err := p.actionCall(table, m.Action, false)
	if err != nil {
		return err
	}
	if typ == p4v1.Update_INSERT {
		if exists {
			return errf(codes.AlreadyExists, "member %d already exists in %s", m.MemberId, ap.Name)
		}
		if ap.Size > 0 && len(ap.Members) >= ap.Size {
			return errf(codes.ResourceExhausted, "action profile %s is full", ap.Name)
		}
	} else if !exists {
		return errf(codes.NotFound, "no member %d in %s", m.MemberId, ap.Name)
	}
	ap.Lock()
	ap.Members[m.MemberId] = call
	ap.Unlock()
	return nil
}

func (p *Pipeline) writeGroup(typ p4v1.Update_Type, g *p4v1.ActionProfileGroup) error {
	ap, err := p.profileByID(g.ActionProfileId)
	if err != nil {
		return err
	}
	if !ap.Selector {
		return errf(codes.InvalidArgument, "%s is not an action selector", ap.Name)
	}
	_, exists := ap.Groups[g.GroupId]
	if typ == p4v1.Update_DELETE {
		if !exists {
			return errf(codes.NotFound, "no group %d in %s", g.GroupId, ap.Name)
		}
		for _, t := range ap.Tables {
			for _, e := range t.Entries() {
				if e.UseGroup && e.Group == g.GroupId {
					return errf(codes.FailedPrecondition, "group %d of %s is in use", g.GroupId, ap.Name)
				}
			}
		}
		ap.Lock()
		delete(ap.Groups, g.GroupId)
		ap.Unlock()
		return nil
	}
	if typ == p4v1.Update_INSERT && exists {
		return errf(codes.AlreadyExists, "group %d already exists in %s", g.GroupId, ap.Name)
	}
	if typ == p4v1.Update_MODIFY && !exists {
		return errf(codes.NotFound, "no group %d in %s", g.GroupId, ap.Name)
	}
	grp := &interp.Group{MaxSize: int(g.MaxSize)}
	seen := map[uint32]bool{}
	total := 0
	for _, m := range g.Members {
		if _, ok := ap.Members[m.MemberId]; !ok {
			return errf(codes.NotFound, "no member %d in %s", m.MemberId, ap.Name)
		}
		if seen[m.MemberId] {
			return errf(codes.InvalidArgument, "member %d appears twice in group %d", m.MemberId, g.GroupId)
		}
		seen[m.MemberId] = true
		w := int(m.Weight)
		if w < 0 {
			return errf(codes.InvalidArgument, "negative weight for member %d", m.MemberId)
		}
		if w == 0 {
			w = 1
		}
		total += w
		grp.Members = append(grp.Members, interp.GroupMember{ID: m.MemberId, Weight: w})
	}
	if g.MaxSize > 0 && total > int(g.MaxSize) {
		return errf(codes.ResourceExhausted, "group %d exceeds its max_size %d", g.GroupId, g.MaxSize)
	}
	ap.Lock()
	ap.Groups[g.GroupId] = grp
	ap.Unlock()
	return nil
}

func (p *Pipeline) counterByID(id uint32, direct bool) (*interp.Counter, error) {
	for c, cid := range p.c.IDs.Counters {
		if cid == id && c.Direct == direct {
			return c, nil
		}
	}
	return nil, errf(codes.NotFound, "no counter with id %d", id)
}

func (p *Pipeline) writeCounter(typ p4v1.Update_Type, ce *p4v1.CounterEntry) error {
	if typ != p4v1.Update_MODIFY {
		return errf(codes.InvalidArgument, "counter entries can only be modified")
	}
	c, err := p.counterByID(ce.CounterId, false)
	if err != nil {
		return err
	}
	set := func(cell *interp.CounterCell) {
		var pk, by int64
		if ce.Data != nil {
			pk, by = ce.Data.PacketCount, ce.Data.ByteCount
		}
		cell.Packets.Store(uint64(pk))
		cell.Bytes.Store(uint64(by))
	}
	if ce.Index == nil {
		for i := range c.Cells {
			set(&c.Cells[i])
		}
		return nil
	}
	i := ce.Index.Index
	if i < 0 || i >= int64(len(c.Cells)) {
		return errf(codes.OutOfRange, "index %d out of range for counter %s of size %d", i, c.Name, len(c.Cells))
	}
	set(&c.Cells[i])
	return nil
}

// entryFor finds the stored entry addressed by a TableEntry key.
func (p *Pipeline) entryFor(te *p4v1.TableEntry) (*interp.Table, *interp.Entry, error) {
	if te == nil {
		return nil, nil, errf(codes.InvalidArgument, "missing table entry")
	}
	t, err := p.tableByID(te.TableId)
	if err != nil {
		return nil, nil, err
	}
	key, err := p.entryFromProto(t, te)
	if err != nil {
		return nil, nil, err
	}
	en := t.Lookup(key)
	if en == nil {
		return nil, nil, errf(codes.NotFound, "no such entry in table %s", t.Name)
	}
	return t, en, nil
}

func (p *Pipeline) writeDirectCounter(typ p4v1.Update_Type, de *p4v1.DirectCounterEntry) error {
	if typ != p4v1.Update_MODIFY {
		return errf(codes.InvalidArgument, "direct counter entries can only be modified")
	}
	t, en, err := p.entryFor(de.TableEntry)
	if err != nil {
		return err
	}
	if t.DirectCounter == nil {
		return errf(codes.InvalidArgument, "table %s has no direct counter", t.Name)
	}
	var pk, by int64
	if de.Data != nil {
		pk, by = de.Data.PacketCount, de.Data.ByteCount
	}
	en.Counter.Packets.Store(uint64(pk))
	en.Counter.Bytes.Store(uint64(by))
	return nil
}

func (p *Pipeline) meterByID(id uint32, direct bool) (*interp.Meter, error) {
	for m, mid := range p.c.IDs.Meters {
		if mid == id && m.Direct == direct {
			return m, nil
		}
	}
	return nil, errf(codes.NotFound, "no meter with id %d", id)
}

func validMeterConfig(c *p4v1.MeterConfig) error {
	if c == nil {
		return nil
	}
	if c.Cir < 0 || c.Pir < 0 || c.Cburst < 0 || c.Pburst < 0 {
		return errf(codes.InvalidArgument, "meter rates and bursts must not be negative")
	}
	if c.Pir < c.Cir {
		return errf(codes.InvalidArgument, "meter PIR %d is below CIR %d", c.Pir, c.Cir)
	}
	return nil
}

func (p *Pipeline) writeMeter(typ p4v1.Update_Type, me *p4v1.MeterEntry) error {
	if typ != p4v1.Update_MODIFY {
		return errf(codes.InvalidArgument, "meter entries can only be modified")
	}
	m, err := p.meterByID(me.MeterId, false)
	if err != nil {
		return err
	}
	if err := validMeterConfig(me.Config); err != nil {
		return err
	}
	var cfg *interp.MeterConfig
	if me.Config != nil {
		cfg = meterConfig(me.Config)
	}
	if me.Index == nil {
		for _, c := range m.Cells {
			c.SetConfig(cfg)
		}
		return nil
	}
	i := me.Index.Index
	if i < 0 || i >= int64(len(m.Cells)) {
		return errf(codes.OutOfRange, "index %d out of range for meter %s of size %d", i, m.Name, len(m.Cells))
	}
	m.Cells[i].SetConfig(cfg)
	return nil
}

func (p *Pipeline) writeDirectMeter(typ p4v1.Update_Type, de *p4v1.DirectMeterEntry) error {
	if typ != p4v1.Update_MODIFY {
		return errf(codes.InvalidArgument, "direct meter entries can only be modified")
	}
	if err := validMeterConfig(de.Config); err != nil {
		return err
	}
	t, en, err := p.entryFor(de.TableEntry)
	if err != nil {
		return err
	}
	if t.DirectMeter == nil || en.Meter == nil {
		return errf(codes.InvalidArgument, "table %s has no direct meter", t.Name)
	}
	var cfg *interp.MeterConfig
	if de.Config != nil {
		cfg = meterConfig(de.Config)
	}
	en.Meter.SetConfig(cfg)
	return nil
}

func (p *Pipeline) registerByID(id uint32) (*interp.Register, error) {
	for r, rid := range p.c.IDs.Registers {
		if rid == id {
			return r, nil
		}
	}
	return nil, errf(codes.NotFound, "no register with id %d", id)
}

func (p *Pipeline) writeRegister(typ p4v1.Update_Type, re *p4v1.RegisterEntry) error {
	if typ != p4v1.Update_MODIFY {
		return errf(codes.InvalidArgument, "register entries can only be modified")
	}
	r, err := p.registerByID(re.RegisterId)
	if err != nil {
		return err
	}
	vals := make([]uint64, r.Layout.Size)
	if re.Data != nil {
		if err := fromP4Data(r.Layout, re.Data, vals); err != nil {
			return errf(codes.InvalidArgument, "register %s: %v", r.Name, err)
		}
	}
	if re.Index == nil {
		for i := 0; i < r.Size; i++ {
			r.Write(i, vals)
		}
		return nil
	}
	i := re.Index.Index
	if i < 0 || i >= int64(r.Size) {
		return errf(codes.OutOfRange, "index %d out of range for register %s of size %d", i, r.Name, r.Size)
	}
	r.Write(int(i), vals)
	return nil
}

// fromP4Data converts P4Data into slots of layout l.
func fromP4Data(l *interp.Layout, d *p4v1.P4Data, dst []uint64) error {
	switch l.Kind {
	case interp.KScalar:
		var b []byte
		switch v := d.Data.(type) {
		case *p4v1.P4Data_Bitstring:
			b = v.Bitstring
		case *p4v1.P4Data_Bool:
			b = []byte{0}
			if v.Bool {
				b[0] = 1
			}
		default:
			return errf(codes.InvalidArgument, "expected a bitstring")
		}
		ws, err := bytesWords(b, l.Width)
		if err != nil {
			return err
		}
		copy(dst, ws)
		return nil
	case interp.KStruct, interp.KTuple:
		var members []*p4v1.P4Data
		switch v := d.Data.(type) {
		case *p4v1.P4Data_Struct:
			members = v.Struct.GetMembers()
		case *p4v1.P4Data_Tuple:
			members = v.Tuple.GetMembers()
		default:
			return errf(codes.InvalidArgument, "expected a struct")
		}
		if len(members) != len(l.Fields) {
			return errf(codes.InvalidArgument, "expected %d members, got %d", len(l.Fields), len(members))
		}
		for i, f := range l.Fields {
			if err := fromP4Data(f.Layout, members[i], dst[f.Off:f.Off+f.Layout.Size]); err != nil {
				return err
			}
		}
		return nil
	}
	return errf(codes.Unimplemented, "unsupported register type")
}

func portOf(r *p4v1.Replica) (uint32, error) {
	switch k := r.PortKind.(type) {
	case *p4v1.Replica_EgressPort:
		return k.EgressPort, nil
	case *p4v1.Replica_Port:
		ws, err := bytesWords(k.Port, 32)
		if err != nil {
			return 0, err
		}
		return uint32(ws[0]), nil
	}
	return 0, errf(codes.InvalidArgument, "replica has no port")
}

func replicas(rs []*p4v1.Replica) ([]replica, error) {
	var out []replica
	seen := map[replica]bool{}
	for _, r := range rs {
		port, err := portOf(r)
		if err != nil {
			return nil, errf(codes.InvalidArgument, "replica: %v", err)
		}
		if port >= interp.DropPort {
			return nil, errf(codes.InvalidArgument, "replica port %d out of range", port)
		}
		rp := replica{port: port, rid: r.Instance}
		if seen[rp] {
			return nil, errf(codes.InvalidArgument, "replica (port %d, instance %d) given twice", port, r.Instance)
		}
		seen[rp] = true
		out = append(out, rp)
	}
	return out, nil
}

func (p *Pipeline) writePRE(typ p4v1.Update_Type, e *p4v1.PacketReplicationEngineEntry) error {
	s := &p.pre
	switch x := e.Type.(type) {
	case *p4v1.PacketReplicationEngineEntry_MulticastGroupEntry:
		g := x.MulticastGroupEntry
		if g.MulticastGroupId == 0 {
			return errf(codes.InvalidArgument, "multicast group id 0 is reserved")
		}
		reps, err := replicas(g.Replicas)
		if err != nil {
			return err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		_, exists := s.groups[g.MulticastGroupId]
		if err := checkPresence(typ, exists, fmt.Sprintf("multicast group %d", g.MulticastGroupId)); err != nil {
			return err
		}
		if typ == p4v1.Update_DELETE {
			delete(s.groups, g.MulticastGroupId)
			return nil
		}
		s.groups[g.MulticastGroupId] = reps
		return nil
	case *p4v1.PacketReplicationEngineEntry_CloneSessionEntry:
		c := x.CloneSessionEntry
		if c.SessionId == 0 {
			return errf(codes.InvalidArgument, "clone session id 0 is reserved")
		}
		if c.PacketLengthBytes < 0 {
			return errf(codes.InvalidArgument, "negative packet_length_bytes")
		}
		reps, err := replicas(c.Replicas)
		if err != nil {
			return err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		_, exists := s.sessions[c.SessionId]
		if err := checkPresence(typ, exists, fmt.Sprintf("clone session %d", c.SessionId)); err != nil {
			return err
		}
		if typ == p4v1.Update_DELETE {
			delete(s.sessions, c.SessionId)
			return nil
		}
		s.sessions[c.SessionId] = &cloneSession{replicas: reps, cos: c.ClassOfService, truncate: int(c.PacketLengthBytes)}
		return nil
	}
	return errf(codes.InvalidArgument, "empty packet replication engine entry")
}

// checkPresence applies P4Runtime's rule for an entity that must not exist
// (INSERT) or must exist (MODIFY, DELETE).
func checkPresence(typ p4v1.Update_Type, exists bool, what string) error {
	switch {
	case typ == p4v1.Update_INSERT && exists:
		return errf(codes.AlreadyExists, "%s exists", what)
	case typ != p4v1.Update_INSERT && !exists:
		return errf(codes.NotFound, "no %s", what)
	}
	return nil
}

func (p *Pipeline) writeDigest(typ p4v1.Update_Type, d *p4v1.DigestEntry) error {
	found := false
	for _, id := range p.c.IDs.Digests {
		if id == d.DigestId {
			found = true
		}
	}
	if !found {
		return errf(codes.NotFound, "no digest with id %d", d.DigestId)
	}
	p.pre.mu.Lock()
	defer p.pre.mu.Unlock()
	if p.digestCfg == nil {
		p.digestCfg = map[uint32]*p4v1.DigestEntry_Config{}
	}
	_, exists := p.digestCfg[d.DigestId]
	switch typ {
	case p4v1.Update_INSERT:
		if exists {
			return errf(codes.AlreadyExists, "digest %d is already configured", d.DigestId)
		}
	case p4v1.Update_MODIFY:
		if !exists {
			return errf(codes.NotFound, "digest %d is not configured", d.DigestId)
		}
	case p4v1.Update_DELETE:
		if !exists {
			return errf(codes.NotFound, "digest %d is not configured", d.DigestId)
		}
		delete(p.digestCfg, d.DigestId)
		return nil
	}
	cfg := d.Config
	if cfg == nil {
		cfg = &p4v1.DigestEntry_Config{}
	}
	p.digestCfg[d.DigestId] = cfg
	return nil
}
