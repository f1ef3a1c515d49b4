package v1model

import (
	"fmt"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairfabric/fairfabric/p4switch/interp"
)

func errf(c codes.Code, format string, a ...any) error {
	return status.Errorf(c, format, a...)
}

// Write implements target.Pipeline. Every update is validated completely
// before anything changes, so a failed update changes nothing.
func (p *Pipeline) Write(u *p4v1.Update) error {
	if u == nil || u.Entity == nil {
		return errf(codes.InvalidArgument, "update has no entity")
	}
	switch u.Type {
	case p4v1.Update_INSERT, p4v1.Update_MODIFY, p4v1.Update_DELETE:
	default:
		return errf(codes.InvalidArgument, "unknown update type %v", u.Type)
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	return p.write(u)
}

// write applies a validated-type update; the caller holds writeMu.
func (p *Pipeline) write(u *p4v1.Update) error {
	switch e := u.Entity.Entity.(type) {
	case *p4v1.Entity_TableEntry:
		return p.writeTableEntry(u.Type, e.TableEntry)
	case *p4v1.Entity_ActionProfileMember:
		return p.writeMember(u.Type, e.ActionProfileMember)
	case *p4v1.Entity_ActionProfileGroup:
		return p.writeGroup(u.Type, e.ActionProfileGroup)
	case *p4v1.Entity_CounterEntry:
		return p.writeCounter(u.Type, e.CounterEntry)
	case *p4v1.Entity_DirectCounterEntry:
		return p.writeDirectCounter(u.Type, e.DirectCounterEntry)
	case *p4v1.Entity_MeterEntry:
		return p.writeMeter(u.Type, e.MeterEntry)
	case *p4v1.Entity_DirectMeterEntry:
		return p.writeDirectMeter(u.Type, e.DirectMeterEntry)
	case *p4v1.Entity_RegisterEntry:
		return p.writeRegister(u.Type, e.RegisterEntry)
	case *p4v1.Entity_PacketReplicationEngineEntry:
		return p.writePRE(u.Type, e.PacketReplicationEngineEntry)
	case *p4v1.Entity_DigestEntry:
		return p.writeDigest(u.Type, e.DigestEntry)
	case *p4v1.Entity_ValueSetEntry:
		return p.writeValueSet(u.Type, e.ValueSetEntry)
	case nil:
		return errf(codes.InvalidArgument, "update has no entity")
	}
	return errf(codes.Unimplemented, "entity %T is not supported", u.Entity.Entity)
}

func (p *Pipeline) tableByID(id uint32) (*interp.Table, error) {
	for t, tid := range p.c.IDs.Tables {
		if tid == id {
			return t, nil
		}
	}
	return nil, errf(codes.NotFound, "no table with id %d", id)
}

// actionByID finds the action with P4Runtime id id. Actions that share a
// control-plane name share an id, so with a table (t != nil) the action is
// the one among t's actions; without one, the first of the program.
func (p *Pipeline) actionByID(t *interp.Table, id uint32) *interp.Action {
	if t != nil {
		for _, ta := range t.Actions {
			if aid, ok := p.c.IDs.Actions[ta.Action]; ok && aid == id {
				return ta.Action
			}
		}
	}
	for _, a := range p.p.Actions {
		if aid, ok := p.c.IDs.Actions[a]; ok && aid == id {
			return a
		}
	}
	return nil
}

// entryFromProto validates and converts a table entry's match and priority.
func (p *Pipeline) entryFromProto(t *interp.Table, te *p4v1.TableEntry) (*interp.Entry, error) {
	en := &interp.Entry{Matches: make([]interp.Match, len(t.Keys)), Priority: te.Priority}
	seen := map[uint32]bool{}
	for _, fm := range te.Match {
		id := fm.FieldId
		if id == 0 || int(id) > len(t.Keys) {
			return nil, errf(codes.InvalidArgument, "table %s has no match field with id %d", t.Name, id)
		}
		if seen[id] {
			return nil, errf(codes.InvalidArgument, "match field %d given twice", id)
		}
		seen[id] = true
		k := t.Keys[id-1]
		m, err := matchFromProto(k, fm)
		if err != nil {
			return nil, errf(codes.InvalidArgument, "table %s, field %s: %v", t.Name, k.Name, err)
		}
		en.Matches[id-1] = m
	}
	for i, k := range t.Keys {
		if seen[uint32(i+1)] {
			continue
		}
		switch k.MatchKind {
		case "exact":
			return nil, errf(codes.InvalidArgument, "table %s: exact match field %s is missing", t.Name, k.Name)
		case "lpm", "ternary":
			n := len(zeroWords(k.Width))
			en.Matches[i] = interp.Match{Value: make([]uint64, n), Mask: make([]uint64, n), Wild: true}
		default:
			en.Matches[i] = interp.Match{Value: zeroWords(k.Width), Wild: true}
		}
	}
	if t.NeedsPriority() {
		if te.Priority <= 0 {
			return nil, errf(codes.InvalidArgument, "table %s needs a positive priority", t.Name)
		}
	} else if te.Priority != 0 {
		return nil, errf(codes.InvalidArgument, "table %s takes no priority", t.Name)
	}
	return en, nil
}

func zeroWords(width int) []uint64 {
	if width <= 64 {
		return make([]uint64, 1)
	}
	return make([]uint64, (width+63)/64)
}

func matchFromProto(k *interp.TableKey, fm *p4v1.FieldMatch) (interp.Match, error) {
	w := k.Width
	switch f := fm.FieldMatchType.(type) {
	case *p4v1.FieldMatch_Exact_:
		if k.MatchKind != "exact" {
			return interp.Match{}, fmt.Errorf("expected a %s match, got exact", k.MatchKind)
		}
		v, err := bytesWords(f.Exact.Value, w)
		return interp.Match{Value: v}, err
	case *p4v1.FieldMatch_Lpm:
		if k.MatchKind != "lpm" {
			return interp.Match{}, fmt.Errorf("expected a %s match, got lpm", k.MatchKind)
		}
		pl := int(f.Lpm.PrefixLen)
		if pl <= 0 || pl > w {
			return interp.Match{}, fmt.Errorf("prefix length %d out of range 1..%d (a zero prefix must be omitted)", pl, w)
		}
		v, err := bytesWords(f.Lpm.Value, w)
		if err != nil {
			return interp.Match{}, err
		}
		m := interp.PrefixMask(w, pl, len(v))
		for i := range v {
			if v[i]&^m[i] != 0 {
				return interp.Match{}, fmt.Errorf("value has bits set beyond the /%d prefix", pl)
			}
		}
		return interp.Match{Value: v, Mask: m, Plen: pl}, nil
	case *p4v1.FieldMatch_Ternary_:
		if k.MatchKind != "ternary" {
			return interp.Match{}, fmt.Errorf("expected a %s match, got ternary", k.MatchKind)
		}
		v, err := bytesWords(f.Ternary.Value, w)
		if err != nil {
			return interp.Match{}, err
		}
		m, err := bytesWords(f.Ternary.Mask, w)
		if err != nil {
			return interp.Match{}, fmt.Errorf("mask: %v", err)
		}
		zero := true
		for i := range v {
			if v[i]&^m[i] != 0 {
				return interp.Match{}, fmt.Errorf("value has bits set outside the mask")
			}
			if m[i] != 0 {
				zero = false
			}
		}
		if zero {
			return interp.Match{}, fmt.Errorf("a ternary match with a zero mask must be omitted")
		}
		return interp.Match{Value: v, Mask: m}, nil
	case *p4v1.FieldMatch_Range_:
		if k.MatchKind != "range" {
			return interp.Match{}, fmt.Errorf("expected a %s match, got range", k.MatchKind)
		}
		lo, err := bytesWords(f.Range.Low, w)
		if err != nil {
			return interp.Match{}, err
		}
		hi, err := bytesWords(f.Range.High, w)
		if err != nil {
			return interp.Match{}, err
		}
		if cmpW(lo, hi) > 0 {
			return interp.Match{}, fmt.Errorf("range low is above high")
		}
		full := interp.PrefixMask(w, w, len(hi))
		if isZero(lo) && cmpW(hi, full) == 0 {
			return interp.Match{}, fmt.Errorf("a full range must be omitted")
		}
		return interp.Match{Value: lo, High: hi}, nil
	case *p4v1.FieldMatch_Optional_:
		if k.MatchKind != "optional" {
			return interp.Match{}, fmt.Errorf("expected a %s match, got optional", k.MatchKind)
		}
		v, err := bytesWords(f.Optional.Value, w)
		return interp.Match{Value: v}, err
	}
	return interp.Match{}, fmt.Errorf("unsupported match type %T", fm.FieldMatchType)
}

func cmpW(a, b []uint64) int {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func isZero(ws []uint64) bool {
	for _, w := range ws {
		if w != 0 {
			return false
		}
	}
	return true
}

// actionCall validates an Action against a table (nil table: any action).
func (p *Pipeline) actionCall(t *interp.Table, a *p4v1.Action, asDefault bool) (*interp.ActionCall, error) {
	if a == nil {
		return nil, errf(codes.InvalidArgument, "missing action")
	}
	act := p.actionByID(t, a.ActionId)
	if act == nil {
		return nil, errf(codes.NotFound, "no action with id %d", a.ActionId)
	}
	if t != nil {
		var ta *interp.TableAction
		for _, x := range t.Actions {
			if x.Action == act {
				ta = x
			}
		}
		if ta == nil {
			return nil, errf(codes.InvalidArgument, "action %s is not an action of table %s", act.Name, t.Name)
		}
		if asDefault && ta.TableOnly {
			return nil, errf(codes.InvalidArgument, "action %s cannot be the default action of table %s (@tableonly)", act.Name, t.Name)
		}
		if !asDefault && ta.DefaultOnly {
			return nil, errf(codes.InvalidArgument, "action %s can only be the default action of table %s (@defaultonly)", act.Name, t.Name)
		}
	}
	call := &interp.ActionCall{Action: act, Args: make([][]uint64, len(act.Params))}
	seen := map[uint32]bool{}
	for _, prm := range a.Params {
		id := prm.ParamId
		if id == 0 || int(id) > len(act.Params) {
			return nil, errf(codes.InvalidArgument, "action %s has no parameter with id %d", act.Name, id)
		}
		if seen[id] {
			return nil, errf(codes.InvalidArgument, "action %s: parameter %d given twice", act.Name, id)
		}
		seen[id] = true
		ap := act.Params[id-1]
		ws, err := bytesWords(prm.Value, ap.Width)
		if err != nil {
			return nil, errf(codes.InvalidArgument, "action %s, parameter %s: %v", act.Name, ap.Name, err)
		}
		call.Args[id-1] = ws
	}
	if len(seen) != len(act.Params) {
		return nil, errf(codes.InvalidArgument, "action %s expects %d parameters, got %d", act.Name, len(act.Params), len(seen))
	}
	return call, nil
}

func (p *Pipeline) writeTableEntry(typ p4v1.Update_Type, te *p4v1.TableEntry) error {
	t, err := p.tableByID(te.TableId)
	if err != nil {
		return err
	}
	if te.IsDefaultAction {
		return p.writeDefault(typ, t, te)
	}
	if t.ConstEntries {
		return errf(codes.PermissionDenied, "table %s has const entries and cannot be changed", t.Name)
	}
	en, err := p.entryFromProto(t, te)
	if err != nil {
		return err
	}
	if typ == p4v1.Update_DELETE {
		p.untrackIdle(t, en)
		if !t.Delete(en) {
			return errf(codes.NotFound, "no such entry in table %s", t.Name)
		}
		return nil
	}
	if te.Action == nil {
		return errf(codes.InvalidArgument, "table entry has no action")
	}
	switch a := te.Action.Type.(type) {
	case *p4v1.TableAction_Action:
		if t.Profile != nil {
			return errf(codes.InvalidArgument, "table %s uses an action profile: give a member or group", t.Name)
		}
		call, err := p.actionCall(t, a.Action, false)
		if err != nil {
			return err
		}
		en.Call = call
	case *p4v1.TableAction_ActionProfileMemberId:
		if t.Profile == nil {
			return errf(codes.InvalidArgument, "table %s has no action profile", t.Name)
		}
		if _, ok := t.Profile.Members[a.ActionProfileMemberId]; !ok {
			return errf(codes.NotFound, "no member %d in %s", a.ActionProfileMemberId, t.Profile.Name)
		}
		en.UseMember, en.Member = true, a.ActionProfileMemberId
	case *p4v1.TableAction_ActionProfileGroupId:
		if t.Profile == nil || !t.Profile.Selector {
			return errf(codes.InvalidArgument, "table %s has no action selector", t.Name)
		}
		if _, ok := t.Profile.Groups[a.ActionProfileGroupId]; !ok {
			return errf(codes.NotFound, "no group %d in %s", a.ActionProfileGroupId, t.Profile.Name)
		}
		en.UseGroup, en.Group = true, a.ActionProfileGroupId
	default:
		return errf(codes.InvalidArgument, "unsupported table action %T", te.Action.Type)
	}
	en.Metadata = u64bytes(te.ControllerMetadata)
	if te.IdleTimeoutNs < 0 {
		return errf(codes.InvalidArgument, "table %s: negative idle timeout %d ns", t.Name, te.IdleTimeoutNs)
	}
	if te.IdleTimeoutNs != 0 && !t.SupportsIdle {
		return errf(codes.InvalidArgument, "table %s does not support idle timeouts", t.Name)
	}
	en.IdleTimeoutNs = te.IdleTimeoutNs
	if t.DirectMeter != nil {
		en.Meter = &interp.MeterCell{}
		if te.MeterConfig != nil {
			en.Meter.SetConfig(meterConfig(te.MeterConfig))
		}
	}
	if typ == p4v1.Update_INSERT {
		if t.Len() >= t.Size {
			return errf(codes.ResourceExhausted, "table %s is full (%d entries)", t.Name, t.Size)
		}
		if te.CounterData != nil && t.DirectCounter != nil {
			en.Counter.Packets.Store(uint64(te.CounterData.PacketCount))
			en.Counter.Bytes.Store(uint64(te.CounterData.ByteCount))
		}
		if !t.Insert(en) {
			return errf(codes.AlreadyExists, "entry already exists in table %s", t.Name)
		}
		p.trackIdle(t, en)
		return nil
	}
	old := t.Lookup(en)
	if old == nil {
		return errf(codes.NotFound, "no such entry in table %s", t.Name)
	}
	// MODIFY keeps the direct counter unless new data is given
	en.Counter.Packets.Store(old.Counter.Packets.Load())
	en.Counter.Bytes.Store(old.Counter.Bytes.Load())
	if te.CounterData != nil {
		en.Counter.Packets.Store(uint64(te.CounterData.PacketCount))
		en.Counter.Bytes.Store(uint64(te.CounterData.ByteCount))
	}
	if en.Meter != nil && te.MeterConfig == nil && old.Meter != nil {
		en.Meter = old.Meter
	}
	t.Replace(en)
	delete(p.idle, old)
	p.trackIdle(t, en) // a MODIFY re-arms the idle timer
	return nil
}

func u64bytes(v uint64) []byte {
	if v == 0 {
		return nil
	}
	return []byte{byte(v >> 56), byte(v >> 48), byte(v >> 40), byte(v >> 32), byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
}

func (p *Pipeline) writeDefault(typ p4v1.Update_Type, t *interp.Table, te *p4v1.TableEntry) error {
	if typ != p4v1.Update_MODIFY {
		return errf(codes.InvalidArgument, "the default entry of table %s can only be modified", t.Name)
	}
	if len(te.Match) > 0 || te.Priority != 0 {
		return errf(codes.InvalidArgument, "a default entry has no match and no priority")
	}
	if t.ConstDefault {
		return errf(codes.PermissionDenied, "table %s has a const default action", t.Name)
	}
	if te.Action == nil {
		t.SetDefault(t.InitDefault)
		return nil
	}
	a, ok := te.Action.Type.(*p4v1.TableAction_Action)
	if !ok {
		return errf(codes.InvalidArgument, "the default action must be a direct action")
	}
	call, err := p.actionCall(t, a.Action, true)
	if err != nil {
		return err
	}
	t.SetDefault(call)
	return nil
}

func meterConfig(c *p4v1.MeterConfig) *interp.MeterConfig {
	return &interp.MeterConfig{CIR: c.Cir, CBurst: c.Cburst, PIR: c.Pir, PBurst: c.Pburst}
}
