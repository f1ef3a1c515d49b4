package p4info

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/fairfabric/fairfabric/p4switch/interp"
	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

// IDs maps the program's control-plane objects to their P4Runtime ids.
type IDs struct {
	Tables    map[*interp.Table]uint32
	Actions   map[*interp.Action]uint32
	Counters  map[*interp.Counter]uint32
	Meters    map[*interp.Meter]uint32
	Registers map[*interp.Register]uint32
	Profiles  map[*interp.ActionProfile]uint32
	Digests   map[*interp.DigestType]uint32
	ValueSets map[*interp.ValueSet]uint32
	// ControllerHeaders maps "packet_in"/"packet_out" to the header's fields.
	ControllerHeaders map[string]*ControllerHeader
}

// ControllerHeader is a @controller_header header.
type ControllerHeader struct {
	ID     uint32
	Fields []ControllerField
}

// ControllerField is one metadata field of a controller header.
type ControllerField struct {
	ID    uint32
	Name  string
	Width int
}

// Build generates the P4Info of p.
func Build(p *interp.Program) (*p4configv1.P4Info, *IDs, error) {
	st := newSymbolTable()
	ids := &IDs{
		Tables: map[*interp.Table]uint32{}, Actions: map[*interp.Action]uint32{}, Counters: map[*interp.Counter]uint32{},
		Meters: map[*interp.Meter]uint32{}, Registers: map[*interp.Register]uint32{}, Profiles: map[*interp.ActionProfile]uint32{},
		Digests: map[*interp.DigestType]uint32{}, ValueSets: map[*interp.ValueSet]uint32{}, ControllerHeaders: map[string]*ControllerHeader{},
	}
	pre := func(k p4configv1.P4Ids_Prefix) uint32 { return uint32(k) }
	tabSyms := map[*interp.Table]*symbol{}
	actSyms := map[*interp.Action]*symbol{}
	for _, t := range p.Tables {
		tabSyms[t] = st.add(pre(p4configv1.P4Ids_TABLE), t.Name, t.Annos)
	}
	firstOfName := map[string]*interp.Action{}
	for _, a := range p.Actions {
		if !a.ControlPlane {
			continue
		}
		if first, ok := firstOfName[a.Name]; ok {
			if err := sameSignature(first, a); err != nil {
				return nil, nil, err
			}
		} else {
			firstOfName[a.Name] = a
		}
		actSyms[a] = st.add(pre(p4configv1.P4Ids_ACTION), a.Name, a.Annos)
	}
	vsSyms := map[*interp.ValueSet]*symbol{}
	for _, v := range p.ValueSets {
		vsSyms[v] = st.add(pre(p4configv1.P4Ids_VALUE_SET), v.Name, v.Annos)
	}
	ctrSyms := map[*interp.Counter]*symbol{}
	for _, c := range p.Counters {
		k := p4configv1.P4Ids_COUNTER
		if c.Direct {
			if c.Table == nil {
				continue
			}
			k = p4configv1.P4Ids_DIRECT_COUNTER
		}
		ctrSyms[c] = st.add(pre(k), c.Name, c.Annos)
	}
	mtrSyms := map[*interp.Meter]*symbol{}
	for _, m := range p.Meters {
		k := p4configv1.P4Ids_METER
		if m.Direct {
			if m.Table == nil {
				continue
			}
			k = p4configv1.P4Ids_DIRECT_METER
		}
		mtrSyms[m] = st.add(pre(k), m.Name, m.Annos)
	}
	regSyms := map[*interp.Register]*symbol{}
	for _, r := range p.Registers {
		regSyms[r] = st.add(pre(p4configv1.P4Ids_REGISTER), r.Name, r.Annos)
	}
	profSyms := map[*interp.ActionProfile]*symbol{}
	for _, a := range p.Profiles {
		profSyms[a] = st.add(pre(p4configv1.P4Ids_ACTION_PROFILE), a.Name, a.Annos)
	}
	digSyms := map[*interp.DigestType]*symbol{}
	for _, d := range p.Digests {
		digSyms[d] = st.add(pre(p4configv1.P4Ids_DIGEST), d.Name, nil)
	}
	type ctrlHdr struct {
		name string
		decl *ast.StructDecl
		st   *check.Struct
		sym  *symbol
	}
	var ctrlHdrs []*ctrlHdr
	for _, d := range p.Info.Program.Decls {
		sd, ok := d.(*ast.StructDecl)
		if !ok || sd.Kind != "header" || !sd.Annos.Has("controller_header") {
			continue
		}
		name, _ := sd.Annos.String("controller_header")
		o := p.Info.Global.Lookup(sd.Name)
		ch := &ctrlHdr{name: name, decl: sd, st: o.Type.(*check.Struct)}
		ch.sym = st.add(pre(p4configv1.P4Ids_CONTROLLER_HEADER), name, sd.Annos)
		ch.sym.idName = typeControlPlaneName(sd)
		ctrlHdrs = append(ctrlHdrs, ch)
	}
	st.assign()
	if len(st.errs) > 0 {
		return nil, nil, errors.New(strings.Join(st.errs, "; "))
	}
	preamble := func(s *symbol) *p4configv1.Preamble {
		return &p4configv1.Preamble{Id: s.id, Name: s.name, Alias: st.alias(s.name), Annotations: annotationStrings(s.annos)}
	}
	info := &p4configv1.P4Info{PkgInfo: &p4configv1.PkgInfo{Arch: "v1model"}}
	types := newTypeInfo(p.Info)

	for _, t := range p.Tables {
		s := tabSyms[t]
		ids.Tables[t] = s.id
		pt := &p4configv1.Table{Preamble: preamble(s), Size: int64(t.Size)}
		for i, k := range t.Keys {
			mf := &p4configv1.MatchField{Id: uint32(i + 1), Name: k.Name, Bitwidth: int32(k.Width), Annotations: annotationStrings(k.Annos)}
			if en, ok := k.Type.(*check.Enum); ok && en.Base != nil {
				// p4c lists a serializable enum used as a key in type_info
				// (the match field itself carries no type_name)
				types.spec(en)
			}
			switch k.MatchKind {
			case "exact":
				mf.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_EXACT}
			case "lpm":
				mf.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_LPM}
			case "ternary":
				mf.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_TERNARY}
			case "range":
				mf.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_RANGE}
			case "optional":
				mf.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_OPTIONAL}
			default:
				mf.Match = &p4configv1.MatchField_OtherMatchType{OtherMatchType: k.MatchKind}
			}
			pt.MatchFields = append(pt.MatchFields, mf)
		}
		for _, ta := range t.Actions {
			ref := &p4configv1.ActionRef{Id: actSyms[ta.Action].id, Annotations: annotationStrings(ta.Annos)}
			if ta.DefaultOnly {
				ref.Scope = p4configv1.ActionRef_DEFAULT_ONLY
			} else if ta.TableOnly {
				ref.Scope = p4configv1.ActionRef_TABLE_ONLY
			}
			pt.ActionRefs = append(pt.ActionRefs, ref)
		}
		if t.InitDefault != nil {
			pt.InitialDefaultAction = &p4configv1.TableActionCall{ActionId: actSyms[t.InitDefault.Action].id}
			for i, prm := range t.InitDefault.Action.Params {
				pt.InitialDefaultAction.Arguments = append(pt.InitialDefaultAction.Arguments, &p4configv1.TableActionCall_Argument{
					ParamId: uint32(i + 1), Value: paddedBytes(t.InitDefault.Arg(i), prm.Width)})
			}
			if t.ConstDefault {
				pt.ConstDefaultActionId = actSyms[t.InitDefault.Action].id
			}
		}
		if t.Profile != nil {
			pt.ImplementationId = profSyms[t.Profile].id
		}
		if t.DirectCounter != nil {
			pt.DirectResourceIds = append(pt.DirectResourceIds, ctrSyms[t.DirectCounter].id)
		}
		if t.DirectMeter != nil {
			pt.DirectResourceIds = append(pt.DirectResourceIds, mtrSyms[t.DirectMeter].id)
		}
		if t.SupportsIdle {
			pt.IdleTimeoutBehavior = p4configv1.Table_NOTIFY_CONTROL
		}
		// as p4c: a table with "entries" (const or not) has initial entries
		pt.IsConstTable = t.ConstEntries
		pt.HasInitialEntries = t.ConstEntries || t.Len() > 0
		info.Tables = append(info.Tables, pt)
	}
	for _, a := range p.Actions {
		if !a.ControlPlane {
			continue
		}
		s := actSyms[a]
		ids.Actions[a] = s.id
		if firstOfName[a.Name] != a {
			continue // listed once, by the first action of its name
		}
		pa := &p4configv1.Action{Preamble: preamble(s)}
		for i, prm := range a.Params {
			pp := &p4configv1.Action_Param{Id: uint32(i + 1), Name: prm.Name, Bitwidth: int32(prm.Width), Annotations: annotationStrings(prm.Annos)}
			if tn := types.namedType(prm.Type); tn != nil {
				pp.TypeName = tn
			}
			pa.Params = append(pa.Params, pp)
		}
		info.Actions = append(info.Actions, pa)
	}
	for _, a := range p.Profiles {
		s := profSyms[a]
		ids.Profiles[a] = s.id
		pp := &p4configv1.ActionProfile{Preamble: preamble(s), WithSelector: a.Selector, Size: int64(a.Size)}
		for _, t := range a.Tables {
			pp.TableIds = append(pp.TableIds, tabSyms[t].id)
		}
		info.ActionProfiles = append(info.ActionProfiles, pp)
	}
	unit := func(u int) p4configv1.CounterSpec_Unit {
		switch u {
		case 0:
			return p4configv1.CounterSpec_PACKETS
		case 1:
			return p4configv1.CounterSpec_BYTES
		}
		return p4configv1.CounterSpec_BOTH
	}
	munit := func(u int) p4configv1.MeterSpec_Unit {
		if u == 1 {
			return p4configv1.MeterSpec_BYTES
		}
		return p4configv1.MeterSpec_PACKETS
	}
	for _, c := range p.Counters {
		s, ok := ctrSyms[c]
		if !ok {
			continue
		}
		ids.Counters[c] = s.id
		if c.Direct {
			info.DirectCounters = append(info.DirectCounters, &p4configv1.DirectCounter{Preamble: preamble(s), Spec: &p4configv1.CounterSpec{Unit: unit(c.Unit)}, DirectTableId: tabSyms[c.Table].id})
		} else {
			info.Counters = append(info.Counters, &p4configv1.Counter{Preamble: preamble(s), Spec: &p4configv1.CounterSpec{Unit: unit(c.Unit)}, Size: int64(c.Size)})
		}
	}
	for _, m := range p.Meters {
		s, ok := mtrSyms[m]
		if !ok {
			continue
		}
		ids.Meters[m] = s.id
		if m.Direct {
			info.DirectMeters = append(info.DirectMeters, &p4configv1.DirectMeter{Preamble: preamble(s), Spec: &p4configv1.MeterSpec{Unit: munit(m.Unit)}, DirectTableId: tabSyms[m.Table].id})
		} else {
			info.Meters = append(info.Meters, &p4configv1.Meter{Preamble: preamble(s), Spec: &p4configv1.MeterSpec{Unit: munit(m.Unit)}, Size: int64(m.Size)})
		}
	}
	for _, ch := range ctrlHdrs {
		cpm := &p4configv1.ControllerPacketMetadata{Preamble: preamble(ch.sym)}
		hdr := &ControllerHeader{ID: ch.sym.id}
		for i, f := range ch.st.Fields {
			w := check.Width(f.Type)
			m := &p4configv1.ControllerPacketMetadata_Metadata{Id: uint32(i + 1), Name: f.Name, Bitwidth: int32(w), Annotations: annotationStrings(f.Annos)}
			if tn := types.namedType(f.Type); tn != nil {
				m.TypeName = tn
			}
			cpm.Metadata = append(cpm.Metadata, m)
			hdr.Fields = append(hdr.Fields, ControllerField{ID: uint32(i + 1), Name: f.Name, Width: w})
		}
		ids.ControllerHeaders[ch.name] = hdr
		info.ControllerPacketMetadata = append(info.ControllerPacketMetadata, cpm)
	}
	for _, v := range p.ValueSets {
		s := vsSyms[v]
		ids.ValueSets[v] = s.id
		pv := &p4configv1.ValueSet{Preamble: preamble(s), Size: int32(v.Size)}
		m, err := valueSetMatch(v)
		if err != nil {
			return nil, nil, err
		}
		pv.Match = m
		info.ValueSets = append(info.ValueSets, pv)
	}
	for _, r := range p.Registers {
		s := regSyms[r]
		ids.Registers[r] = s.id
		info.Registers = append(info.Registers, &p4configv1.Register{Preamble: preamble(s), TypeSpec: types.spec(r.Layout.Type), Size: int32(r.Size)})
	}
	for _, d := range p.Digests {
		s := digSyms[d]
		ids.Digests[d] = s.id
		info.Digests = append(info.Digests, &p4configv1.Digest{Preamble: preamble(s), TypeSpec: types.spec(d.Type)})
	}
	// p4c always emits type_info, even when it is empty
	info.TypeInfo = types.info
	return info, ids, nil
}

