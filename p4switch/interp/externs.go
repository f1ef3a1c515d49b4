package interp

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// blockInst is an instantiated parser or control used by apply().
type blockInst struct {
	params   []*ast.Param
	offs     []int
	touched  [][]segment // per in/inout parameter: the parts the instance accesses (nil: all)
	run      func(*State) int
	isParser bool
}

func (c *compiler) constArg(args []ast.Arg, i int) int64 {
	if i >= len(args) {
		return 0
	}
	v, ok := c.info.Consts[args[i].Value]
	if !ok {
		c.fail(args[i].Value.Position(), "constructor argument must be a constant")
	}
	return v.Int64()
}

// instance creates the runtime object of a local or top-level instantiation.
func (c *compiler) instance(e *env, d *ast.Instance) any {
	t := c.info.DeclTypes[d]
	name := cpName(d.Annos, d.Name, e.prefix)
	return c.newObject(e, t, d.Args, name, d.Annos)
}

// anonInstance instantiates T(args) used as an expression.
func (c *compiler) anonInstance(e *env, call *ast.Call, name string) any {
	ci := c.info.Calls[call]
	return c.newObject(e, ci.Ret, call.Args, name, nil)
}

func (c *compiler) newObject(e *env, t check.Type, args []ast.Arg, name string, annos ast.Annotations) any {
	switch u := t.(type) {
	case *check.Block:
		ref := &blockRef{decl: u.Decl, name: name, args: args, annos: annos, site: e}
		var params []*ast.Param
		switch d := u.Decl.(type) {
		case *ast.ParserDecl:
			params = d.Params
		case *ast.ControlDecl:
			params = d.Params
		default:
			c.fail(nilPos, "cannot instantiate %s", u.Name)
		}
		offs := make([]int, len(params))
		for i, p := range params {
			if ext, ok := c.info.DeclTypes[p].(*check.Extern); ok && (ext.Decl.Name == "packet_in" || ext.Decl.Name == "packet_out") {
				offs[i] = -1
				continue
			}
			offs[i] = c.alloc(c.layoutOf(c.info.DeclTypes[p]).Size)
		}
		ts := &touchSet{}
		c.touching = append(c.touching, ts)
		run := c.instantiate(ref, offs)
		c.touching = c.touching[:len(c.touching)-1]
		touched := make([][]segment, len(params))
		for i, p := range params {
			if offs[i] >= 0 && (p.Dir == "in" || p.Dir == "inout") {
				touched[i] = ts.within(offs[i], c.layoutOf(c.info.DeclTypes[p]).Size)
			}
		}
		_, isParser := u.Decl.(*ast.ParserDecl)
		return &blockInst{params: params, offs: offs, touched: touched, run: run, isParser: isParser}
	case *check.Extern:
		switch u.Decl.Name {
		case "counter", "direct_counter":
			ctr := &Counter{Name: name, Annos: annos, Direct: u.Decl.Name == "direct_counter"}
			if ctr.Direct {
				ctr.Unit = int(c.constArg(args, 0))
			} else {
				ctr.Size = int(c.constArg(args, 0))
				ctr.Unit = int(c.constArg(args, 1))
				ctr.Cells = make([]CounterCell, ctr.Size)
			}
			c.prog.Counters = append(c.prog.Counters, ctr)
			return ctr
		case "meter", "direct_meter":
			m := &Meter{Name: name, Annos: annos, Direct: u.Decl.Name == "direct_meter"}
			if m.Direct {
				m.Unit = int(c.constArg(args, 0))
			} else {
				m.Size = int(c.constArg(args, 0))
				m.Unit = int(c.constArg(args, 1))
				for i := 0; i < m.Size; i++ {
					m.Cells = append(m.Cells, &MeterCell{})
				}
			}
			c.prog.Meters = append(c.prog.Meters, m)
			return m
		case "register":
			if len(u.Args) == 0 {
				c.fail(nilPos, "register %s needs a type argument", name)
			}
			l := c.layoutOf(u.Args[0])
			r := &Register{Name: name, Annos: annos, Size: int(c.constArg(args, 0)), Width: check.Width(u.Args[0]), Layout: l}
			r.cells = make([]uint64, r.Size*l.Size)
			c.prog.Registers = append(c.prog.Registers, r)
			return r
		case "action_profile":
			p := &ActionProfile{Name: name, Annos: annos, Size: int(c.constArg(args, 0)), Members: map[uint32]*ActionCall{}, Groups: map[uint32]*Group{}}
			c.prog.Profiles = append(c.prog.Profiles, p)
			return p
		case "action_selector":
			p := &ActionProfile{Name: name, Annos: annos, Selector: true, Algo: int(c.constArg(args, 0)), Size: int(c.constArg(args, 1)), OutWidth: int(c.constArg(args, 2)), Members: map[uint32]*ActionCall{}, Groups: map[uint32]*Group{}}
			c.prog.Profiles = append(c.prog.Profiles, p)
			return p
		case "Checksum16":
			return &checksum16{}
		}
		c.fail(nilPos, "extern %s is not supported", u.Decl.Name)
	}
	c.fail(nilPos, "cannot instantiate %s", t)
	return nil
}

