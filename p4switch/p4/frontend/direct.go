package frontend

import (
	"fmt"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

// instantiateDirectCalls rewrites direct invocations "T.apply(args);" of a
// control or parser type T without constructor parameters into a call of an
// instance declared in the enclosing block, as p4c's front end does:
//
//	@name("T") T() T_inst;  ...  T_inst.apply(args);
//
// Each invocation gets its own instance.
func instantiateDirectCalls(p *ast.Program) {
	types := map[string]bool{}
	for _, d := range p.Decls {
		switch d := d.(type) {
		case *ast.ControlDecl:
			types[d.Name] = len(d.CtorParams) == 0
		case *ast.ParserDecl:
			types[d.Name] = len(d.CtorParams) == 0
		}
	}
	for _, d := range p.Decls {
		switch d := d.(type) {
		case *ast.ControlDecl:
			r := newDirectRewriter(types, d.Params, d.CtorParams, d.Locals)
			r.block(d.Body)
			d.Locals = append(d.Locals, r.added...)
		case *ast.ParserDecl:
			r := newDirectRewriter(types, d.Params, d.CtorParams, d.Locals)
			for _, s := range d.States {
				r.stmts(s.Stmts)
			}
			d.Locals = append(d.Locals, r.added...)
		}
	}
}

type directRewriter struct {
	types map[string]bool // top-level controls and parsers: true when directly invocable
	taken map[string]bool // names declared in the block
	added []ast.Decl
}

func newDirectRewriter(types map[string]bool, params, ctorParams []*ast.Param, locals []ast.Decl) *directRewriter {
	r := &directRewriter{types: types, taken: map[string]bool{}}
	for _, ps := range [][]*ast.Param{params, ctorParams} {
		for _, p := range ps {
			r.taken[p.Name] = true
		}
	}
	for _, d := range locals {
		switch d := d.(type) {
		case *ast.ConstDecl:
			r.taken[d.Name] = true
		case *ast.VarDecl:
			r.taken[d.Name] = true
		case *ast.ActionDecl:
			r.taken[d.Name] = true
		case *ast.TableDecl:
			r.taken[d.Name] = true
		case *ast.Instance:
			r.taken[d.Name] = true
		case *ast.ValueSetDecl:
			r.taken[d.Name] = true
		}
	}
	return r
}

func (r *directRewriter) block(b *ast.Block) {
	if b != nil {
		r.stmts(b.Stmts)
	}
}

func (r *directRewriter) stmts(ss []ast.Stmt) {
	for _, s := range ss {
		r.stmt(s)
	}
}

func (r *directRewriter) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.CallStmt:
		r.call(s.Call)
	case *ast.Block:
		r.block(s)
	case *ast.If:
		r.stmt(s.Then)
		if s.Else != nil {
			r.stmt(s.Else)
		}
	case *ast.Switch:
		for _, c := range s.Cases {
			r.block(c.Body)
		}
	case *ast.For:
		r.stmt(s.Body)
	case *ast.ForIn:
		r.stmt(s.Body)
	}
}

func (r *directRewriter) call(c *ast.Call) {
	m, ok := c.Fun.(*ast.Member)
	if !ok || m.Name != "apply" {
		return
	}
	id, ok := m.X.(*ast.Ident)
	if !ok || !r.types[id.Name] || r.taken[id.Name] && !id.Dot {
		return
	}
	name := id.Name + "_inst"
	for i := 0; r.taken[name]; i++ {
		name = fmt.Sprintf("%s_inst_%d", id.Name, i)
	}
	r.taken[name] = true
	r.added = append(r.added, &ast.Instance{
		Pos:   id.Pos,
		Annos: ast.Annotations{{Pos: id.Pos, Name: "name", Args: []ast.Expr{&ast.StringLit{Pos: id.Pos, Value: id.Name}}}},
		Type:  &ast.NamedType{Pos: id.Pos, Name: id.Name},
		Name:  name,
	})
	m.X = &ast.Ident{Pos: id.Pos, Name: name}
}
