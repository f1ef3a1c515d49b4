package check

import (
	"fmt"
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

// CallKind says what a call expression invokes.
type CallKind int

const (
	CallAction CallKind = iota
	CallFunction
	CallExternFunc
	CallExternMethod // method of an extern instance (incl. packet_in/packet_out)
	CallHeaderMethod // isValid, setValid, setInvalid
	CallStackMethod  // push_front, pop_front
	CallTableApply
	CallBlockApply  // parser/control instance apply
	CallSizeOf      // minSizeInBits & co
	CallConstructor // T(args) as an expression: an anonymous instance
)

// CallInfo describes a resolved call.
type CallInfo struct {
	Kind     CallKind
	Name     string      // function/method name
	Method   *ast.Method // extern function or method prototype
	Action   *ast.ActionDecl
	Function *ast.FunctionDecl
	Table    *ast.TableDecl
	Recv     ast.Expr // receiver for methods
	Extern   *Extern  // receiver extern type
	Block    *Block   // applied parser/control
	Params   []*ast.Param
	TypeArgs map[string]Type // bindings of type parameters
	Ret      Type
}

// Info is the result of checking a program.
type Info struct {
	Program *ast.Program
	Global  *Scope
	Types   map[ast.Expr]Type
	Uses    map[*ast.Ident]*Object
	Consts  map[ast.Expr]*big.Int
	Calls   map[*ast.Call]*CallInfo
	// DeclTypes gives the resolved type of declared variables, params, fields and instances.
	DeclTypes  map[ast.Node]Type
	Errors     []string // error enum members in order
	MatchKinds []string
	Main       *ast.Instance
}

// Errors is a list of front-end errors.
type Errors []*token.Error

func (es Errors) Error() string {
	s := ""
	for i, e := range es {
		if i > 0 {
			s += "\n"
		}
		s += e.Error()
	}
	return s
}

type checker struct {
	generics map[string]*ast.FunctionDecl // instantiated generic functions by name and type arguments
	info     *Info
	errs     Errors
	typeEnv  []map[string]Type // type parameter bindings stack
	retType  Type
	inAction bool
	loops    int
}

type stop struct{}

// Check type-checks prog.
func Check(prog *ast.Program) (*Info, error) {
	c := &checker{generics: map[string]*ast.FunctionDecl{}, info: &Info{
		Program: prog, Global: newScope(nil),
		Types: map[ast.Expr]Type{}, Uses: map[*ast.Ident]*Object{}, Consts: map[ast.Expr]*big.Int{},
		Calls: map[*ast.Call]*CallInfo{}, DeclTypes: map[ast.Node]Type{},
	}}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stop); !ok {
					panic(r)
				}
			}
		}()
		for _, d := range prog.Decls {
			c.topDecl(d)
		}
		if c.info.Main == nil && len(c.errs) == 0 {
			c.errorf(token.Pos{}, "program has no package instance called main")
		}
	}()
	if len(c.errs) > 0 {
		return c.info, c.errs
	}
	return c.info, nil
}

func (c *checker) errorf(pos token.Pos, format string, a ...any) {
	c.errs = append(c.errs, &token.Error{Pos: pos, Msg: fmt.Sprintf(format, a...)})
	if len(c.errs) >= 20 {
		panic(stop{})
	}
}

// fatalf reports an error and abandons checking (used where continuing would cascade).
func (c *checker) fatalf(pos token.Pos, format string, a ...any) {
	c.errs = append(c.errs, &token.Error{Pos: pos, Msg: fmt.Sprintf(format, a...)})
	panic(stop{})
}

func (c *checker) declare(s *Scope, name string, o *Object, pos token.Pos) {
	if prev, ok := s.Objs[name]; ok {
		// extern functions and actions may be overloaded by arity
		if prev.Kind == ObjExternFunc && o.Kind == ObjExternFunc {
			prev.Overloads = append(prev.Overloads, o.Overloads...)
			return
		}
		c.errorf(pos, "%s is declared twice", name)
		return
	}
	o.Name = name
	s.Objs[name] = o
}