type checksum16 struct{}

// profileOf resolves a table's implementation property.
func (c *compiler) profileOf(e *env, prop *ast.TableProp, t *Table) *ActionProfile {
	var p *ActionProfile
	switch x := prop.Value.(type) {
	case *ast.Call:
		// an inline implementation is named by the property's @name (taken
		// verbatim, as p4c does), else after the table
		name := e.prefix + t.Decl.Name + "_profile"
		if n, ok := prop.Annos.String("name"); ok {
			name = strings.TrimPrefix(n, ".")
		}
		p, _ = c.anonInstance(e, x, name).(*ActionProfile)
	case *ast.Ident:
		p, _ = c.objOf(e, x).(*ActionProfile)
	}
	if p == nil {
		c.fail(prop.Pos, "implementation must be an action_profile or action_selector")
	}
	p.Tables = append(p.Tables, t)
	if p.Selector {
		if kp := c.prop(t.Decl, "key"); kp != nil {
			for _, k := range kp.Keys {
				if k.MatchKind != "selector" {
					continue
				}
				v := c.expr(e, k.Expr)
				l := c.layoutOf(c.typeOf(k.Expr))
				store := c.storeFn(v, l)
				tmp := make([]uint64, l.Words)
				p.selKeys = append(p.selKeys, func(st *State, bw *bitWriter) {
					store(st, tmp)
					if l.Words == 1 {
						bw.write(tmp[0], l.Width)
					} else {
						bw.writeWide(tmp, l.Width)
					}
				})
			}
		}
	}
	return p
}

// serializer flattens a value into bits (for hashes, checksums and digests).
func (c *compiler) serializer(v val) func(*State, *bitWriter) {
	l := v.l
	if l.Kind == KScalar {
		if l.Words == 1 {
			u := c.scalarU(v, l)
			return func(st *State, bw *bitWriter) { bw.write(u(st), l.Width) }
		}
		b := v.toBig()
		tmp := make([]uint64, l.Words)
		return func(st *State, bw *bitWriter) {
			wordsFromBig(b(st), l.Width, tmp)
			bw.writeWide(tmp, l.Width)
		}
	}
	n := l.Size
	tmp := c.alloc(n)
	store := c.storeFn(v, l)
	if fl := flatten(l); fl != nil {
		return func(st *State, bw *bitWriter) {
			store(st, st.S[tmp:tmp+n])
			fl.write(bw, st.S[tmp:tmp+n])
		}
	}
	return func(st *State, bw *bitWriter) {
		store(st, st.S[tmp:tmp+n])
		serializeAll(bw, l, st.S[tmp:tmp+n])
	}
}

// serializeAll writes every field (headers regardless of validity, as BMv2 field lists do).
func serializeAll(bw *bitWriter, l *Layout, s []uint64) {
	switch l.Kind {
	case KScalar:
		if l.Words == 1 {
			bw.write(s[0], l.Width)
		} else {
			bw.writeWide(s, l.Width)
		}
	case KVarbit:
		if n := int(s[0]); n > 0 {
			bw.writeWide(s[1:1+words(n)], n)
		}
	case KHeader, KStruct, KUnion, KTuple:
		for _, f := range l.Fields {
			serializeAll(bw, f.Layout, s[f.Off:f.Off+f.Layout.Size])
		}
	case KStack:
		for i := 0; i < l.N; i++ {
			o := 1 + i*l.Elem.Size
			serializeAll(bw, l.Elem, s[o:o+l.Elem.Size])
		}
	}
}

func (c *compiler) stdSlot(name string) int {
	off, ok := c.prog.StdField[name]
	if !ok {
		c.fail(nilPos, "standard_metadata has no field %s", name)
	}
	return off
}

