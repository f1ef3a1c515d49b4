package interp

import (
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// lvalue compiles an expression denoting storage. The slots it denotes
// are recorded as touched by the block being compiled (see touches.go).
func (c *compiler) lvalue(e *env, x ast.Expr) *lval {
	outer := c.lvDepth == 0
	c.lvDepth++
	lv := c.lvalueOf(e, x)
	c.lvDepth--
	if outer {
		c.touchLval(e, x, lv)
	}
	return lv
}

func (c *compiler) lvalueOf(e *env, x ast.Expr) *lval {
	switch x := x.(type) {
	case *ast.Ident:
		o := c.info.Uses[x]
		if o == nil {
			c.fail(x.Pos, "internal: unresolved %s", x.Name)
		}
		off, ok := e.slot(o.Decl)
		if !ok {
			c.fail(x.Pos, "%s has no storage here", x.Name)
		}
		t := c.info.DeclTypes[o.Decl]
		if t == nil {
			t = c.typeOf(x)
		}
		return &lval{l: c.layoutOf(t), static: true, off: off, hv: -1}
	case *ast.Member:
		base := c.lvalue(e, x.X)
		return c.memberLval(base, x)
	case *ast.Index:
		base := c.lvalue(e, x.X)
		bl := base.l
		if bl.Kind == KTuple {
			i := int(c.info.Consts[x.Index].Int64())
			return c.fieldLval(base, bl.Fields[i], false)
		}
		if bl.Kind != KStack {
			c.fail(x.Pos, "cannot index")
		}
		if v, ok := c.info.Consts[x.Index]; ok {
			return c.stackElem(base, func(*State) int { return int(v.Int64()) }, int(v.Int64()))
		}
		depth := c.lvDepth
		c.lvDepth = 0 // the index is an access of its own
		idx := c.expr(e, x.Index)
		c.lvDepth = depth
		iu := c.scalarU(idx, idx.l)
		return c.stackElem(base, func(st *State) int {
			v := iu(st)
			if v > 1<<20 {
				return -1
			}
			return int(v)
		}, -1)
	case *ast.Slice:
		base := c.lvalue(e, x.X)
		hi := int(c.info.Consts[x.Hi].Int64())
		lo := int(c.info.Consts[x.Lo].Int64())
		return &lval{l: c.layoutOf(&check.Bits{W: hi - lo + 1}), hv: -1, slice: &sliceInfo{base: base, hi: hi, lo: lo}}
	}
	c.fail(x.Position(), "expression is not assignable")
	return nil
}

func (c *compiler) memberLval(base *lval, x *ast.Member) *lval {
	bl := base.l
	if bl.Kind == KStack {
		switch x.Name {
		case "next":
			return c.stackElem(base, func(st *State) int { return int(st.S[base.address(st)]) }, -1)
		case "last":
			return c.stackElem(base, func(st *State) int { return int(st.S[base.address(st)]) - 1 }, -1)
		}
		c.fail(x.Pos, "unsupported stack member %s", x.Name)
	}
	f := bl.Field(x.Name)
	if f == nil {
		c.fail(x.Pos, "no field %s", x.Name)
	}
	return c.fieldLval(base, f, bl.Kind == KHeader)
}

func (c *compiler) fieldLval(base *lval, f *FieldLayout, inHeader bool) *lval {
	lv := &lval{l: f.Layout, hv: base.hv, hvDyn: base.hvDyn}
	if base.static {
		lv.static, lv.off = true, base.off+f.Off
		if inHeader {
			lv.hv, lv.hvDyn = base.off, nil
		}
	} else {
		ba, fo := base.addr, f.Off
		lv.addr = func(st *State) int {
			a := ba(st)
			if a < 0 {
				return -1
			}
			return a + fo
		}
		if inHeader {
			lv.hvDyn = ba
		}
	}
	if base.l.Kind == KUnion && f.Layout.Kind == KHeader {
		for _, s := range base.l.Fields {
			if s != f {
				lv.union = append(lv.union, s.Off)
			}
		}
		lv.unionBase = base.address
	}
	return lv
}

// stackElem addresses element idx(st) of a stack; static >= 0 when the index is constant.
func (c *compiler) stackElem(base *lval, idx func(*State) int, static int) *lval {
	el := base.l.Elem
	n := base.l.N
	if static >= 0 && base.static {
		return &lval{l: el, static: true, off: base.off + 1 + static*el.Size, hv: -1}
	}
	addr := func(st *State) int {
		b := base.address(st)
		if b < 0 {
			return -1
		}
		i := idx(st)
		if i < 0 || i >= n {
			return -1
		}
		return b + 1 + i*el.Size
	}
	return &lval{l: el, addr: addr, hv: -1}
}

// assign compiles "lv = v".
func (c *compiler) assign(lv *lval, v val) func(*State) {
	l := lv.l
	if lv.slice != nil {
		return c.assignSlice(lv, v)
	}
	v = c.widenSigned(v, l)
	switch {
	case l.Kind == KScalar && l.Words == 1:
		u, m := c.scalarU(v, l), mask(l.Width)
		if lv.static && lv.hv < 0 && lv.hvDyn == nil {
			off := lv.off
			return func(st *State) { st.S[off] = u(st) & m }
		}
		if lv.static && lv.hvDyn == nil {
			off, hv := lv.off, lv.hv
			return func(st *State) {
				x := u(st) & m
				if st.S[hv] != 0 {
					st.S[off] = x
				}
			}
		}
		return func(st *State) {
			x := u(st) & m
			a := lv.address(st)
			if a < 0 {
				return
			}
			if h := lv.validSlot(st); h >= 0 && st.S[h] == 0 {
				return
			}
			st.S[a] = x
		}
	case l.Kind == KScalar:
		store := c.storeFn(v, l)
		tmp := make([]uint64, l.Words)
		return func(st *State) {
			store(st, tmp)
			a := lv.address(st)
			if a < 0 {
				return
			}
			if h := lv.validSlot(st); h >= 0 && st.S[h] == 0 {
				return
			}
			copy(st.S[a:a+l.Words], tmp)
		}
	}
	// aggregates go through a scratch area so that overlapping sources are safe
	n := l.Size
	tmp := c.alloc(n)
	store := c.storeFn(v, l)
	return func(st *State) {
		store(st, st.S[tmp:tmp+n])
		a := lv.address(st)
		if a < 0 {
			return
		}
		copy(st.S[a:a+n], st.S[tmp:tmp+n])
		if lv.union != nil && l.Kind == KHeader && st.S[a] != 0 {
			ub := lv.unionBase(st)
			for _, o := range lv.union {
				st.S[ub+o] = 0
			}
		}
	}
}

func (c *compiler) assignSlice(lv *lval, v val) func(*State) {
	s := lv.slice
	w := s.hi - s.lo + 1
	base := c.load(s.base)
	if base.u != nil {
		u := c.scalarU(v, lv.l)
		bu := base.u
		m := mask(w) << uint(s.lo)
		lo := uint(s.lo)
		write := c.assign(s.base, val{t: s.base.l.Type, l: s.base.l, u: func(st *State) uint64 {
			return bu(st)&^m | (u(st)<<lo)&m
		}})
		return write
	}
	vb := v.toBig()
	bb := base.b
	lo := uint(s.lo)
	m := new(big.Int).Lsh(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1)), lo)
	return c.assign(s.base, val{t: s.base.l.Type, l: s.base.l, b: func(st *State) *big.Int {
		r := new(big.Int).AndNot(bb(st), m)
		return r.Or(r, new(big.Int).And(new(big.Int).Lsh(modBig(vb(st), w), lo), m))
	}})
}

// widenSigned sign-extends a narrower int<W> stored into a wider int<W'>:
// the checker accepts such widening implicitly (as p4c does), and the value
// must be kept, not its bit pattern.
func (c *compiler) widenSigned(v val, l *Layout) val {
	if v.l == nil || v.l.Kind != KScalar || !v.l.Signed || l.Kind != KScalar || !l.Signed || v.l.Width >= l.Width {
		return v
	}
	return c.cast(nil, v, &check.Bits{W: l.Width, Signed: true})
}
