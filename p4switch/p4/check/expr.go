package check

import (
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

var one = big.NewInt(1)

// truncate wraps v to the width of t (two's complement for int<W>).
func truncate(v *big.Int, t Type) *big.Int {
	switch u := Underlying(t).(type) {
	case *Bits:
		m := new(big.Int).Lsh(one, uint(u.W))
		r := new(big.Int).Mod(v, m)
		if u.Signed && u.W > 0 && r.Bit(u.W-1) == 1 {
			r.Sub(r, m)
		}
		return r
	case *Bool:
		if v.Sign() != 0 {
			return big.NewInt(1)
		}
		return new(big.Int)
	case *Enum:
		if u.Base != nil {
			return truncate(v, u.Base)
		}
	}
	return v
}

// Truncate is truncate for later phases.
func Truncate(v *big.Int, t Type) *big.Int { return truncate(v, t) }

func isInt(t Type) bool   { _, ok := t.(*InfInt); return ok }
func bitsOf(t Type) *Bits { b, _ := Underlying(t).(*Bits); return b }

// coerce gives an unsized constant expression the type to.
func (c *checker) coerce(e ast.Expr, from, to Type) Type {
	if !isInt(from) {
		return from
	}
	switch u := Underlying(to).(type) {
	case *Bits:
		c.info.Types[e] = to
		if v, ok := c.info.Consts[e]; ok {
			c.info.Consts[e] = truncate(v, u)
		}
		return to
	case *Enum:
		// a constant compared with or selected against a serializable enum
		if u.Base != nil {
			c.info.Types[e] = to
			if v, ok := c.info.Consts[e]; ok {
				c.info.Consts[e] = truncate(v, u.Base)
			}
			return to
		}
	case *InfInt:
		return from
	}
	return from
}

// assignable reports an error unless a value of type from can be stored in to.
func (c *checker) assignable(pos token.Pos, to, from Type, e ast.Expr) {
	from = c.coerce(e, from, to)
	if !c.compatible(to, from, e) {
		c.errorf(pos, "cannot use a value of type %s as %s", from, to)
	}
}

func (c *checker) compatible(to, from Type, e ast.Expr) bool {
	if _, ok := to.(*TypeVar); ok {
		return true
	}
	if _, ok := from.(*TypeVar); ok {
		return true
	}
	if _, ok := from.(*DontCare); ok {
		return true
	}
	if Same(to, from) {
		return true
	}
	ut, uf := Underlying(to), Underlying(from)
	switch t := ut.(type) {
	case *Bits:
		// p4c accepts widening between bit<W> types of the same signedness
		if f, ok := uf.(*Bits); ok && f.Signed == t.Signed && f.W < t.W {
			return true
		}
		// a serializable enum converts implicitly to its underlying type
		if f, ok := uf.(*Enum); ok && f.Base != nil && *f.Base == *t {
			return true
		}
	case *Struct:
		switch f := uf.(type) {
		case *Struct:
			return t.Decl == f.Decl
		case *List:
			if len(f.Elems) != len(t.Fields) {
				return false
			}
			l, _ := e.(*ast.ListExpr)
			for i, fld := range t.Fields {
				var sub ast.Expr
				if l != nil {
					sub = l.Elems[i]
					f.Elems[i] = c.coerce(sub, f.Elems[i], fld.Type)
				}
				if !c.compatible(fld.Type, f.Elems[i], sub) {
					return false
				}
			}
			if e != nil {
				c.info.Types[e] = to
			}
			return true
		case *StructLit:
			if len(f.Names) != len(t.Fields) {
				return false
			}
			se, _ := e.(*ast.StructExpr)
			for i, n := range f.Names {
				fld := t.Field(n)
				if fld == nil {
					return false
				}
				var sub ast.Expr
				if se != nil {
					sub = se.Values[i]
					f.Elems[i] = c.coerce(sub, f.Elems[i], fld.Type)
				}
				if !c.compatible(fld.Type, f.Elems[i], sub) {
					return false
				}
			}
			if e != nil {
				c.info.Types[e] = to
			}
			return true
		}
	case *Tuple:
		if f, ok := uf.(*List); ok && len(f.Elems) == len(t.Elems) {
			l, _ := e.(*ast.ListExpr)
			for i := range t.Elems {
				var sub ast.Expr
				if l != nil {
					sub = l.Elems[i]
					f.Elems[i] = c.coerce(sub, f.Elems[i], t.Elems[i])
				}
				if !c.compatible(t.Elems[i], f.Elems[i], sub) {
					return false
				}
			}
			if e != nil {
				c.info.Types[e] = to
			}
			return true
		}
	case *Enum:
		if f, ok := uf.(*Enum); ok {
			return f.Decl == t.Decl
		}
	case *Extern:
		if f, ok := uf.(*Extern); ok {
			return f.Decl == t.Decl
		}
	case *Block:
		if f, ok := uf.(*Block); ok {
			return f.Kind == t.Kind && len(f.Params) == len(t.Params)
		}
	case *ValueSet:
		return true
	}
	if _, ok := uf.(*ValueSet); ok {
		return true
	}
	return false
}

func (c *checker) setConst(e ast.Expr, v *big.Int) { c.info.Consts[e] = v }

// expr computes the type of e; expected guides unsized literals and lists.
func (c *checker) expr(s *Scope, e ast.Expr, expected Type) Type {
	t := c.expr1(s, e, expected)
	if _, ok := c.info.Types[e]; !ok {
		c.info.Types[e] = t
	}
	return c.info.Types[e]
}

func (c *checker) expr1(s *Scope, e ast.Expr, expected Type) Type {
	switch e := e.(type) {
	case *ast.IntLit:
		if e.HasWidth {
			t := &Bits{W: e.Width, Signed: e.Signed}
			c.setConst(e, truncate(e.Value, t))
			return t
		}
		c.setConst(e, new(big.Int).Set(e.Value))
		if expected != nil && bitsOf(expected) != nil {
			c.info.Types[e] = expected
			c.setConst(e, truncate(e.Value, expected))
			return expected
		}
		return &InfInt{}
	case *ast.BoolLit:
		v := big.NewInt(0)
		if e.Value {
			v.SetInt64(1)
		}
		c.setConst(e, v)
		return &Bool{}
	case *ast.StringLit:
		return &String{}
	case *ast.DontCare:
		return &DontCare{}
	case *ast.Default:
		return &DontCare{}
	case *ast.This:
		return &Void{}
	case *ast.Ident:
		return c.ident(s, e)
	case *ast.TypeExpr:
		return &TypeName{T: c.resolveType(s, e.Type)}
	case *ast.Member:
		return c.member(s, e)
	case *ast.Index:
		xt := c.expr(s, e.X, nil)
		it := c.expr(s, e.Index, nil)
		if bitsOf(it) == nil && !isInt(it) {
			c.errorf(e.Index.Position(), "index must be an integer, not %s", it)
		}
		switch u := Underlying(xt).(type) {
		case *Stack:
			if v, ok := c.info.Consts[e.Index]; ok && (v.Sign() < 0 || v.Int64() >= int64(u.Size)) {
				c.errorf(e.Pos, "index %s out of bounds for stack of size %d", v, u.Size)
			}
			return u.Elem
		case *Tuple:
			v, ok := c.info.Consts[e.Index]
			if !ok || v.Sign() < 0 || v.Int64() >= int64(len(u.Elems)) {
				c.errorf(e.Pos, "tuple index must be a constant in range")
				return &Void{}
			}
			return u.Elems[v.Int64()]
		}
		c.errorf(e.Pos, "cannot index a value of type %s", xt)
		return &Void{}
	case *ast.Slice:
		xt := c.expr(s, e.X, nil)
		c.expr(s, e.Hi, nil)
		c.expr(s, e.Lo, nil)
		hi, ok1 := c.info.Consts[e.Hi]
		lo, ok2 := c.info.Consts[e.Lo]
		if !ok1 || !ok2 {
			c.errorf(e.Pos, "slice bounds must be constants")
			return &Bits{W: 1}
		}
		b := bitsOf(xt)
		if b == nil && isInt(xt) {
			w := int(hi.Int64()) + 1
			b = &Bits{W: w}
			c.coerce(e.X, xt, b)
		}
		if b == nil {
			c.errorf(e.Pos, "cannot slice a value of type %s", xt)
			return &Bits{W: 1}
		}
		if hi.Cmp(lo) < 0 || lo.Sign() < 0 || hi.Int64() >= int64(b.W) {
			c.errorf(e.Pos, "slice [%s:%s] out of range for %s", hi, lo, xt)
			return &Bits{W: 1}
		}
		t := &Bits{W: int(hi.Int64()-lo.Int64()) + 1}
		if v, ok := c.info.Consts[e.X]; ok {
			u := new(big.Int).Mod(v, new(big.Int).Lsh(one, uint(b.W)))
			u.Rsh(u, uint(lo.Int64()))
			c.setConst(e, truncate(u, t))
		}
		return t
	case *ast.Unary:
		return c.unary(s, e, expected)
	case *ast.Binary:
		return c.binary(s, e, expected)
	case *ast.Ternary:
		ct := c.expr(s, e.Cond, &Bool{})
		if _, ok := ct.(*Bool); !ok {
			c.errorf(e.Cond.Position(), "condition must be bool, not %s", ct)
		}
		a := c.expr(s, e.Then, expected)
		b := c.expr(s, e.Else, expected)
		if isInt(a) && !isInt(b) {
			a = c.coerce(e.Then, a, b)
		} else if isInt(b) && !isInt(a) {
			b = c.coerce(e.Else, b, a)
		}
		if !Same(a, b) && !c.compatible(a, b, e.Else) {
			c.errorf(e.Pos, "branches of ?: have types %s and %s", a, b)
		}
		if cv, ok := c.info.Consts[e.Cond]; ok {
			av, ok1 := c.info.Consts[e.Then]
			bv, ok2 := c.info.Consts[e.Else]
			if ok1 && ok2 {
				if cv.Sign() != 0 {
					c.setConst(e, av)
				} else {
					c.setConst(e, bv)
				}
			}
		}
		return a
	case *ast.Cast:
		return c.cast(s, e)
	case *ast.ListExpr:
		var ets []Type
		var sub []Type
		switch u := Underlying(expectedOr(expected)).(type) {
		case *Struct:
			for _, f := range u.Fields {
				sub = append(sub, f.Type)
			}
		case *Tuple:
			sub = u.Elems
		}
		for i, x := range e.Elems {
			var ex Type
			if i < len(sub) && len(sub) == len(e.Elems) {
				ex = sub[i]
			}
			ets = append(ets, c.expr(s, x, ex))
		}
		return &List{Elems: ets}
	case *ast.StructExpr:
		st, _ := Underlying(expectedOr(expected)).(*Struct)
		lt := &StructLit{Names: e.Names}
		for i, x := range e.Values {
			var ex Type
			if st != nil {
				if f := st.Field(e.Names[i]); f != nil {
					ex = f.Type
				}
			}
			lt.Elems = append(lt.Elems, c.expr(s, x, ex))
		}
		return lt
	case *ast.Call:
		return c.call(s, e)
	case *ast.Mask, *ast.Range:
		c.errorf(e.Position(), "mask or range outside a keyset")
		return &Void{}
	}
	c.errorf(e.Position(), "unsupported expression")
	return &Void{}
}

func expectedOr(t Type) Type {
	if t == nil {
		return &Void{}
	}
	return t
}

func (c *checker) ident(s *Scope, e *ast.Ident) Type {
	if e.Name == "error" && !e.Dot {
		return &TypeName{T: &ErrorT{}}
	}
	o := c.lookup(s, e)
	if o == nil {
		return &Void{}
	}
	switch o.Kind {
	case ObjConst:
		if o.Value != nil {
			c.setConst(e, o.Value)
		}
		if _, ok := o.Type.(*MatchKind); ok {
			return o.Type
		}
		return o.Type
	case ObjVar, ObjParam, ObjInstance, ObjValueSet:
		return o.Type
	case ObjType:
		return &TypeName{T: o.Type}
	case ObjTable:
		return o.Type
	case ObjAction, ObjFunction, ObjExternFunc:
		return &Method{Name: e.Name}
	case ObjBlock:
		return &TypeName{T: o.Type}
	case ObjState:
		c.errorf(e.Pos, "state %s used as a value", e.Name)
	}
	return &Void{}
}

func (c *checker) member(s *Scope, e *ast.Member) Type {
	xt := c.expr(s, e.X, nil)
	switch u := xt.(type) {
	case *TypeName:
		switch tt := Underlying(u.T).(type) {
		case *Enum:
			for i, m := range tt.Members {
				if m == e.Name {
					c.setConst(e, new(big.Int).SetUint64(tt.Values[i]))
					return u.T
				}
			}
			c.errorf(e.Pos, "enum %s has no member %s", tt.Name, e.Name)
			return u.T
		case *ErrorT:
			for i, m := range c.info.Errors {
				if m == e.Name {
					c.setConst(e, big.NewInt(int64(i)))
					return tt
				}
			}
			c.errorf(e.Pos, "error.%s is not declared", e.Name)
			return tt
		}
		switch e.Name {
		case "minSizeInBits", "minSizeInBytes", "maxSizeInBits", "maxSizeInBytes":
			return &Method{Name: e.Name}
		}
		c.errorf(e.Pos, "type %s has no member %s", u.T, e.Name)
		return &Void{}
	case *ApplyResult:
		switch e.Name {
		case "hit", "miss":
			return &Bool{}
		case "action_run":
			return &ActionEnum{Table: u.Table}
		}
	case *Table:
		if e.Name == "apply" {
			return &Method{Name: "apply"}
		}
	case *Extern:
		for _, m := range u.Decl.Methods {
			if m.Name == e.Name && m.Ret != nil {
				return &Method{Name: e.Name}
			}
		}
	case *Block:
		if e.Name == "apply" {
			return &Method{Name: "apply"}
		}
	}
	switch u := Underlying(xt).(type) {
	case *Struct:
		if f := u.Field(e.Name); f != nil {
			return f.Type
		}
		switch e.Name {
		case "isValid", "setValid", "setInvalid":
			if u.Kind != "struct" {
				return &Method{Name: e.Name}
			}
		case "minSizeInBits", "minSizeInBytes", "maxSizeInBits", "maxSizeInBytes":
			return &Method{Name: e.Name}
		}
		c.errorf(e.Pos, "%s has no field %s", u, e.Name)
		return &Void{}
	case *Stack:
		switch e.Name {
		case "next", "last":
			return u.Elem
		case "lastIndex":
			return &Bits{W: 32}
		case "size":
			c.setConst(e, big.NewInt(int64(u.Size)))
			return &Bits{W: 32}
		case "push_front", "pop_front":
			return &Method{Name: e.Name}
		}
	}
	c.errorf(e.Pos, "%s has no member %s", xt, e.Name)
	return &Void{}
}

func (c *checker) unary(s *Scope, e *ast.Unary, expected Type) Type {
	t := c.expr(s, e.X, expected)
	v, isConst := c.info.Consts[e.X]
	switch e.Op {
	case "!":
		if _, ok := t.(*Bool); !ok {
			c.errorf(e.Pos, "! needs a bool, not %s", t)
		}
		if isConst {
			c.setConst(e, big.NewInt(int64(1-v.Int64())))
		}
		return &Bool{}
	case "-":
		if bitsOf(t) == nil && !isInt(t) {
			c.errorf(e.Pos, "- needs an integer, not %s", t)
			return t
		}
		if isConst {
			c.setConst(e, truncate(new(big.Int).Neg(v), t))
		}
		return t
	case "~":
		if bitsOf(t) == nil {
			c.errorf(e.Pos, "~ needs a bit<W> or int<W> operand, not %s", t)
			return t
		}
		if isConst {
			c.setConst(e, truncate(new(big.Int).Not(v), t))
		}
		return t
	}
	return t
}

func (c *checker) cast(s *Scope, e *ast.Cast) Type {
	to := c.resolveType(s, e.Type)
	var hint Type
	switch e.X.(type) {
	case *ast.IntLit, *ast.ListExpr, *ast.StructExpr:
		hint = to
	}
	from := c.expr(s, e.X, hint)
	ut, uf := Underlying(to), Underlying(from)
	ok := false
	switch t := ut.(type) {
	case *Bits:
		switch f := uf.(type) {
		case *Bits, *InfInt:
			ok = true
		case *Bool:
			ok = t.W == 1 && !t.Signed
		case *Enum:
			ok = f.Base != nil
		}
	case *Bool:
		if b, isB := uf.(*Bits); isB && b.W == 1 && !b.Signed {
			ok = true
		}
		if _, isI := uf.(*InfInt); isI {
			ok = true
		}
		_, ok2 := uf.(*Bool)
		ok = ok || ok2
	case *Enum:
		_, isB := uf.(*Bits)
		ok = t.Base != nil && (isB || isInt(uf)) || c.compatible(to, from, e.X)
	case *InfInt:
		ok = isInt(uf)
	default:
		ok = c.compatible(to, from, e.X)
	}
	if !ok {
		c.errorf(e.Pos, "cannot cast %s to %s", from, to)
	}
	if v, isConst := c.info.Consts[e.X]; isConst {
		c.setConst(e, truncate(v, to))
	}
	return to
}

func (c *checker) binary(s *Scope, e *ast.Binary, expected Type) Type {
	op := e.Op
	switch op {
	case "&&", "||":
		a := c.expr(s, e.X, &Bool{})
		b := c.expr(s, e.Y, &Bool{})
		_, okA := a.(*Bool)
		_, okB := b.(*Bool)
		if !okA || !okB {
			c.errorf(e.Pos, "%s needs bool operands", op)
		}
		if x, ok := c.info.Consts[e.X]; ok {
			if y, ok := c.info.Consts[e.Y]; ok {
				r := x.Sign() != 0 && y.Sign() != 0
				if op == "||" {
					r = x.Sign() != 0 || y.Sign() != 0
				}
				c.setConst(e, boolInt(r))
			}
		}
		return &Bool{}
	case "<<", ">>":
		var hint Type
		if _, lit := e.X.(*ast.IntLit); lit {
			hint = expected
		}
		a := c.expr(s, e.X, hint)
		b := c.expr(s, e.Y, nil)
		if bb := bitsOf(b); bb != nil && bb.Signed || bitsOf(b) == nil && !isInt(b) {
			c.errorf(e.Pos, "shift amount must be unsigned")
		}
		if bitsOf(a) == nil && !isInt(a) {
			c.errorf(e.Pos, "cannot shift %s", a)
			return a
		}
		if isInt(a) && !isInt(b) {
			if _, ok := c.info.Consts[e.Y]; !ok {
				c.errorf(e.Pos, "shifting an unsized constant needs a constant amount")
			}
		}
		if x, ok := c.info.Consts[e.X]; ok {
			if y, ok := c.info.Consts[e.Y]; ok && y.IsInt64() && y.Int64() < 1<<16 {
				var r *big.Int
				if op == "<<" {
					r = new(big.Int).Lsh(x, uint(y.Int64()))
				} else {
					r = new(big.Int).Rsh(x, uint(y.Int64()))
				}
				c.setConst(e, truncate(r, a))
			}
		}
		return a
	}
	a := c.expr(s, e.X, nil)
	b := c.expr(s, e.Y, nil)
	if op != "++" {
		if isInt(a) && !isInt(b) {
			a = c.coerce(e.X, a, b)
		} else if isInt(b) && !isInt(a) {
			b = c.coerce(e.Y, b, a)
		}
	}
	switch op {
	case "==", "!=":
		if !Same(a, b) && !c.compatible(a, b, e.Y) {
			c.errorf(e.Pos, "cannot compare %s and %s", a, b)
		}
		if x, ok := c.info.Consts[e.X]; ok {
			if y, ok := c.info.Consts[e.Y]; ok {
				c.setConst(e, boolInt((x.Cmp(y) == 0) == (op == "==")))
			}
		}
		return &Bool{}
	case "<", ">", "<=", ">=":
		if !Same(a, b) || bitsOf(a) == nil && !isInt(a) {
			c.errorf(e.Pos, "cannot compare %s and %s with %s", a, b, op)
		}
		if x, ok := c.info.Consts[e.X]; ok {
			if y, ok := c.info.Consts[e.Y]; ok {
				r := x.Cmp(y)
				c.setConst(e, boolInt(op == "<" && r < 0 || op == ">" && r > 0 || op == "<=" && r <= 0 || op == ">=" && r >= 0))
			}
		}
		return &Bool{}
	case "++":
		ba, bb := bitsOf(a), bitsOf(b)
		if ba == nil || bb == nil {
			c.errorf(e.Pos, "++ needs sized operands, not %s and %s", a, b)
			return &Bits{W: 1}
		}
		t := &Bits{W: ba.W + bb.W, Signed: ba.Signed}
		if x, ok := c.info.Consts[e.X]; ok {
			if y, ok := c.info.Consts[e.Y]; ok {
				xv := new(big.Int).Mod(x, new(big.Int).Lsh(one, uint(ba.W)))
				yv := new(big.Int).Mod(y, new(big.Int).Lsh(one, uint(bb.W)))
				c.setConst(e, truncate(xv.Lsh(xv, uint(bb.W)).Or(xv, yv), t))
			}
		}
		return t
	}
	// arithmetic and bitwise
	if !Same(a, b) || bitsOf(a) == nil && !isInt(a) {
		c.errorf(e.Pos, "%s: operands have types %s and %s", op, a, b)
		return a
	}
	if x, ok := c.info.Consts[e.X]; ok {
		if y, ok := c.info.Consts[e.Y]; ok {
			if r := constArith(op, x, y, a); r != nil {
				c.setConst(e, r)
			} else if op == "/" || op == "%" {
				c.errorf(e.Pos, "division by zero")
			}
		}
	}
	return a
}

func constArith(op string, x, y *big.Int, t Type) *big.Int {
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		r.Mul(x, y)
	case "/":
		if y.Sign() == 0 {
			return nil
		}
		r.Quo(x, y)
	case "%":
		if y.Sign() == 0 {
			return nil
		}
		r.Rem(x, y)
	case "&":
		r.And(x, y)
	case "|":
		r.Or(x, y)
	case "^":
		r.Xor(x, y)
	case "|+|", "|-|":
		if op == "|+|" {
			r.Add(x, y)
		} else {
			r.Sub(x, y)
		}
		if b := bitsOf(t); b != nil {
			lo, hi := new(big.Int), new(big.Int).Lsh(one, uint(b.W))
			if b.Signed {
				hi.Rsh(hi, 1)
				lo.Neg(hi)
			}
			hi.Sub(hi, one)
			if r.Cmp(lo) < 0 {
				r.Set(lo)
			}
			if r.Cmp(hi) > 0 {
				r.Set(hi)
			}
			return r
		}
	}
	return truncate(r, t)
}

func boolInt(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return new(big.Int)
}
