package interp

import (
	"math/big"
	"math/bits"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

var nilPos token.Pos

func (c *compiler) unary(e *env, x *ast.Unary, t check.Type) val {
	a := c.expr(e, x.X)
	l := c.layoutOf(t)
	out := val{t: t, l: l}
	if l.Width > 64 {
		b, w := a.toBig(), l.Width
		switch x.Op {
		case "-":
			out.b = func(st *State) *big.Int { return modBig(new(big.Int).Neg(b(st)), w) }
		case "~":
			out.b = func(st *State) *big.Int { return modBig(new(big.Int).Not(b(st)), w) }
		}
		return out
	}
	u, m := a.u, mask(l.Width)
	switch x.Op {
	case "-":
		out.u = func(st *State) uint64 { return -u(st) & m }
	case "~":
		out.u = func(st *State) uint64 { return ^u(st) & m }
	case "!":
		out.u = func(st *State) uint64 { return u(st) ^ 1 }
	}
	return out
}

func (c *compiler) binary(e *env, x *ast.Binary, t check.Type) val {
	switch x.Op {
	case "&&", "||":
		a, b := c.cond(e, x.X), c.cond(e, x.Y)
		if x.Op == "&&" {
			return val{t: t, l: c.layoutOf(t), u: func(st *State) uint64 {
				if a(st) && b(st) {
					return 1
				}
				return 0
			}}
		}
		return val{t: t, l: c.layoutOf(t), u: func(st *State) uint64 {
			if a(st) || b(st) {
				return 1
			}
			return 0
		}}
	}
	a, b := c.expr(e, x.X), c.expr(e, x.Y)
	switch x.Op {
	case "==", "!=":
		return c.equality(a, b, x.Op == "!=", t)
	case "<<", ">>":
		return c.shift(a, b, x.Op, t)
	case "++":
		return c.concat(a, b, t)
	}
	// operands share the operand type; comparisons produce bool
	ot := c.typeOf(x.X)
	ol := c.layoutOf(ot)
	w, signed := ol.Width, ol.Signed
	if w > 64 || a.u == nil || b.u == nil {
		return c.wideBinary(a, b, x.Op, ol, t)
	}
	au, bu, m := a.u, b.u, mask(w)
	r := val{t: t, l: c.layoutOf(t)}
	b2u := func(f func(*State) bool) func(*State) uint64 {
		return func(st *State) uint64 {
			if f(st) {
				return 1
			}
			return 0
		}
	}
	switch x.Op {
	case "+":
		r.u = func(st *State) uint64 { return (au(st) + bu(st)) & m }
	case "-":
		r.u = func(st *State) uint64 { return (au(st) - bu(st)) & m }
	case "*":
		r.u = func(st *State) uint64 { return (au(st) * bu(st)) & m }
	case "/":
		r.u = func(st *State) uint64 {
			d := bu(st)
			if d == 0 {
				return 0
			}
			return au(st) / d
		}
	case "%":
		r.u = func(st *State) uint64 {
			d := bu(st)
			if d == 0 {
				return 0
			}
			return au(st) % d
		}
	case "&":
		r.u = func(st *State) uint64 { return au(st) & bu(st) }
	case "|":
		r.u = func(st *State) uint64 { return au(st) | bu(st) }
	case "^":
		r.u = func(st *State) uint64 { return au(st) ^ bu(st) }
	case "|+|":
		if signed {
			r.u = func(st *State) uint64 { return satSigned(sext(au(st), w), sext(bu(st), w), false, w) }
		} else {
			r.u = func(st *State) uint64 {
				s, carry := bits.Add64(au(st), bu(st), 0)
				if carry != 0 || s > m {
					return m
				}
				return s
			}
		}
	case "|-|":
		if signed {
			r.u = func(st *State) uint64 { return satSigned(sext(au(st), w), sext(bu(st), w), true, w) }
		} else {
			r.u = func(st *State) uint64 {
				x, y := au(st), bu(st)
				if y > x {
					return 0
				}
				return x - y
			}
		}
	case "<", ">", "<=", ">=":
		op := x.Op
		var less func(st *State, p, q uint64) bool
		if signed {
			less = func(_ *State, p, q uint64) bool { return sext(p, w) < sext(q, w) }
		} else {
			less = func(_ *State, p, q uint64) bool { return p < q }
		}
		switch op {
		case "<":
			r.u = b2u(func(st *State) bool { return less(st, au(st), bu(st)) })
		case ">":
			r.u = b2u(func(st *State) bool { return less(st, bu(st), au(st)) })
		case "<=":
			r.u = b2u(func(st *State) bool { return !less(st, bu(st), au(st)) })
		case ">=":
			r.u = b2u(func(st *State) bool { return !less(st, au(st), bu(st)) })
		}
	default:
		c.fail(x.Pos, "unsupported operator %s", x.Op)
	}
	return r
}

// satSigned computes a saturating signed add or subtract in w bits.
func satSigned(a, b int64, sub bool, w int) uint64 {
	hi := new(big.Int).Lsh(big.NewInt(1), uint(w-1))
	lo := new(big.Int).Neg(hi)
	hi.Sub(hi, big.NewInt(1))
	r := big.NewInt(a)
	if sub {
		r.Sub(r, big.NewInt(b))
	} else {
		r.Add(r, big.NewInt(b))
	}
	if r.Cmp(hi) > 0 {
		r = hi
	} else if r.Cmp(lo) < 0 {
		r = lo
	}
	return uint64(r.Int64()) & mask(w)
}

func (c *compiler) wideBinary(a, b val, op string, ol *Layout, t check.Type) val {
	ab, bb := a.toBig(), b.toBig()
	w, signed := ol.Width, ol.Signed
	r := val{t: t, l: c.layoutOf(t)}
	sv := func(x *big.Int) *big.Int {
		if signed {
			return signedBig(x, w)
		}
		return x
	}
	arith := func(f func(x, y *big.Int) *big.Int) {
		r.b = func(st *State) *big.Int { return modBig(f(ab(st), bb(st)), w) }
	}
	cmp := func(f func(int) bool) {
		r.u = func(st *State) uint64 {
			if f(sv(ab(st)).Cmp(sv(bb(st)))) {
				return 1
			}
			return 0
		}
	}
	switch op {
	case "+":
		arith(func(x, y *big.Int) *big.Int { return new(big.Int).Add(x, y) })
	case "-":
		arith(func(x, y *big.Int) *big.Int { return new(big.Int).Sub(x, y) })
	case "*":
		arith(func(x, y *big.Int) *big.Int { return new(big.Int).Mul(x, y) })
	case "/":
		arith(func(x, y *big.Int) *big.Int {
			if y.Sign() == 0 {
				return new(big.Int)
			}
			return new(big.Int).Quo(x, y)
		})
	case "%":
		arith(func(x, y *big.Int) *big.Int {
			if y.Sign() == 0 {
				return new(big.Int)
			}
			return new(big.Int).Rem(x, y)
		})
	case "&":
		arith(func(x, y *big.Int) *big.Int { return new(big.Int).And(x, y) })
	case "|":
		arith(func(x, y *big.Int) *big.Int { return new(big.Int).Or(x, y) })
	case "^":
		arith(func(x, y *big.Int) *big.Int { return new(big.Int).Xor(x, y) })
	case "|+|", "|-|":
		lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(w))
		if signed {
			hi.Rsh(hi, 1)
			lo.Neg(hi)
		}
		hi.Sub(hi, big.NewInt(1))
		r.b = func(st *State) *big.Int {
			x, y := sv(ab(st)), sv(bb(st))
			s := new(big.Int)
			if op == "|+|" {
				s.Add(x, y)
			} else {
				s.Sub(x, y)
			}
			if s.Cmp(hi) > 0 {
				s.Set(hi)
			} else if s.Cmp(lo) < 0 {
				s.Set(lo)
			}
			return modBig(s, w)
		}
	case "<":
		cmp(func(k int) bool { return k < 0 })
	case ">":
		cmp(func(k int) bool { return k > 0 })
	case "<=":
		cmp(func(k int) bool { return k <= 0 })
	case ">=":
		cmp(func(k int) bool { return k >= 0 })
	default:
		c.fail(nilPos, "unsupported operator %s", op)
	}
	return r
}