// externCall compiles calls of extern functions and methods. The returned
// val is the call's result (zero val for void).
func (c *compiler) externCall(e *env, call *ast.Call, ci *check.CallInfo) (stmtFn, val) {
	args := orderedArgs(call.Args, ci.Params)
	arg := func(i int) val { return c.expr(e, args[i]) }
	stmt := func(f func(*State)) stmtFn {
		return func(st *State) int {
			f(st)
			if st.exit {
				return exited
			}
			return next
		}
	}
	if ci.Kind == check.CallExternMethod {
		return c.externMethod(e, call, ci, args)
	}
	switch ci.Name {
	case "mark_to_drop":
		spec, grp := c.stdSlot("egress_spec"), c.stdSlot("mcast_grp")
		if len(args) == 1 {
			lv := c.lvalue(e, args[0])
			spec, grp = lv.off+c.prog.StdLayout.Field("egress_spec").Off, lv.off+c.prog.StdLayout.Field("mcast_grp").Off
		}
		return stmt(func(st *State) { st.S[spec] = DropPort; st.S[grp] = 0 }), val{}
	case "verify":
		cond := c.cond(e, args[0])
		code := c.scalarU(arg(1), c.layoutOf(&check.ErrorT{}))
		return stmt(func(st *State) {
			if !cond(st) {
				st.parserErr = code(st)
				if st.parserErr == 0 {
					st.parserErr = 0
				}
			}
		}), val{}
	case "static_assert":
		return stmt(func(*State) {}), c.constVal(&check.Bool{}, big.NewInt(1))
	case "hash":
		out := c.lvalue(e, args[0])
		algo := int(c.info.Consts[args[1]].Int64())
		base := c.scalarU(arg(2), c.layoutOf(c.typeOf(args[2])))
		data := c.serializer(arg(3))
		maxv := arg(4)
		maxU := c.scalarU(maxv, maxv.l)
		var bw bitWriter
		set := c.assign(out, val{t: out.l.Type, l: out.l, u: func(st *State) uint64 {
			bw.buf, bw.bits = bw.buf[:0], 0
			data(st, &bw)
			h := hashData(algo, bw.buf, bw.bits)
			m := maxU(st)
			if m == 0 {
				return base(st)
			}
			return base(st) + h%m
		}})
		return stmt(set), val{}
	case "random":
		out := c.lvalue(e, args[0])
		lo, hi := c.scalarU(arg(1), out.l), c.scalarU(arg(2), out.l)
		set := c.assign(out, val{t: out.l.Type, l: out.l, u: func(st *State) uint64 {
			a, b := lo(st), hi(st)
			if b <= a {
				return a
			}
			return a + st.Rand.Uint64()%(b-a+1)
		}})
		return stmt(set), val{}
	case "digest":
		dv := arg(1)
		dt := c.digestType(c.typeOf(args[1]), dv.l)
		n := dv.l.Size
		store := c.storeFn(dv, dv.l)
		return stmt(func(st *State) {
			vals := make([]uint64, n)
			store(st, vals)
			st.Digests = append(st.Digests, DigestMessage{Type: dt, Values: vals})
		}), val{}
	case "verify_checksum", "verify_checksum_with_payload", "update_checksum", "update_checksum_with_payload":
		cond := c.cond(e, args[0])
		data := c.serializer(arg(1))
		algo := int(c.info.Consts[args[3]].Int64())
		payload := strings.HasSuffix(ci.Name, "_with_payload")
		sumLv := c.lvalue(e, args[2])
		sum := c.load(sumLv)
		w := sumLv.l.Width
		var bw bitWriter
		compute := func(st *State) uint64 {
			bw.buf, bw.bits = bw.buf[:0], 0
			data(st, &bw)
			if payload {
				for _, b := range st.Payload() {
					bw.write(uint64(b), 8)
				}
			}
			return hashData(algo, bw.buf, bw.bits) & mask(w)
		}
		if strings.HasPrefix(ci.Name, "verify") {
			errSlot := c.stdSlot("checksum_error")
			su := sum.u
			return stmt(func(st *State) {
				if cond(st) && compute(st) != su(st) {
					st.S[errSlot] = 1
				}
			}), val{}
		}
		set := c.assign(sumLv, val{t: sumLv.l.Type, l: sumLv.l, u: compute})
		return stmt(func(st *State) {
			if cond(st) {
				set(st)
			}
		}), val{}
	case "clone", "clone3", "clone_preserving_field_list":
		typ := c.scalarU(arg(0), c.layoutOf(c.typeOf(args[0])))
		sess := c.scalarU(arg(1), c.layoutOf(c.typeOf(args[1])))
		fl := -1
		switch ci.Name {
		case "clone_preserving_field_list":
			fl = int(c.info.Consts[args[2]].Int64())
		case "clone3":
			fl = c.listedFields(e, args[2])
		}
		return stmt(func(st *State) {
			st.Clones = append(st.Clones, CloneRequest{E2E: typ(st) == 1, Session: uint32(sess(st)), FieldList: fl})
		}), val{}
	case "resubmit", "resubmit_preserving_field_list", "recirculate", "recirculate_preserving_field_list":
		idx := noFieldList
		if strings.HasSuffix(ci.Name, "_preserving_field_list") {
			idx = int(c.info.Consts[args[0]].Int64())
		} else if fl := c.listedFields(e, args[0]); fl >= 0 {
			idx = fl
		}
		if strings.HasPrefix(ci.Name, "resubmit") {
			return stmt(func(st *State) { st.Resubmit = idx + 1 }), val{}
		}
		return stmt(func(st *State) { st.Recirc = idx + 1 }), val{}
	case "truncate":
		n := c.scalarU(arg(0), c.layoutOf(c.typeOf(args[0])))
		return stmt(func(st *State) { st.Truncate = int(n(st)) }), val{}
	case "assert", "assume":
		cond := c.cond(e, args[0])
		msg := fmt.Sprintf("%s: %s failed", call.Pos, ci.Name)
		return stmt(func(st *State) {
			if !cond(st) && st.Failure == "" {
				st.Failure = msg
			}
		}), val{}
	case "log_msg":
		format := ""
		if s, ok := args[0].(*ast.StringLit); ok {
			format = s.Value
		}
		var parts []func(*State) string
		if len(args) > 1 && args[1] != nil {
			if l, ok := args[1].(*ast.ListExpr); ok {
				for _, x := range l.Elems {
					parts = append(parts, c.formatter(c.expr(e, x)))
				}
			} else {
				parts = append(parts, c.formatter(arg(1)))
			}
		}
		return stmt(func(st *State) {
			if st.Log == nil {
				return
			}
			var sb strings.Builder
			rest := format
			for _, p := range parts {
				i := strings.Index(rest, "{}")
				if i < 0 {
					break
				}
				sb.WriteString(rest[:i])
				sb.WriteString(p(st))
				rest = rest[i+2:]
			}
			sb.WriteString(rest)
			st.Log(sb.String())
		}), val{}
	}
	c.fail(call.Pos, "extern function %s is not supported", ci.Name)
	return nil, val{}
}