// annotationStrings renders annotations as p4c lists them in preambles.
func annotationStrings(as ast.Annotations) []string {
	var out []string
	for _, a := range as {
		switch a.Name {
		case "name", "id", "hidden", "field_list":
			continue
		}
		s := "@" + a.Name
		if a.Raw != nil {
			var sb strings.Builder
			for i, t := range a.Raw {
				if i > 0 && !(t.Kind == token.Punct && (t.Text == "," || t.Text == ")")) && !(a.Raw[i-1].Kind == token.Punct && a.Raw[i-1].Text == "(") {
					sb.WriteString(" ")
				}
				if t.Kind == token.String {
					sb.WriteString(`"` + strings.ReplaceAll(t.Text, `"`, `\"`) + `"`)
				} else {
					sb.WriteString(t.Text)
				}
			}
			s += "(" + sb.String() + ")"
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return false })
	return out
}

// paddedBytes is v in ceil(width/8) big-endian bytes: p4c writes the
// arguments of initial_default_action at full width, not canonically.
func paddedBytes(v *big.Int, width int) []byte {
	return v.FillBytes(make([]byte, (width+7)/8))
}

// valueSetMatch describes what a value_set member matches, as p4c does: for
// value_set<bit<W>> one unnamed exact field of W bits; for a struct one
// field per struct field (id from @id or its position, name from @name or
// the field's name), exact unless the field says @match(ternary|lpm|optional).
// Other element types keep p4switch's single ternary field over the whole
// value, named after the value set.
func valueSetMatch(v *interp.ValueSet) ([]*p4configv1.MatchField, error) {
	exact := &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_EXACT}
	switch t := check.Underlying(v.Layout.Type).(type) {
	case *check.Bits:
		return []*p4configv1.MatchField{{Id: 1, Bitwidth: int32(v.Layout.Width), Match: exact}}, nil
	case *check.Struct:
		var out []*p4configv1.MatchField
		for i, f := range t.Fields {
			if _, ok := check.Underlying(f.Type).(*check.Bits); !ok {
				return nil, fmt.Errorf("value set %s: field %s is a %s; P4Runtime takes value sets of bit<W>, or of structs of bit<W> fields", v.Name, f.Name, f.Type)
			}
			mf := &p4configv1.MatchField{Id: uint32(i + 1), Name: f.Name, Bitwidth: int32(v.Layout.Fields[i].Layout.Width), Match: exact}
			if id, ok := f.Annos.Int("id"); ok {
				mf.Id = uint32(id.Uint64())
			}
			if n, ok := f.Annos.String("name"); ok {
				mf.Name = n
			}
			if a := f.Annos.Get("match"); a != nil {
				kind := ""
				if len(a.Raw) == 1 {
					kind = a.Raw[0].Text
				}
				switch kind {
				case "exact":
				case "ternary":
					mf.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_TERNARY}
				case "lpm":
					mf.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_LPM}
				case "optional":
					mf.Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_OPTIONAL}
				default:
					return nil, fmt.Errorf("value set %s: field %s: @match(%s) is not supported (exact, ternary, lpm, optional are)", v.Name, f.Name, kind)
				}
				mf.Annotations = slices.DeleteFunc(annotationStrings(f.Annos), func(s string) bool { return strings.HasPrefix(s, "@match") })
			} else {
				mf.Annotations = annotationStrings(f.Annos)
			}
			out = append(out, mf)
		}
		seen := map[uint32]bool{}
		for _, mf := range out {
			if mf.Id == 0 || seen[mf.Id] {
				return nil, fmt.Errorf("value set %s: field id %d is zero or used twice", v.Name, mf.Id)
			}
			seen[mf.Id] = true
		}
		return out, nil
	}
	return []*p4configv1.MatchField{{Id: 1, Name: v.Name, Bitwidth: int32(v.Layout.Width), Match: &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_TERNARY}}}, nil
}

