package interp

import (
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

func (c *compiler) typeOf(e ast.Expr) check.Type {
	t, ok := c.info.Types[e]
	if !ok {
		c.fail(e.Position(), "internal: expression has no type")
	}
	return t
}

// constVal builds a constant scalar of layout l.
func (c *compiler) constVal(t check.Type, v *big.Int) val {
	l := c.layoutOf(t)
	out := val{t: t, l: l, cst: v}
	w := l.Width
	if l.Kind != KScalar {
		w = 64
	}
	if w > 64 {
		u := modBig(v, w)
		out.b = func(*State) *big.Int { return u }
		return out
	}
	var x uint64
	if v.Sign() < 0 {
		x = uint64(v.Int64()) & mask(w)
	} else {
		x = new(big.Int).And(v, new(big.Int).SetUint64(mask(w))).Uint64()
	}
	out.u = func(*State) uint64 { return x }
	return out
}

// expr compiles an expression.
func (c *compiler) expr(e *env, x ast.Expr) val {
	t := c.typeOf(x)
	if v, ok := c.info.Consts[x]; ok {
		switch check.Underlying(t).(type) {
		case *check.Bits, *check.Bool, *check.Enum, *check.ErrorT, *check.InfInt:
			return c.constVal(t, v)
		}
	}
	switch x := x.(type) {
	case *ast.Ident:
		return c.ident(e, x, t)
	case *ast.Member:
		return c.member(e, x, t)
	case *ast.Index:
		return c.load(c.lvalue(e, x))
	case *ast.Slice:
		return c.slice(e, x, t)
	case *ast.Unary:
		return c.unary(e, x, t)
	case *ast.Binary:
		return c.binary(e, x, t)
	case *ast.Ternary:
		return c.ternary(e, x, t)
	case *ast.Cast:
		return c.cast(e, c.expr(e, x.X), t)
	case *ast.ListExpr:
		return c.list(e, x, t)
	case *ast.StructExpr:
		return c.structExpr(e, x, t)
	case *ast.Call:
		return c.callExpr(e, x)
	case *ast.StringLit:
		return val{t: t, l: &Layout{Kind: KNone}}
	}
	c.fail(x.Position(), "unsupported expression")
	return val{}
}

func (c *compiler) ident(e *env, x *ast.Ident, t check.Type) val {
	o := c.info.Uses[x]
	if o == nil {
		c.fail(x.Pos, "internal: unresolved %s", x.Name)
	}
	if v, ok := e.constant(o.Decl); ok {
		return c.constVal(t, v)
	}
	switch o.Kind {
	case check.ObjVar, check.ObjParam, check.ObjConst:
		return c.load(c.lvalue(e, x))
	}
	c.fail(x.Pos, "%s cannot be used as a value here", x.Name)
	return val{}
}

// load turns storage into a value.
func (c *compiler) load(lv *lval) val {
	l := lv.l
	v := val{t: l.Type, l: l, lv: lv}
	if lv.slice != nil {
		return c.loadSlice(lv)
	}
	switch {
	case l.Kind == KScalar && l.Words == 1:
		if lv.static {
			off := lv.off
			v.u = func(st *State) uint64 { return st.S[off] }
		} else {
			addr := lv.addr
			v.u = func(st *State) uint64 {
				a := addr(st)
				if a < 0 {
					return 0
				}
				return st.S[a]
			}
		}
	case l.Kind == KScalar:
		n := l.Words
		v.b = func(st *State) *big.Int {
			a := lv.address(st)
			if a < 0 {
				return new(big.Int)
			}
			return bigFromWords(st.S[a : a+n])
		}
	default:
		n := l.Size
		v.agg = func(st *State, dst []uint64) {
			a := lv.address(st)
			if a < 0 {
				clear(dst)
				return
			}
			copy(dst, st.S[a:a+n])
		}
	}
	return v
}

func (c *compiler) loadSlice(lv *lval) val {
	s := lv.slice
	w := s.hi - s.lo + 1
	base := c.load(s.base)
	v := val{t: lv.l.Type, l: lv.l, lv: lv}
	if base.u != nil {
		u, lo, m := base.u, uint(s.lo), mask(w)
		v.u = func(st *State) uint64 { return u(st) >> lo & m }
		return v
	}
	b := base.b
	lo := uint(s.lo)
	if w <= 64 {
		m := new(big.Int).SetUint64(mask(w))
		v.u = func(st *State) uint64 { return new(big.Int).And(new(big.Int).Rsh(b(st), lo), m).Uint64() }
		return v
	}
	v.b = func(st *State) *big.Int { return modBig(new(big.Int).Rsh(b(st), lo), w) }
	return v
}

func (c *compiler) member(e *env, x *ast.Member, t check.Type) val {
	xt := c.typeOf(x.X)
	switch xt.(type) {
	case *check.ApplyResult:
		call, ok := x.X.(*ast.Call)
		if !ok {
			c.fail(x.Pos, "unsupported use of a table apply result")
		}
		apply := c.tableApplyCall(e, call)
		switch x.Name {
		case "hit":
			return val{t: t, l: c.layoutOf(t), u: func(st *State) uint64 {
				if h, _ := apply(st); h {
					return 1
				}
				return 0
			}}
		case "miss":
			return val{t: t, l: c.layoutOf(t), u: func(st *State) uint64 {
				if h, _ := apply(st); h {
					return 0
				}
				return 1
			}}
		}
		c.fail(x.Pos, "action_run can only be used in a switch statement")
	}
	if !isStorage(x.X) {
		// a field of a computed value, e.g. pk.lookahead<h_t>().f
		base, pre := c.materialize(c.expr(e, x.X))
		return c.withPre(c.load(c.memberLval(base, x)), pre)
	}
	if _, ok := check.Underlying(xt).(*check.Stack); ok && x.Name == "lastIndex" {
		lv := c.lvalue(e, x.X)
		return val{t: t, l: c.layoutOf(t), u: func(s *State) uint64 {
			return (s.S[lv.address(s)] - 1) & 0xffffffff
		}}
	}
	return c.load(c.lvalue(e, x))
}

func (c *compiler) slice(e *env, x *ast.Slice, t check.Type) val {
	hi := int(c.info.Consts[x.Hi].Int64())
	lo := int(c.info.Consts[x.Lo].Int64())
	base := c.expr(e, x.X)
	l := c.layoutOf(t)
	w := hi - lo + 1
	if base.u != nil {
		u, ul, m := base.u, uint(lo), mask(w)
		return val{t: t, l: l, u: func(st *State) uint64 { return u(st) >> ul & m }}
	}
	b := base.b
	if w <= 64 {
		m := new(big.Int).SetUint64(mask(w))
		return val{t: t, l: l, u: func(st *State) uint64 { return new(big.Int).And(new(big.Int).Rsh(b(st), uint(lo)), m).Uint64() }}
	}
	return val{t: t, l: l, b: func(st *State) *big.Int { return modBig(new(big.Int).Rsh(b(st), uint(lo)), w) }}
}

func (c *compiler) ternary(e *env, x *ast.Ternary, t check.Type) val {
	cond := c.cond(e, x.Cond)
	a, b := c.expr(e, x.Then), c.expr(e, x.Else)
	l := c.layoutOf(t)
	out := val{t: t, l: l}
	switch {
	case l.Kind == KScalar && l.Width <= 64:
		au, bu := c.scalarU(a, l), c.scalarU(b, l)
		out.u = func(st *State) uint64 {
			if cond(st) {
				return au(st)
			}
			return bu(st)
		}
	case l.Kind == KScalar:
		ab, bb := a.toBig(), b.toBig()
		out.b = func(st *State) *big.Int {
			if cond(st) {
				return ab(st)
			}
			return bb(st)
		}
	default:
		sa, sb := c.storeFn(a, l), c.storeFn(b, l)
		out.agg = func(st *State, dst []uint64) {
			if cond(st) {
				sa(st, dst)
			} else {
				sb(st, dst)
			}
		}
	}
	return out
}

// scalarU returns a uint64 function for a scalar val (converting constants of other layouts).
func (c *compiler) scalarU(v val, l *Layout) func(*State) uint64 {
	if v.u != nil {
		return v.u
	}
	if v.b != nil {
		b := v.b
		m := new(big.Int).SetUint64(mask(l.Width))
		return func(st *State) uint64 { return new(big.Int).And(b(st), m).Uint64() }
	}
	c.fail(nilPos, "internal: not a scalar")
	return nil
}

// cond compiles a boolean expression.
func (c *compiler) cond(e *env, x ast.Expr) func(*State) bool {
	v := c.expr(e, x)
	u := v.u
	if u == nil {
		c.fail(x.Position(), "condition is not a bool")
	}
	return func(st *State) bool { return u(st) != 0 }
}

func (c *compiler) list(e *env, x *ast.ListExpr, t check.Type) val {
	l := c.layoutOf(t)
	if _, ok := t.(*check.List); ok {
		// an untyped list (e.g. hash or digest data): lay it out as a tuple
		var ts []check.Type
		for _, el := range x.Elems {
			ts = append(ts, c.typeOf(el))
		}
		tt := &check.Tuple{Elems: ts}
		c.info.Types[x] = tt
		l = c.layoutOf(tt)
		t = tt
	}
	var fields []*FieldLayout
	hdr := false
	switch l.Kind {
	case KStruct, KTuple:
		fields = l.Fields
	case KHeader:
		fields = l.Fields
		hdr = true
	default:
		c.fail(x.Pos, "cannot build a %s from a list", t)
	}
	if len(fields) != len(x.Elems) {
		c.fail(x.Pos, "list has %d elements, %s has %d fields", len(x.Elems), t, len(fields))
	}
	stores := make([]func(*State, []uint64), len(fields))
	for i, f := range fields {
		stores[i] = c.storeFn(c.expr(e, x.Elems[i]), f.Layout)
	}
	return val{t: t, l: l, agg: func(st *State, dst []uint64) {
		if hdr {
			dst[0] = 1
		}
		for i, f := range fields {
			stores[i](st, dst[f.Off:f.Off+f.Layout.Size])
		}
	}}
}

func (c *compiler) structExpr(e *env, x *ast.StructExpr, t check.Type) val {
	l := c.layoutOf(t)
	if l.Kind != KStruct && l.Kind != KHeader {
		c.fail(x.Pos, "struct initializer needs a struct or header type")
	}
	type part struct {
		f     *FieldLayout
		store func(*State, []uint64)
	}
	var parts []part
	for i, n := range x.Names {
		f := l.Field(n)
		if f == nil {
			c.fail(x.Pos, "no field %s", n)
		}
		parts = append(parts, part{f, c.storeFn(c.expr(e, x.Values[i]), f.Layout)})
	}
	hdr := l.Kind == KHeader
	return val{t: t, l: l, agg: func(st *State, dst []uint64) {
		if hdr {
			dst[0] = 1
		}
		for _, p := range parts {
			p.store(st, dst[p.f.Off:p.f.Off+p.f.Layout.Size])
		}
	}}
}

// storeFn returns a function writing v (converted to layout l) into dst slots.
func (c *compiler) storeFn(v val, l *Layout) func(*State, []uint64) {
	switch {
	case l.Kind == KScalar && l.Words == 1:
		u := c.scalarU(v, l)
		m := mask(l.Width)
		return func(st *State, dst []uint64) { dst[0] = u(st) & m }
	case l.Kind == KScalar:
		if lv := v.lv; lv != nil && lv.slice == nil && v.l == lv.l && v.l.Kind == KScalar &&
			v.l.Width == l.Width && v.l.Signed == l.Signed && v.l.Words == l.Words {
			// storage of the same type: its words as they are (no big.Int)
			n := l.Words
			return func(st *State, dst []uint64) {
				a := lv.address(st)
				if a < 0 {
					clear(dst)
					return
				}
				copy(dst, st.S[a:a+n])
			}
		}
		b := v.toBig()
		w := l.Width
		return func(st *State, dst []uint64) { wordsFromBig(b(st), w, dst) }
	case v.agg != nil:
		return v.agg
	}
	c.fail(nilPos, "internal: cannot store value of type %s", v.t)
	return nil
}

// isStorage reports whether x names storage (as opposed to a computed value).
func isStorage(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return true
	case *ast.Member:
		return isStorage(x.X)
	case *ast.Index:
		return isStorage(x.X)
	case *ast.Slice:
		return isStorage(x.X)
	}
	return false
}

// materialize stores a computed aggregate in scratch slots.
func (c *compiler) materialize(v val) (*lval, func(*State)) {
	l := v.l
	off := c.alloc(l.Size)
	store := c.storeFn(v, l)
	return &lval{l: l, static: true, off: off, hv: -1}, func(st *State) { store(st, st.S[off:off+l.Size]) }
}