// noFieldList marks resubmit/recirculate without preserved fields.
const noFieldList = 1 << 16

// listedFields registers the fields named in the data argument of the
// deprecated clone3/resubmit/recirculate as a field list of their own and
// returns its index (-1 when nothing is preserved).
func (c *compiler) listedFields(e *env, x ast.Expr) int {
	var elems []ast.Expr
	if l, ok := x.(*ast.ListExpr); ok {
		elems = l.Elems
	} else {
		elems = []ast.Expr{x}
	}
	var refs []FieldRef
	for _, el := range elems {
		if !isStorage(el) {
			continue
		}
		lv := c.lvalue(e, el)
		if lv.static && lv.slice == nil {
			refs = append(refs, FieldRef{Off: lv.off, Size: lv.l.Size})
		}
	}
	if len(refs) == 0 {
		return -1
	}
	idx := noFieldList + 1 + len(c.prog.FieldLists)
	c.prog.FieldLists[idx] = refs
	return idx
}

// DropPort is BMv2's drop port for egress_spec.
const DropPort = 511

func (c *compiler) formatter(v val) func(*State) string {
	if v.u != nil {
		u := v.u
		return func(st *State) string { return fmt.Sprint(u(st)) }
	}
	if v.b != nil {
		b := v.b
		return func(st *State) string { return b(st).String() }
	}
	return func(*State) string { return "{...}" }
}

