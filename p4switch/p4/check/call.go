package check

import (
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

// typeIn resolves a parameter type with type parameters bound (or left as TypeVar).
func (c *checker) typeIn(s *Scope, t ast.Type, tparams []string, bind map[string]Type) Type {
	env := map[string]Type{}
	for _, tp := range tparams {
		if b, ok := bind[tp]; ok {
			env[tp] = b
		} else {
			env[tp] = &TypeVar{Name: tp}
		}
	}
	c.typeEnv = append(c.typeEnv, env)
	defer func() { c.typeEnv = c.typeEnv[:len(c.typeEnv)-1] }()
	return c.resolveType(s, t)
}

func (c *checker) call(s *Scope, e *ast.Call) Type {
	ci := &CallInfo{TypeArgs: map[string]Type{}}
	c.info.Calls[e] = ci
	var tparams []string
	switch f := e.Fun.(type) {
	case *ast.Ident:
		o := c.lookup(s, f)
		if o == nil {
			return &Void{}
		}
		switch o.Kind {
		case ObjAction:
			ad := o.Decl.(*ast.ActionDecl)
			ci.Kind, ci.Action, ci.Name, ci.Params = CallAction, ad, ad.Name, ad.Params
			ci.Ret = &Void{}
		case ObjFunction:
			fd := o.Decl.(*ast.FunctionDecl)
			ci.Kind, ci.Function, ci.Name, ci.Params = CallFunction, fd, fd.Name, fd.Params
			tparams = fd.TypeParams
		case ObjBlock, ObjType:
			// constructor call: an anonymous instance
			var params []*ast.Param
			var tps []string
			switch u := o.Type.(type) {
			case *Block:
				switch bd := u.Decl.(type) {
				case *ast.ParserDecl:
					params = bd.CtorParams
				case *ast.ControlDecl:
					params = bd.CtorParams
				}
			case *Extern:
				m := c.pickMethod(u.Decl.Methods, u.Decl.Name, len(e.Args))
				if m == nil {
					c.errorf(e.Pos, "extern %s has no constructor with %d arguments", u.Decl.Name, len(e.Args))
					return o.Type
				}
				params, tps = m.Params, u.Decl.TypeParams
			default:
				c.errorf(e.Pos, "%s is not callable", f.Name)
				return &Void{}
			}
			ci.Kind, ci.Name, ci.Params, ci.Ret = CallConstructor, f.Name, params, o.Type
			c.args(s, e.Pos, e.Args, params, ci.TypeArgs, tps...)
			return o.Type
		case ObjExternFunc:
			m := c.pickMethod(o.Overloads, f.Name, len(e.Args))
			if m == nil {
				c.errorf(e.Pos, "no %s taking %d arguments", f.Name, len(e.Args))
				return &Void{}
			}
			ci.Kind, ci.Method, ci.Name, ci.Params = CallExternFunc, m, m.Name, m.Params
			tparams = m.TypeParams
		default:
			c.errorf(e.Pos, "%s is not callable", f.Name)
			return &Void{}
		}
	case *ast.Member:
		xt := c.expr(s, f.X, nil)
		c.info.Types[f] = &Method{Name: f.Name}
		ci.Recv, ci.Name = f.X, f.Name
		switch f.Name {
		case "minSizeInBits", "minSizeInBytes", "maxSizeInBits", "maxSizeInBytes":
			t := xt
			if tn, ok := xt.(*TypeName); ok {
				t = tn.T
			}
			w := Width(t)
			if _, isVar := Underlying(t).(*Struct); isVar && (f.Name == "minSizeInBits" || f.Name == "minSizeInBytes") {
				w = minWidth(t)
			}
			if f.Name == "minSizeInBytes" || f.Name == "maxSizeInBytes" {
				w = (w + 7) / 8
			}
			ci.Kind = CallSizeOf
			c.info.Consts[e] = big.NewInt(int64(w))
			ci.Ret = &InfInt{}
			return ci.Ret
		}
		switch u := xt.(type) {
		case *Table:
			ci.Kind, ci.Table, ci.Ret = CallTableApply, u.Decl, &ApplyResult{Table: u.Decl}
		case *Extern:
			m := c.pickMethod(u.Decl.Methods, f.Name, len(e.Args))
			if m == nil || m.Ret == nil {
				c.errorf(e.Pos, "extern %s has no method %s taking %d arguments", u.Decl.Name, f.Name, len(e.Args))
				return &Void{}
			}
			ci.Kind, ci.Method, ci.Extern, ci.Params = CallExternMethod, m, u, m.Params
			for i, tp := range u.Decl.TypeParams {
				if i < len(u.Args) {
					ci.TypeArgs[tp] = u.Args[i]
				}
			}
			tparams = append(append([]string{}, u.Decl.TypeParams...), m.TypeParams...)
		case *Block:
			ci.Kind, ci.Block, ci.Params, ci.Ret = CallBlockApply, u, u.Params, &Void{}
			if u.Kind == "package" {
				c.errorf(e.Pos, "cannot apply a package")
			}
		default:
			switch st := Underlying(xt).(type) {
			case *Struct:
				if st.Kind != "struct" && (f.Name == "isValid" || f.Name == "setValid" || f.Name == "setInvalid") {
					ci.Kind = CallHeaderMethod
					ci.Ret = &Void{}
					if f.Name == "isValid" {
						ci.Ret = &Bool{}
					}
					if len(e.Args) != 0 {
						c.errorf(e.Pos, "%s takes no arguments", f.Name)
					}
					if st.Kind == "header_union" && f.Name != "isValid" {
						c.errorf(e.Pos, "header_union has no method %s", f.Name)
					}
					return ci.Ret
				}
			case *Stack:
				if f.Name == "push_front" || f.Name == "pop_front" {
					ci.Kind, ci.Ret = CallStackMethod, &Void{}
					if len(e.Args) != 1 {
						c.errorf(e.Pos, "%s takes one argument", f.Name)
						return ci.Ret
					}
					c.expr(s, e.Args[0].Value, nil)
					if _, ok := c.info.Consts[e.Args[0].Value]; !ok {
						c.errorf(e.Pos, "%s needs a constant count", f.Name)
					}
					return ci.Ret
				}
			}
			c.errorf(e.Pos, "%s has no method %s", xt, f.Name)
			return &Void{}
		}
	default:
		c.errorf(e.Pos, "expression is not callable")
		return &Void{}
	}
	// explicit type arguments
	var own []string
	switch {
	case ci.Method != nil:
		own = ci.Method.TypeParams
	case ci.Function != nil:
		own = ci.Function.TypeParams
	}
	if len(e.TypeArgs) > 0 {
		if len(e.TypeArgs) != len(own) {
			c.errorf(e.Pos, "%s expects %d type arguments", ci.Name, len(own))
		}
		for i, ta := range e.TypeArgs {
			if i < len(own) {
				ci.TypeArgs[own[i]] = c.resolveType(s, ta)
			}
		}
	}
	c.args(s, e.Pos, e.Args, ci.Params, ci.TypeArgs, tparams...)
	if ci.Function != nil && len(ci.Function.TypeParams) > 0 {
		c.instantiate(s, e, ci)
	}
	if ci.Ret == nil {
		switch {
		case ci.Method != nil:
			ci.Ret = c.typeIn(s, ci.Method.Ret, tparams, ci.TypeArgs)
		case ci.Function != nil:
			ci.Ret = c.typeIn(s, ci.Function.Ret, tparams, ci.TypeArgs)
		default:
			ci.Ret = &Void{}
		}
	}
	return ci.Ret
}

// minWidth is the size of a header without its varbit fields.
func minWidth(t Type) int {
	st, ok := Underlying(t).(*Struct)
	if !ok {
		return Width(t)
	}
	w := 0
	for _, f := range st.Fields {
		if _, ok := Underlying(f.Type).(*Varbit); ok {
			continue
		}
		w += minWidth(f.Type)
	}
	return w
}

// args checks call arguments against params, binding type parameters.
func (c *checker) args(s *Scope, pos token.Pos, args []ast.Arg, params []*ast.Param, bind map[string]Type, tparams ...string) {
	ordered := make([]ast.Expr, len(params))
	named := len(args) > 0 && args[0].Name != ""
	if len(args) > len(params) {
		c.errorf(pos, "too many arguments: %d given, %d expected", len(args), len(params))
		return
	}
	for i, a := range args {
		if named {
			found := false
			for j, p := range params {
				if p.Name == a.Name {
					ordered[j] = a.Value
					found = true
				}
			}
			if !found {
				c.errorf(a.Value.Position(), "no parameter called %s", a.Name)
			}
			continue
		}
		ordered[i] = a.Value
	}
	for i, p := range params {
		a := ordered[i]
		if a == nil {
			if p.Default == nil && !p.Annos.Has("optional") {
				c.errorf(pos, "missing argument for parameter %s", p.Name)
			}
			continue
		}
		pt := c.typeIn(s, p.Type, tparams, bind)
		var expected Type = pt
		if _, ok := pt.(*TypeVar); ok {
			expected = nil
		}
		at := c.expr(s, a, expected)
		if tv, ok := pt.(*TypeVar); ok && tv.Name != "_" {
			if _, isDC := at.(*DontCare); !isDC {
				bind[tv.Name] = at
			}
		} else if _, isDC := a.(*ast.DontCare); !isDC {
			c.assignable(a.Position(), pt, at, a)
		}
		if p.Dir == "out" || p.Dir == "inout" {
			if _, isDC := a.(*ast.DontCare); !isDC && !c.isLValue(s, a) {
				c.errorf(a.Position(), "argument for %s parameter %s must be assignable", p.Dir, p.Name)
			}
		}
	}
}

// isLValue reports whether e denotes writable storage.
func (c *checker) isLValue(s *Scope, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		o := c.info.Uses[e]
		if o == nil {
			return false
		}
		if o.Kind == ObjVar {
			return true
		}
		if o.Kind == ObjParam {
			p := o.Decl.(*ast.Param)
			return p.Dir == "out" || p.Dir == "inout"
		}
		return false
	case *ast.Member:
		if _, ok := c.info.Types[e.X].(*TypeName); ok {
			return false
		}
		return c.isLValue(s, e.X)
	case *ast.Index:
		return c.isLValue(s, e.X)
	case *ast.Slice:
		return c.isLValue(s, e.X)
	}
	return false
}

// instantiate checks a copy of a generic function with its type arguments
// bound, and makes the call refer to that copy.
func (c *checker) instantiate(s *Scope, e *ast.Call, ci *CallInfo) {
	fd := ci.Function
	key := fd.Name
	bind := map[string]Type{}
	for _, tp := range fd.TypeParams {
		t, ok := ci.TypeArgs[tp]
		if !ok {
			c.errorf(e.Pos, "cannot infer type argument %s of %s", tp, fd.Name)
			return
		}
		if isInt(t) {
			t = &Bits{W: 32} // an unsized constant argument: pick a width
		}
		bind[tp] = t
		key += "<" + t.String() + ">"
	}
	inst, ok := c.generics[key]
	if !ok {
		inst = ast.Clone(fd)
		inst.TypeParams = nil
		c.generics[key] = inst
		c.typeEnv = append(c.typeEnv, bind)
		c.functionDecl(s.root(), inst)
		c.typeEnv = c.typeEnv[:len(c.typeEnv)-1]
	}
	ci.Function, ci.Params = inst, inst.Params
	ci.Ret = c.info.DeclTypes[inst]
}