func (c *compiler) shift(a, b val, op string, t check.Type) val {
	l := c.layoutOf(t)
	w, signed := l.Width, l.Signed
	amt := c.shiftAmount(b)
	r := val{t: t, l: l}
	if w > 64 || a.u == nil {
		ab := a.toBig()
		r.b = func(st *State) *big.Int {
			n := amt(st)
			if n > uint64(w) {
				n = uint64(w)
			}
			x := ab(st)
			if op == "<<" {
				return modBig(new(big.Int).Lsh(x, uint(n)), w)
			}
			if signed {
				x = signedBig(x, w)
			}
			return modBig(new(big.Int).Rsh(x, uint(n)), w)
		}
		return r
	}
	au, m := a.u, mask(w)
	switch {
	case op == "<<":
		r.u = func(st *State) uint64 {
			n := amt(st)
			if n >= uint64(w) {
				return 0
			}
			return au(st) << n & m
		}
	case signed:
		r.u = func(st *State) uint64 {
			n := amt(st)
			if n > 63 {
				n = 63
			}
			return uint64(sext(au(st), w)>>n) & m
		}
	default:
		r.u = func(st *State) uint64 {
			n := amt(st)
			if n >= uint64(w) {
				return 0
			}
			return au(st) >> n
		}
	}
	return r
}

