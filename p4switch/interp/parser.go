package interp

import (
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

const (
	stateAccept    = -1
	stateReject    = -2
	maxParserSteps = 10000
)

// parser compiles a parser instance; it returns ret on accept and exited on reject.
func (c *compiler) parser(e *env, d *ast.ParserDecl) func(*State) int {
	init := c.locals(e, d.Locals)
	index := map[string]int{"accept": stateAccept, "reject": stateReject}
	for i, s := range d.States {
		index[s.Name] = i
	}
	states := make([]func(*State) int, len(d.States))
	for i, s := range d.States {
		states[i] = c.parserState(e, s, index)
	}
	start := index["start"]
	errOff, hasErr := c.prog.StdField["parser_error"]
	timeout := c.errorCode("ParserTimeout")
	return func(st *State) int {
		init(st)
		st.parserErr = 0
		cur := start
		for steps := 0; cur >= 0; steps++ {
			if steps > maxParserSteps {
				st.parserErr = timeout
				cur = stateReject
				break
			}
			cur = states[cur](st)
		}
		if cur == stateReject {
			if hasErr && st.parserErr != 0 {
				st.S[errOff] = st.parserErr
			}
			return exited
		}
		return ret
	}
}

func (c *compiler) errorCode(name string) uint64 {
	v, ok := c.prog.ErrorCodes[name]
	if !ok {
		return 0
	}
	return uint64(v)
}

func (c *compiler) parserState(pe *env, s *ast.State, index map[string]int) func(*State) int {
	e := newEnv(pe, pe.prefix)
	var stmts []stmtFn
	for _, x := range s.Stmts {
		if f := c.stmt(e, x); f != nil {
			stmts = append(stmts, f)
		}
	}
	body := func(st *State) bool {
		for _, f := range stmts {
			f(st)
			if st.parserErr != 0 || st.subReject {
				st.subReject = false
				return false
			}
		}
		return true
	}
	if s.Select == nil {
		nxt := stateReject
		if s.Next != "" {
			nxt = index[s.Next]
		}
		return func(st *State) int {
			if !body(st) {
				return stateReject
			}
			return nxt
		}
	}
	sel := c.selectFn(e, s.Select, index)
	noMatch := c.errorCode("NoMatch")
	return func(st *State) int {
		if !body(st) {
			return stateReject
		}
		n, ok := sel(st)
		if !ok {
			st.parserErr = noMatch
			return stateReject
		}
		return n
	}
}

// keyMatcher matches one select key.
type keyMatcher struct {
	any        bool
	value, msk []uint64
	lo, hi     []uint64
	vs         *ValueSet
}

func (c *compiler) selectFn(e *env, sel *ast.Select, index map[string]int) func(*State) (int, bool) {
	type keyFn struct {
		store func(*State, []uint64)
		n     int
		l     *Layout
	}
	var keys []keyFn
	total := 0
	for _, x := range sel.Exprs {
		v := c.expr(e, x)
		l := c.layoutOf(c.typeOf(x))
		if l.Kind != KScalar {
			c.fail(x.Position(), "select on %s is not supported", c.typeOf(x))
		}
		keys = append(keys, keyFn{c.storeFn(v, l), l.Words, l})
		total += l.Words
	}
	type caseFn struct {
		ms    []keyMatcher
		whole *ValueSet // a value set of a struct matching all the keys at once
		next  int
	}
	var cases []caseFn
	for _, cs := range sel.Cases {
		var elems []ast.Expr
		if l, ok := cs.Keyset.(*ast.ListExpr); ok && len(keys) > 1 {
			elems = l.Elems
		} else {
			elems = []ast.Expr{cs.Keyset}
		}
		if vs := c.valueSetKeyset(e, cs.Keyset); vs != nil && len(keys) > 1 {
			// value_set<S> with one struct field per key: a member's
			// fields are the keys' values, in order
			if vs.Layout.Kind != KStruct || len(vs.Layout.Fields) != len(keys) || vs.Layout.Size != total {
				c.fail(cs.Keyset.Position(), "value_set %s does not match the %d select keys field by field", vs.Name, len(keys))
			}
			for i, f := range vs.Layout.Fields {
				if f.Layout.Kind != KScalar || f.Layout.Width != keys[i].l.Width {
					c.fail(cs.Keyset.Position(), "value_set %s: field %s does not match select key %d", vs.Name, f.Name, i+1)
				}
			}
			cases = append(cases, caseFn{whole: vs, next: index[cs.Next]})
			continue
		}
		var ms []keyMatcher
		for i, k := range elems {
			if i >= len(keys) {
				break
			}
			ms = append(ms, c.keysetMatcher(e, k, keys[i].l))
		}
		if len(elems) == 1 && len(keys) > 1 {
			// default or _ for the whole tuple
			for len(ms) < len(keys) {
				ms = append(ms, keyMatcher{any: true})
			}
		}
		cases = append(cases, caseFn{ms: ms, next: index[cs.Next]})
	}
	buf := make([]uint64, total)
	slots := make([][]uint64, len(keys))
	o := 0
	for i, k := range keys {
		slots[i] = buf[o : o+k.n]
		o += k.n
	}
	return func(st *State) (int, bool) {
		for i, k := range keys {
			k.store(st, slots[i])
		}
	next:
		for _, cs := range cases {
			if cs.whole != nil {
				if matchMembers(cs.whole, buf) {
					return cs.next, true
				}
				continue
			}
			for i, m := range cs.ms {
				if !m.match(slots[i]) {
					continue next
				}
			}
			return cs.next, true
		}
		return 0, false
	}
}

func (m *keyMatcher) match(k []uint64) bool {
	switch {
	case m.any:
		return true
	case m.vs != nil:
		return matchMembers(m.vs, k)
	case m.lo != nil:
		return cmpWords(k, m.lo) >= 0 && cmpWords(k, m.hi) <= 0
	}
	for j := range k {
		if k[j]&m.msk[j] != m.value[j] {
			return false
		}
	}
	return true
}

// matchMembers reports whether key k (the slots of the value set's element)
// matches a member of vs.
func matchMembers(vs *ValueSet, k []uint64) bool {
	for _, mem := range vs.snapshot() {
		ok := true
		for j := range k {
			if k[j]&mem[1][j] != mem[0][j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// valueSetKeyset returns the value set a keyset names, or nil.
func (c *compiler) valueSetKeyset(e *env, x ast.Expr) *ValueSet {
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil
	}
	if o := c.info.Uses[id]; o != nil && o.Kind == check.ObjValueSet {
		vs, _ := e.obj(o.Decl).(*ValueSet)
		return vs
	}
	return nil
}

func (c *compiler) keysetMatcher(e *env, x ast.Expr, l *Layout) keyMatcher {
	w := func(x ast.Expr) []uint64 {
		v, ok := c.info.Consts[x]
		if !ok {
			c.fail(x.Position(), "select keysets must be constants")
		}
		ws := make([]uint64, l.Words)
		wordsFromBig(v, l.Width, ws)
		return ws
	}
	full := PrefixMask(l.Width, l.Width, l.Words)
	switch x := x.(type) {
	case *ast.Default, *ast.DontCare:
		return keyMatcher{any: true}
	case *ast.Mask:
		v, m := w(x.Value), w(x.Mask)
		for i := range v {
			v[i] &= m[i]
		}
		return keyMatcher{value: v, msk: m}
	case *ast.Range:
		return keyMatcher{lo: w(x.Lo), hi: w(x.Hi)}
	case *ast.Ident:
		if o := c.info.Uses[x]; o != nil && o.Kind == check.ObjValueSet {
			vs, _ := e.obj(o.Decl).(*ValueSet)
			if vs == nil {
				c.fail(x.Pos, "value_set %s not instantiated", x.Name)
			}
			if vs.Layout.Size != l.Size {
				c.fail(x.Pos, "value_set %s does not match a %d-bit select key", x.Name, l.Width)
			}
			return keyMatcher{vs: vs}
		}
	}
	return keyMatcher{value: w(x), msk: full}
}

func (c *compiler) valueSet(e *env, d *ast.ValueSetDecl) *ValueSet {
	vt := c.info.DeclTypes[d].(*check.ValueSet)
	l := c.layoutOf(vt.Elem)
	vs := &ValueSet{Name: cpName(d.Annos, d.Name, e.prefix), Annos: d.Annos, Size: vt.Size, Layout: l}
	c.prog.ValueSets = append(c.prog.ValueSets, vs)
	return vs
}

// ---- packet_in ----

// extractFn compiles packet.extract(hdr) or extract(hdr, bits).
func (c *compiler) extractFn(e *env, call *ast.Call) func(*State) {
	target := call.Args[0].Value
	var stackBase *lval
	var lv *lval
	if next := stackNext(target); next != nil {
		if _, isStack := check.Underlying(c.typeOf(next.X)).(*check.Stack); isStack {
			stackBase = c.lvalue(e, next.X)
		}
	}
	if _, dc := target.(*ast.DontCare); dc {
		// extract<T>(_): parse a T and throw it away
		t := c.info.Calls[call].TypeArgs["T"]
		if t == nil {
			c.fail(call.Pos, "extract into _ needs a type argument")
		}
		tl := c.layoutOf(t)
		lv = &lval{l: tl, static: true, off: c.alloc(tl.Size), hv: -1}
	} else {
		lv = c.lvalue(e, target)
	}
	l := lv.l
	if l.Kind != KHeader {
		c.fail(call.Pos, "extract needs a header")
	}
	var varbits func(*State) uint64
	if len(call.Args) == 2 {
		v := c.expr(e, call.Args[1].Value)
		varbits = v.u
	}
	tooShort := c.errorCode("PacketTooShort")
	oob := c.errorCode("StackOutOfBounds")
	invalidArg := c.errorCode("ParserInvalidArgument")
	headerTooShort := c.errorCode("HeaderTooShort")
	fixed, maxVarbit := 0, 0
	for _, f := range l.Fields {
		if f.Layout.Kind != KVarbit {
			fixed += check.Width(f.Layout.Type)
		} else {
			maxVarbit = f.Layout.Width
		}
	}
	fields := l.Fields
	return func(st *State) {
		if stackBase != nil {
			b := stackBase.address(st)
			if int(st.S[b]) >= stackBase.l.N {
				st.parserErr = oob
				return
			}
		}
		a := lv.address(st)
		if a < 0 {
			st.parserErr = oob
			return
		}
		size := fixed
		var vb int
		if varbits != nil {
			// checked in BMv2's order: a size that is not whole bytes, then
			// more bits than the varbit field holds, then the packet length
			bits := varbits(st)
			if bits%8 != 0 {
				st.parserErr = invalidArg
				return
			}
			if bits > uint64(maxVarbit) {
				st.parserErr = headerTooShort
				return
			}
			vb = int(bits)
			size += vb
		}
		if st.Off+size > len(st.Pkt)*8 {
			st.parserErr = tooShort
			return
		}
		off := st.Off
		for _, f := range fields {
			fl := f.Layout
			dst := a + f.Off
			switch {
			case fl.Kind == KVarbit:
				st.S[dst] = uint64(vb)
				ws := st.S[dst+1 : dst+1+fl.Words]
				clear(ws)
				if vb > 0 {
					readWide(st.Pkt, off, vb, ws[:words(vb)])
				}
				off += vb
			case fl.Kind == KStruct:
				fillFromPacket(st.Pkt, &off, fl, st.S[dst:dst+fl.Size])
			case fl.Words == 1:
				st.S[dst] = readBits(st.Pkt, off, fl.Width)
				off += fl.Width
			default:
				readWide(st.Pkt, off, fl.Width, st.S[dst:dst+fl.Words])
				off += fl.Width
			}
		}
		st.Off = off
		st.S[a] = 1
		if lv.union != nil {
			ub := lv.unionBase(st)
			for _, o := range lv.union {
				st.S[ub+o] = 0
			}
		}
		if stackBase != nil {
			st.S[stackBase.address(st)]++
		}
	}
}

// stackNext returns the "s.next" of an extract target "s.next" or, for a
// stack of header unions, "s.next.member"; both advance s's next index.
func stackNext(target ast.Expr) *ast.Member {
	m, ok := target.(*ast.Member)
	if !ok {
		return nil
	}
	if m.Name == "next" {
		return m
	}
	if inner, ok := m.X.(*ast.Member); ok && inner.Name == "next" {
		return inner
	}
	return nil
}

// lookaheadVal compiles packet.lookahead<T>().
func (c *compiler) lookaheadVal(t check.Type) (func(*State), val) {
	l := c.layoutOf(t)
	tooShort := c.errorCode("PacketTooShort")
	w := check.Width(t)
	check := func(st *State) {
		if st.Off+w > len(st.Pkt)*8 {
			st.parserErr = tooShort
		}
	}
	switch {
	case l.Kind == KScalar && l.Words == 1:
		return check, val{t: t, l: l, u: func(st *State) uint64 { return readBits(st.Pkt, st.Off, l.Width) }}
	case l.Kind == KScalar:
		return check, val{t: t, l: l, b: func(st *State) *big.Int {
			ws := make([]uint64, l.Words)
			readWide(st.Pkt, st.Off, l.Width, ws)
			return bigFromWords(ws)
		}}
	case l.Kind == KHeader || l.Kind == KStruct:
		return check, val{t: t, l: l, agg: func(st *State, dst []uint64) {
			off := st.Off
			fillFromPacket(st.Pkt, &off, l, dst)
		}}
	}
	c.fail(nilPos, "lookahead of %s is not supported", t)
	return nil, val{}
}

func fillFromPacket(p []byte, off *int, l *Layout, dst []uint64) {
	switch l.Kind {
	case KHeader:
		dst[0] = 1
		for _, f := range l.Fields {
			fillFromPacket(p, off, f.Layout, dst[f.Off:f.Off+f.Layout.Size])
		}
	case KStruct:
		for _, f := range l.Fields {
			fillFromPacket(p, off, f.Layout, dst[f.Off:f.Off+f.Layout.Size])
		}
	case KScalar:
		if l.Words == 1 {
			dst[0] = readBits(p, *off, l.Width)
		} else {
			readWide(p, *off, l.Width, dst)
		}
		*off += l.Width
	}
}

// ---- packet_out ----

// emitFn compiles packet.emit(x).
func (c *compiler) emitFn(e *env, x ast.Expr) func(*State) {
	v := c.expr(e, x)
	l := v.l
	if v.lv != nil && v.lv.static {
		off := v.lv.off
		if fl := flatten(l); fl != nil && l.Kind == KHeader {
			return func(st *State) {
				if st.S[off] != 0 {
					fl.write(&st.Out, st.S[off:off+l.Size])
				}
			}
		}
		return func(st *State) { emitLayout(&st.Out, l, st.S[off:off+l.Size]) }
	}
	n := l.Size
	tmp := c.alloc(n)
	store := c.storeFn(v, l)
	return func(st *State) {
		store(st, st.S[tmp:tmp+n])
		emitLayout(&st.Out, l, st.S[tmp:tmp+n])
	}
}

func emitLayout(bw *bitWriter, l *Layout, s []uint64) {
	switch l.Kind {
	case KHeader:
		if s[0] == 0 {
			return
		}
		for _, f := range l.Fields {
			emitFields(bw, f.Layout, s[f.Off:f.Off+f.Layout.Size])
		}
	case KStruct, KUnion, KTuple:
		for _, f := range l.Fields {
			emitLayout(bw, f.Layout, s[f.Off:f.Off+f.Layout.Size])
		}
	case KStack:
		for i := 0; i < l.N; i++ {
			o := 1 + i*l.Elem.Size
			emitLayout(bw, l.Elem, s[o:o+l.Elem.Size])
		}
	}
}

func emitFields(bw *bitWriter, l *Layout, s []uint64) {
	switch l.Kind {
	case KScalar:
		if l.Words == 1 {
			bw.write(s[0], l.Width)
		} else {
			bw.writeWide(s, l.Width)
		}
	case KVarbit:
		n := int(s[0])
		if n > 0 {
			bw.writeWide(s[1:1+words(n)], n)
		}
	case KStruct:
		for _, f := range l.Fields {
			emitFields(bw, f.Layout, s[f.Off:f.Off+f.Layout.Size])
		}
	}
}