func (c *checker) topDecl(d ast.Decl) {
	g := c.info.Global
	switch d := d.(type) {
	case *ast.ConstDecl:
		c.constDecl(g, d)
	case *ast.TypedefDecl:
		t := c.resolveType(g, d.Type)
		if d.IsNewType {
			t = &NewType{Name: d.Name, Base: t}
		}
		c.declare(g, d.Name, &Object{Kind: ObjType, Type: t, Decl: d}, d.Pos)
	case *ast.StructDecl:
		st := &Struct{Kind: d.Kind, Name: d.Name, Decl: d}
		c.declare(g, d.Name, &Object{Kind: ObjType, Type: st, Decl: d}, d.Pos)
		seen := map[string]bool{}
		for _, f := range d.Fields {
			ft := c.resolveType(g, f.Type)
			if seen[f.Name] {
				c.errorf(f.Pos, "field %s declared twice in %s", f.Name, d.Name)
			}
			seen[f.Name] = true
			if d.Kind == "header" {
				switch u := Underlying(ft).(type) {
				case *Bits, *Varbit, *Bool:
				case *Enum:
					if u.Base == nil {
						c.errorf(f.Pos, "header field %s: enum %s is not serializable", f.Name, u.Name)
					}
				case *Struct:
					if u.Kind != "struct" {
						c.errorf(f.Pos, "header field %s cannot have type %s", f.Name, ft)
					}
				default:
					c.errorf(f.Pos, "header field %s cannot have type %s", f.Name, ft)
				}
			}
			if d.Kind == "header_union" {
				if s, ok := Underlying(ft).(*Struct); !ok || s.Kind != "header" {
					c.errorf(f.Pos, "header_union field %s must be a header", f.Name)
				}
			}
			st.Fields = append(st.Fields, &Field{Name: f.Name, Type: ft, Annos: f.Annos})
		}
	case *ast.EnumDecl:
		c.enumDecl(g, d)
	case *ast.ErrorDecl:
		for _, m := range d.Members {
			if contains(c.info.Errors, m) {
				c.errorf(d.Pos, "error.%s declared twice", m)
			}
			c.info.Errors = append(c.info.Errors, m)
		}
	case *ast.MatchKindDecl:
		for _, m := range d.Members {
			c.info.MatchKinds = append(c.info.MatchKinds, m)
			c.declare(g, m, &Object{Kind: ObjConst, Type: &MatchKind{}, Decl: d}, d.Pos)
		}
	case *ast.ExternDecl:
		c.declare(g, d.Name, &Object{Kind: ObjType, Type: &Extern{Decl: d}, Decl: d}, d.Pos)
	case *ast.ExternFunc:
		c.declare(g, d.Name, &Object{Kind: ObjExternFunc, Decl: d, Overloads: []*ast.Method{&d.Method}}, d.Pos)
	case *ast.TypeProto:
		c.declare(g, d.Name, &Object{Kind: ObjType, Type: &Block{Kind: d.Kind, Name: d.Name, Params: d.Params, Decl: d}, Decl: d}, d.Pos)
	case *ast.ParserDecl:
		c.declare(g, d.Name, &Object{Kind: ObjBlock, Type: &Block{Kind: "parser", Name: d.Name, Params: d.Params, Decl: d}, Decl: d}, d.Pos)
		c.parserDecl(g, d)
	case *ast.ControlDecl:
		c.declare(g, d.Name, &Object{Kind: ObjBlock, Type: &Block{Kind: "control", Name: d.Name, Params: d.Params, Decl: d}, Decl: d}, d.Pos)
		c.controlDecl(g, d)
	case *ast.ActionDecl:
		c.declare(g, d.Name, &Object{Kind: ObjAction, Decl: d}, d.Pos)
		c.actionDecl(g, d)
	case *ast.FunctionDecl:
		c.declare(g, d.Name, &Object{Kind: ObjFunction, Decl: d}, d.Pos)
		c.functionDecl(g, d)
	case *ast.Instance:
		c.instance(g, d)
		if d.Name == "main" {
			c.info.Main = d
		}
	default:
		c.errorf(d.Position(), "unexpected top-level declaration")
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func (c *checker) constDecl(s *Scope, d *ast.ConstDecl) {
	t := c.resolveType(s, d.Type)
	et := c.expr(s, d.Value, t)
	c.assignable(d.Value.Position(), t, et, d.Value)
	o := &Object{Kind: ObjConst, Type: t, Decl: d, ValueExpr: d.Value}
	if v, ok := c.info.Consts[d.Value]; ok {
		o.Value = truncate(v, t)
	}
	c.info.DeclTypes[d] = t
	c.declare(s, d.Name, o, d.Pos)
}

func (c *checker) enumDecl(s *Scope, d *ast.EnumDecl) {
	e := &Enum{Name: d.Name, Members: d.Members, Decl: d}
	if d.Base != nil {
		bt, ok := Underlying(c.resolveType(s, d.Base)).(*Bits)
		if !ok {
			c.errorf(d.Pos, "enum %s: underlying type must be bit<W> or int<W>", d.Name)
		} else {
			e.Base = bt
		}
	}
	for i, v := range d.Values {
		if e.Base == nil {
			if v != nil {
				c.errorf(v.Position(), "enum %s is not serializable; members cannot have values", d.Name)
			}
			e.Values = append(e.Values, uint64(i))
			continue
		}
		if v == nil {
			c.errorf(d.Pos, "serializable enum %s: member %s needs a value", d.Name, d.Members[i])
			e.Values = append(e.Values, 0)
			continue
		}
		c.expr(s, v, e.Base)
		cv, ok := c.info.Consts[v]
		if !ok {
			c.errorf(v.Position(), "enum value must be a constant")
			cv = new(big.Int)
		}
		e.Values = append(e.Values, truncate(cv, e.Base).Uint64())
	}
	c.declare(s, d.Name, &Object{Kind: ObjType, Type: e, Decl: d}, d.Pos)
}

func (c *checker) params(s *Scope, ps []*ast.Param) {
	for _, p := range ps {
		t := c.resolveType(s, p.Type)
		c.info.DeclTypes[p] = t
		c.declare(s, p.Name, &Object{Kind: ObjParam, Type: t, Decl: p}, p.Pos)
	}
}

func (c *checker) typeParams(s *Scope, tps []string) {
	for _, tp := range tps {
		s.Objs[tp] = &Object{Kind: ObjType, Name: tp, Type: &TypeVar{Name: tp}}
	}
}

func (c *checker) parserDecl(g *Scope, d *ast.ParserDecl) {
	s := newScope(g)
	c.typeParams(s, d.TypeParams)
	c.params(s, d.Params)
	c.params(s, d.CtorParams)
	for _, l := range d.Locals {
		c.localDecl(s, l)
	}
	states := map[string]*ast.State{}
	for _, st := range d.States {
		if states[st.Name] != nil || st.Name == "accept" || st.Name == "reject" {
			c.errorf(st.Pos, "state %s declared twice", st.Name)
		}
		states[st.Name] = st
		s.Objs[st.Name] = &Object{Kind: ObjState, Name: st.Name, Decl: st}
	}
	if states["start"] == nil {
		c.errorf(d.Pos, "parser %s has no start state", d.Name)
	}
	target := func(pos token.Pos, n string) {
		if n != "accept" && n != "reject" && states[n] == nil {
			c.errorf(pos, "no state %s in parser %s", n, d.Name)
		}
	}
	for _, st := range d.States {
		bs := newScope(s)
		for _, stmt := range st.Stmts {
			c.stmt(bs, stmt)
		}
		if st.Select != nil {
			var ts []Type
			for _, e := range st.Select.Exprs {
				ts = append(ts, c.expr(bs, e, nil))
			}
			for _, cs := range st.Select.Cases {
				c.keyset(bs, cs.Keyset, ts)
				target(cs.Pos, cs.Next)
			}
		} else if st.Next != "" {
			target(st.Pos, st.Next)
		}
	}
}

// keyset checks a select case keyset against the select expression types.
func (c *checker) keyset(s *Scope, ks ast.Expr, ts []Type) {
	if l, ok := ks.(*ast.ListExpr); ok && len(ts) != 1 {
		if len(l.Elems) != len(ts) {
			c.errorf(ks.Position(), "keyset has %d elements, select has %d", len(l.Elems), len(ts))
			return
		}
		for i, e := range l.Elems {
			c.keysetElem(s, e, ts[i])
		}
		return
	}
	if len(ts) != 1 {
		if _, ok := ks.(*ast.Default); ok {
			return
		}
		if _, ok := ks.(*ast.DontCare); ok {
			return
		}
		if id, ok := ks.(*ast.Ident); ok {
			if o := s.Lookup(id.Name); o != nil && o.Kind == ObjValueSet {
				c.expr(s, ks, nil)
				return
			}
		}
		c.errorf(ks.Position(), "keyset must be a tuple of %d elements", len(ts))
		return
	}
	c.keysetElem(s, ks, ts[0])
}

func (c *checker) keysetElem(s *Scope, e ast.Expr, t Type) {
	switch e := e.(type) {
	case *ast.Default, *ast.DontCare:
		return
	case *ast.Mask:
		c.keysetValue(e.Pos, t, c.expr(s, e.Value, t), e.Value)
		c.keysetValue(e.Pos, t, c.expr(s, e.Mask, t), e.Mask)
		c.info.Types[e] = t
		return
	case *ast.Range:
		c.keysetValue(e.Pos, t, c.expr(s, e.Lo, t), e.Lo)
		c.keysetValue(e.Pos, t, c.expr(s, e.Hi, t), e.Hi)
		c.info.Types[e] = t
		return
	}
	et := c.expr(s, e, t)
	if _, ok := et.(*ValueSet); ok {
		return
	}
	c.keysetValue(e.Position(), t, et, e)
}

// keysetValue checks one value of a keyset against its key's type. Besides
// what assignment allows, a key of a serializable enum type may be matched
// with values of the enum's underlying bit<W> type, as p4c accepts
// (e.g. "(bit<16>)E.A &&& 0xff00" for a key of type E).
func (c *checker) keysetValue(pos token.Pos, t, from Type, e ast.Expr) {
	if en, ok := Underlying(t).(*Enum); ok && en.Base != nil {
		if b, ok := Underlying(from).(*Bits); ok && *b == *en.Base {
			return
		}
	}
	c.assignable(pos, t, from, e)
}

func (c *checker) controlDecl(g *Scope, d *ast.ControlDecl) {
	s := newScope(g)
	c.typeParams(s, d.TypeParams)
	c.params(s, d.Params)
	c.params(s, d.CtorParams)
	for _, l := range d.Locals {
		switch l := l.(type) {
		case *ast.ActionDecl:
			c.declare(s, l.Name, &Object{Kind: ObjAction, Decl: l}, l.Pos)
			c.actionDecl(s, l)
		case *ast.TableDecl:
			c.declare(s, l.Name, &Object{Kind: ObjTable, Type: &Table{Decl: l}, Decl: l}, l.Pos)
			c.tableDecl(s, l)
		default:
			c.localDecl(s, l)
		}
	}
	c.block(newScope(s), d.Body)
}

func (c *checker) actionDecl(s *Scope, d *ast.ActionDecl) {
	as := newScope(s)
	seenDirless := false
	for _, p := range d.Params {
		if p.Dir == "" {
			seenDirless = true
		} else if seenDirless {
			c.errorf(p.Pos, "action %s: directional parameter %s after a directionless one", d.Name, p.Name)
		}
	}
	c.params(as, d.Params)
	c.inAction = true
	c.block(newScope(as), d.Body)
	c.inAction = false
}

func (c *checker) functionDecl(s *Scope, d *ast.FunctionDecl) {
	if len(d.TypeParams) > 0 {
		return // checked per instantiation, see instantiate
	}
	fs := newScope(s)
	c.typeParams(fs, d.TypeParams)
	c.params(fs, d.Params)
	old := c.retType
	c.retType = c.resolveType(fs, d.Ret)
	c.info.DeclTypes[d] = c.retType
	c.block(newScope(fs), d.Body)
	c.retType = old
}

func (c *checker) localDecl(s *Scope, d ast.Decl) {
	switch d := d.(type) {
	case *ast.ConstDecl:
		c.constDecl(s, d)
	case *ast.VarDecl:
		t := c.resolveType(s, d.Type)
		if d.Init != nil {
			et := c.expr(s, d.Init, t)
			c.assignable(d.Init.Position(), t, et, d.Init)
		}
		c.info.DeclTypes[d] = t
		c.declare(s, d.Name, &Object{Kind: ObjVar, Type: t, Decl: d}, d.Pos)
	case *ast.Instance:
		c.instance(s, d)
	case *ast.ValueSetDecl:
		t := c.resolveType(s, d.Elem)
		c.expr(s, d.Size, nil)
		size := 0
		if v, ok := c.info.Consts[d.Size]; ok {
			size = int(v.Int64())
		}
		vt := &ValueSet{Elem: t, Size: size}
		c.info.DeclTypes[d] = vt
		c.declare(s, d.Name, &Object{Kind: ObjValueSet, Type: vt, Decl: d}, d.Pos)
	default:
		c.errorf(d.Position(), "unexpected declaration")
	}
}

func (c *checker) instance(s *Scope, d *ast.Instance) {
	t := c.resolveType(s, d.Type)
	var params []*ast.Param
	var tparams []string
	bind := map[string]Type{}
	switch u := t.(type) {
	case *Extern:
		ctor := c.pickMethod(u.Decl.Methods, u.Decl.Name, len(d.Args))
		if ctor == nil {
			c.errorf(d.Pos, "extern %s has no constructor with %d arguments", u.Decl.Name, len(d.Args))
		} else {
			params = ctor.Params
		}
		tparams = u.Decl.TypeParams
		for i, tp := range tparams {
			if i < len(u.Args) {
				bind[tp] = u.Args[i]
			}
		}
	case *Block:
		if tp, ok := u.Decl.(*ast.TypeProto); ok {
			tparams = tp.TypeParams
		}
		switch bd := u.Decl.(type) {
		case *ast.ParserDecl:
			params = bd.CtorParams
		case *ast.ControlDecl:
			params = bd.CtorParams
		case *ast.TypeProto:
			params = bd.Params
		}
	default:
		c.errorf(d.Pos, "cannot instantiate %s", t)
	}
	c.args(s, d.Pos, d.Args, params, bind, tparams...)
	c.info.DeclTypes[d] = t
	for _, f := range d.Init {
		if fd, ok := f.(*ast.FunctionDecl); ok {
			c.functionDecl(s, fd)
		}
	}
	c.declare(s, d.Name, &Object{Kind: ObjInstance, Type: t, Decl: d}, d.Pos)
}

// pickMethod chooses the overload called name accepting n arguments.
func (c *checker) pickMethod(ms []*ast.Method, name string, n int) *ast.Method {
	var best *ast.Method
	for _, m := range ms {
		if m.Name != name {
			continue
		}
		min := 0
		for _, p := range m.Params {
			if p.Default == nil && !p.Annos.Has("optional") {
				min++
			}
		}
		if n >= min && n <= len(m.Params) {
			if best == nil || len(m.Params) == n {
				best = m
			}
		}
	}
	return best
}

func (c *checker) tableDecl(s *Scope, d *ast.TableDecl) {
	names := map[string]bool{}
	for _, p := range d.Props {
		if names[p.Name] {
			c.errorf(p.Pos, "table %s: property %s given twice", d.Name, p.Name)
		}
		names[p.Name] = true
		switch p.Name {
		case "key":
			for _, k := range p.Keys {
				t := c.expr(s, k.Expr, nil)
				if Width(t) == 0 {
					c.errorf(k.Pos, "table %s: key of type %s", d.Name, t)
				}
				if !contains(c.info.MatchKinds, k.MatchKind) {
					c.errorf(k.Pos, "unknown match kind %s", k.MatchKind)
				}
			}
		case "actions":
			for _, a := range p.Actions {
				c.actionRef(s, a, true)
			}
		case "default_action":
			ref := exprToRef(p.Value)
			if ref == nil {
				c.errorf(p.Pos, "default_action must be an action call")
				continue
			}
			c.actionRef(s, ref, false)
			if !tableHasAction(d, ref) {
				c.errorf(p.Pos, "default action %s is not in the actions of table %s", refName(ref), d.Name)
			}
		case "entries":
			var keyTypes []Type
			for _, kp := range d.Props {
				if kp.Name == "key" {
					for _, k := range kp.Keys {
						keyTypes = append(keyTypes, c.info.Types[k.Expr])
					}
				}
			}
			for _, e := range p.Entries {
				if len(e.Keys) != len(keyTypes) {
					if !(len(e.Keys) == 1 && len(keyTypes) != 1) {
						c.errorf(e.Pos, "entry has %d keys, table %s has %d", len(e.Keys), d.Name, len(keyTypes))
						continue
					}
				}
				for i, k := range e.Keys {
					if i < len(keyTypes) {
						c.keysetElem(s, k, keyTypes[i])
					}
				}
				if e.Priority != nil {
					c.expr(s, e.Priority, nil)
				}
				c.actionRef(s, e.Action, false)
				if !tableHasAction(d, e.Action) {
					c.errorf(e.Pos, "action %s is not in the actions of table %s", refName(e.Action), d.Name)
				}
			}
		default:
			if p.Value != nil {
				c.expr(s, p.Value, nil)
			}
		}
	}
}

func refName(r *ast.ActionRef) string { return r.Name.(*ast.Ident).Name }

func tableHasAction(d *ast.TableDecl, r *ast.ActionRef) bool {
	for _, p := range d.Props {
		if p.Name == "actions" {
			for _, a := range p.Actions {
				if refName(a) == refName(r) {
					return true
				}
			}
		}
	}
	return false
}

// exprToRef converts a default_action expression into an action reference.
func exprToRef(e ast.Expr) *ast.ActionRef {
	switch e := e.(type) {
	case *ast.Ident:
		return &ast.ActionRef{Pos: e.Pos, Name: e}
	case *ast.Call:
		if id, ok := e.Fun.(*ast.Ident); ok {
			return &ast.ActionRef{Pos: e.Pos, Name: id, Args: e.Args}
		}
	}
	return nil
}

// ActionRefOf exposes exprToRef to later phases.
func ActionRefOf(e ast.Expr) *ast.ActionRef { return exprToRef(e) }

// actionRef resolves an action reference; partial allows only a prefix of
// arguments (the directional ones) as in a table's action list.
func (c *checker) actionRef(s *Scope, r *ast.ActionRef, partial bool) {
	id := r.Name.(*ast.Ident)
	o := c.lookup(s, id)
	if o == nil {
		return
	}
	if o.Kind != ObjAction {
		c.errorf(id.Pos, "%s is not an action", id.Name)
		return
	}
	c.info.Uses[id] = o
	ad := o.Decl.(*ast.ActionDecl)
	params := ad.Params
	if partial {
		n := 0
		for _, p := range params {
			if p.Dir != "" {
				n++
			}
		}
		if len(r.Args) != n && len(r.Args) != 0 {
			c.errorf(r.Pos, "action %s: expected %d arguments in the action list, got %d", ad.Name, n, len(r.Args))
			return
		}
		params = params[:len(r.Args)]
	} else if len(r.Args) != len(params) {
		// directional params are bound by the table's action list
		dirless := 0
		for _, p := range params {
			if p.Dir == "" {
				dirless++
			}
		}
		if len(r.Args) == dirless {
			params = params[len(params)-dirless:]
		} else {
			c.errorf(r.Pos, "action %s expects %d arguments, got %d", ad.Name, len(params), len(r.Args))
			return
		}
	}
	c.args(s, r.Pos, r.Args, params, map[string]Type{})
}

func (c *checker) lookup(s *Scope, id *ast.Ident) *Object {
	var o *Object
	if id.Dot {
		o = s.root().Lookup(id.Name)
	} else {
		o = s.Lookup(id.Name)
	}
	if o == nil {
		c.errorf(id.Pos, "%s is not declared", id.Name)
		return nil
	}
	c.info.Uses[id] = o
	return o
}

// resolveType converts a syntactic type.
func (c *checker) resolveType(s *Scope, t ast.Type) Type {
	switch t := t.(type) {
	case *ast.BitType:
		c.expr(s, t.Width, nil)
		w, ok := c.info.Consts[t.Width]
		if !ok || w.Sign() < 0 || w.Cmp(big.NewInt(2048)) > 0 || t.Signed && w.Sign() == 0 {
			c.errorf(t.Pos, "bad width for %s", map[bool]string{true: "int", false: "bit"}[t.Signed])
			return &Bits{W: 1, Signed: t.Signed}
		}
		return &Bits{W: int(w.Int64()), Signed: t.Signed}
	case *ast.VarbitType:
		c.expr(s, t.Width, nil)
		w, ok := c.info.Consts[t.Width]
		if !ok || w.Sign() <= 0 || w.Cmp(big.NewInt(65536)) > 0 {
			c.errorf(t.Pos, "bad varbit width")
			return &Varbit{Max: 8}
		}
		return &Varbit{Max: int(w.Int64())}
	case *ast.IntType:
		return &InfInt{}
	case *ast.BoolType:
		return &Bool{}
	case *ast.ErrorType:
		return &ErrorT{}
	case *ast.StringType:
		return &String{}
	case *ast.VoidType:
		return &Void{}
	case *ast.DontCareType:
		return &TypeVar{Name: "_"}
	case *ast.StackType:
		et := c.resolveType(s, t.Elem)
		st, ok := Underlying(et).(*Struct)
		if !ok || st.Kind == "struct" {
			c.errorf(t.Pos, "header stack element must be a header or header_union")
			return &Stack{Elem: &Struct{Kind: "header"}, Size: 1}
		}
		c.expr(s, t.Size, nil)
		n, ok := c.info.Consts[t.Size]
		if !ok || n.Sign() <= 0 || n.Cmp(big.NewInt(4096)) > 0 {
			c.errorf(t.Pos, "header stack size must be a positive constant")
			return &Stack{Elem: st, Size: 1}
		}
		return &Stack{Elem: st, Size: int(n.Int64())}
	case *ast.TupleType:
		tt := &Tuple{}
		for _, e := range t.Elems {
			tt.Elems = append(tt.Elems, c.resolveType(s, e))
		}
		return tt
	case *ast.NamedType:
		for i := len(c.typeEnv) - 1; i >= 0; i-- {
			if bt, ok := c.typeEnv[i][t.Name]; ok && len(t.Args) == 0 {
				return bt
			}
		}
		o := s.Lookup(t.Name)
		if o == nil || o.Kind != ObjType && o.Kind != ObjBlock {
			c.errorf(t.Pos, "unknown type %s", t.Name)
			return &TypeVar{Name: t.Name}
		}
		if len(t.Args) == 0 {
			return o.Type
		}
		var args []Type
		for _, a := range t.Args {
			args = append(args, c.resolveType(s, a))
		}
		switch u := o.Type.(type) {
		case *Extern:
			return &Extern{Decl: u.Decl, Args: args}
		case *Block:
			nb := *u
			nb.Args = args
			return &nb
		}
		return o.Type
	}
	c.errorf(t.Position(), "unsupported type")
	return &Void{}
}