// sameSignature checks that two actions sharing a control-plane name can be
// one P4Info action: the same parameters (names, widths, types) in the same
// order. p4c lists such actions once (older versions keep the first
// silently; since 2024 p4c rejects every shared action name when it writes a
// P4Info); p4switch merges them when the control plane cannot tell them
// apart and rejects them otherwise.
func sameSignature(a, b *interp.Action) error {
	differ := func(why string) error {
		return fmt.Errorf("%s: actions %s (line %d) and %s (line %d) share the control-plane name %s but %s",
			b.Decl.Pos, a.Decl.Name, a.Decl.Pos.Line, b.Decl.Name, b.Decl.Pos.Line, a.Name, why)
	}
	if len(a.Params) != len(b.Params) {
		return differ(fmt.Sprintf("take %d and %d parameters", len(a.Params), len(b.Params)))
	}
	for i, pa := range a.Params {
		pb := b.Params[i]
		if pa.Name != pb.Name || pa.Width != pb.Width || !check.Same(pa.Type, pb.Type) {
			return differ(fmt.Sprintf("parameter %d differs (%s %s, %s %s)", i+1, pa.Type, pa.Name, pb.Type, pb.Name))
		}
	}
	return nil
}

// typeControlPlaneName is a type's name as p4c's symbol table knows it: its
// @name without a leading dot, else its declared name.
func typeControlPlaneName(sd *ast.StructDecl) string {
	if n, ok := sd.Annos.String("name"); ok {
		return strings.TrimPrefix(n, ".")
	}
	return sd.Name
}