// shiftAmount returns the shift amount, saturated to 1<<16.
func (c *compiler) shiftAmount(b val) func(*State) uint64 {
	if b.u != nil {
		return b.u
	}
	bb := b.toBig()
	return func(st *State) uint64 {
		x := bb(st)
		if x.BitLen() > 16 {
			return 1 << 16
		}
		return x.Uint64()
	}
}

func (c *compiler) concat(a, b val, t check.Type) val {
	l := c.layoutOf(t)
	wb := b.l.Width
	if l.Width <= 64 {
		au, bu := a.u, b.u
		return val{t: t, l: l, u: func(st *State) uint64 { return au(st)<<uint(wb) | bu(st) }}
	}
	ab, bb := a.toBig(), b.toBig()
	return val{t: t, l: l, b: func(st *State) *big.Int {
		x := new(big.Int).Lsh(ab(st), uint(wb))
		return x.Or(x, bb(st))
	}}
}

func (c *compiler) equality(a, b val, neg bool, t check.Type) val {
	r := val{t: t, l: c.layoutOf(t)}
	res := func(eq bool) uint64 {
		if eq != neg {
			return 1
		}
		return 0
	}
	switch {
	case a.u != nil && b.u != nil:
		au, bu := a.u, b.u
		r.u = func(st *State) uint64 { return res(au(st) == bu(st)) }
	case a.l.Kind == KScalar || a.b != nil || b.b != nil:
		ab, bb := a.toBig(), b.toBig()
		r.u = func(st *State) uint64 { return res(ab(st).Cmp(bb(st)) == 0) }
	default:
		l := a.l
		sa, sb := c.storeFn(a, l), c.storeFn(b, l)
		n := l.Size
		r.u = func(st *State) uint64 {
			x, y := make([]uint64, n), make([]uint64, n)
			sa(st, x)
			sb(st, y)
			return res(equalSlots(l, x, y))
		}
	}
	return r
}

// equalSlots compares two values of layout l; invalid headers are equal to each other.
func equalSlots(l *Layout, x, y []uint64) bool {
	switch l.Kind {
	case KHeader:
		if x[0] == 0 && y[0] == 0 {
			return true
		}
		if x[0] != y[0] {
			return false
		}
		for _, f := range l.Fields {
			if !equalSlots(f.Layout, x[f.Off:f.Off+f.Layout.Size], y[f.Off:f.Off+f.Layout.Size]) {
				return false
			}
		}
		return true
	case KStruct, KUnion, KTuple:
		for _, f := range l.Fields {
			if !equalSlots(f.Layout, x[f.Off:f.Off+f.Layout.Size], y[f.Off:f.Off+f.Layout.Size]) {
				return false
			}
		}
		return true
	case KStack:
		for i := 0; i < l.N; i++ {
			o := 1 + i*l.Elem.Size
			if !equalSlots(l.Elem, x[o:o+l.Elem.Size], y[o:o+l.Elem.Size]) {
				return false
			}
		}
		return true
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func (c *compiler) cast(e *env, a val, t check.Type) val {
	l := c.layoutOf(t)
	if l.Kind != KScalar {
		return val{t: t, l: l, agg: c.storeFn(a, l)}
	}
	from := a.l
	w := l.Width
	srcSigned := from != nil && from.Kind == KScalar && from.Signed
	fw := 64
	if from != nil && from.Kind == KScalar {
		fw = from.Width
	}
	if _, ok := check.Underlying(t).(*check.Bool); ok {
		u := a.u
		return val{t: t, l: l, u: func(st *State) uint64 { return u(st) & 1 }}
	}
	if w <= 64 && a.u != nil {
		u, m := a.u, mask(w)
		if srcSigned && w > fw {
			return val{t: t, l: l, u: func(st *State) uint64 { return uint64(sext(u(st), fw)) & m }}
		}
		return val{t: t, l: l, u: func(st *State) uint64 { return u(st) & m }}
	}
	b := a.toBig()
	conv := func(st *State) *big.Int {
		x := b(st)
		if srcSigned {
			x = signedBig(x, fw)
		}
		return modBig(x, w)
	}
	if w <= 64 {
		return val{t: t, l: l, u: func(st *State) uint64 { return conv(st).Uint64() }}
	}
	return val{t: t, l: l, b: conv}
}