func (c *compiler) digestType(t check.Type, l *Layout) *DigestType {
	name := t.String()
	if st, ok := check.Underlying(t).(*check.Struct); ok {
		name = st.Name
		if n, ok := st.Decl.Annos.String("name"); ok {
			name = strings.TrimPrefix(n, ".")
		}
	}
	if dt, ok := c.digests[name]; ok {
		return dt
	}
	dt := &DigestType{Name: name, Type: t, Layout: l, Index: len(c.prog.Digests)}
	c.digests[name] = dt
	c.prog.Digests = append(c.prog.Digests, dt)
	return dt
}

func (c *compiler) externMethod(e *env, call *ast.Call, ci *check.CallInfo, args []ast.Expr) (stmtFn, val) {
	stmt := func(f func(*State)) stmtFn {
		return func(st *State) int { f(st); return next }
	}
	switch ci.Extern.Decl.Name {
	case "packet_in":
		switch ci.Name {
		case "extract":
			return stmt(c.extractFn(e, call)), val{}
		case "lookahead":
			chk, v := c.lookaheadVal(ci.Ret)
			return stmt(chk), c.withPre(v, chk)
		case "advance":
			n := c.expr(e, args[0])
			nu := c.scalarU(n, n.l)
			tooShort := c.errorCode("PacketTooShort")
			return stmt(func(st *State) {
				k := int(nu(st))
				if st.Off+k > len(st.Pkt)*8 {
					st.parserErr = tooShort
					return
				}
				st.Off += k
			}), val{}
		case "length":
			t := ci.Ret
			return stmt(func(*State) {}), val{t: t, l: c.layoutOf(t), u: func(st *State) uint64 { return uint64(len(st.Pkt)) }}
		}
	case "packet_out":
		if ci.Name == "emit" {
			return stmt(c.emitFn(e, args[0])), val{}
		}
	case "counter":
		ctr := c.objOf(e, ci.Recv).(*Counter)
		idx := c.expr(e, args[0])
		iu := c.scalarU(idx, idx.l)
		return stmt(func(st *State) {
			i := iu(st)
			if i < uint64(len(ctr.Cells)) {
				ctr.Cells[i].Add(uint64(st.Length))
			}
		}), val{}
	case "direct_counter":
		return stmt(func(*State) {}), val{}
	case "meter":
		m := c.objOf(e, ci.Recv).(*Meter)
		idx := c.expr(e, args[0])
		iu := c.scalarU(idx, idx.l)
		out := c.lvalue(e, args[1])
		set := c.assign(out, val{t: out.l.Type, l: out.l, u: func(st *State) uint64 {
			i := iu(st)
			if i >= uint64(len(m.Cells)) {
				return Green
			}
			return m.executeCell(m.Cells[i], st, uint64(st.Length))
		}})
		return stmt(set), val{}
	case "direct_meter":
		out := c.lvalue(e, args[0])
		set := c.assign(out, val{t: out.l.Type, l: out.l, u: func(st *State) uint64 { return st.meterColor }})
		return stmt(set), val{}
	case "register":
		r := c.objOf(e, ci.Recv).(*Register)
		n := r.Layout.Size
		if ci.Name == "read" {
			out := c.lvalue(e, args[0])
			idx := c.expr(e, args[1])
			iu := c.scalarU(idx, idx.l)
			tmp := c.alloc(n)
			set := c.assign(out, c.load(&lval{l: r.Layout, static: true, off: tmp, hv: -1}))
			return stmt(func(st *State) {
				if !r.Read(int(iu(st)), st.S[tmp:tmp+n]) {
					clear(st.S[tmp : tmp+n])
				}
				set(st)
			}), val{}
		}
		idx := c.expr(e, args[0])
		iu := c.scalarU(idx, idx.l)
		v := c.expr(e, args[1])
		store := c.storeFn(v, r.Layout)
		tmp := c.alloc(n)
		return stmt(func(st *State) {
			store(st, st.S[tmp:tmp+n])
			r.Write(int(iu(st)), st.S[tmp:tmp+n])
		}), val{}
	case "Checksum16":
		data := c.serializer(c.expr(e, args[0]))
		var bw bitWriter
		t := ci.Ret
		return stmt(func(*State) {}), val{t: t, l: c.layoutOf(t), u: func(st *State) uint64 {
			bw.buf, bw.bits = bw.buf[:0], 0
			data(st, &bw)
			return uint64(csum16(bw.buf))
		}}
	}
	c.fail(call.Pos, "method %s of extern %s is not supported", ci.Name, ci.Extern.Decl.Name)
	return nil, val{}
}
