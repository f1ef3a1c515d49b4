// Package bmv2check rejects what p4c-bm2-ss (p4c's BMv2 back end) rejects
// beyond p4switch's own front end, so that a program p4switch accepts with
// `check --target bmv2` also compiles for BMv2. The messages are p4c's.
//
// Language rules p4c's front end enforces and p4switch's interpreter does
// not need:
//   - no instances in an apply block;
//   - at most one default label per switch;
//   - every parser reaches accept or reject;
//   - a type parameter bound only by an integer literal has no width;
//   - action data in default actions and entries is compile-time constant;
//   - action data is bit<>, int<>, bool, a new type or a serializable enum;
//   - entry priorities: only for tables that need them, all-or-from-the-first,
//     no computed priority below 1;
//   - no declaration shadows a parameter (p4c: --Werror=shadow).
//
// Limits of the BMv2 target:
//   - shift amounts of at most 8 bits unless constant;
//   - no struct or header read out of a register;
//   - no extern function or method returning a struct.
package bmv2check

import (
	"fmt"
	"sort"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

// Check returns the errors p4c-bm2-ss would report for a checked program
// (nil if none), sorted by position.
func Check(info *check.Info) error {
	c := &checker{info: info}
	for _, d := range info.Program.Decls {
		c.decl(d, nil)
	}
	for call, ci := range info.Calls {
		c.call(call, ci)
	}
	if len(c.errs) == 0 {
		return nil
	}
	sort.SliceStable(c.errs, func(i, j int) bool {
		a, b := c.errs[i].Pos, c.errs[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return c.errs
}

type checker struct {
	info *check.Info
	errs check.Errors
}

func (c *checker) errorf(pos token.Pos, format string, a ...any) {
	c.errs = append(c.errs, &token.Error{Pos: pos, Msg: fmt.Sprintf(format, a...)})
}

// decl checks a declaration; params are the parameters of the enclosing
// parser or control (nil at top level).
func (c *checker) decl(d ast.Decl, params []*ast.Param) {
	switch d := d.(type) {
	case *ast.ControlDecl:
		ps := append(append([]*ast.Param{}, d.Params...), d.CtorParams...)
		for _, l := range d.Locals {
			c.shadow(l.DeclName(), l.Position(), ps)
			c.decl(l, ps)
		}
		c.stmts(d.Body, ps, true)
	case *ast.ParserDecl:
		ps := append(append([]*ast.Param{}, d.Params...), d.CtorParams...)
		for _, l := range d.Locals {
			c.shadow(l.DeclName(), l.Position(), ps)
			c.decl(l, ps)
		}
		for _, s := range d.States {
			for _, st := range s.Stmts {
				c.stmt(st, ps, false)
			}
		}
		c.parserTerminates(d)
	case *ast.ActionDecl:
		for _, p := range d.Params {
			c.shadow(p.Name, p.Pos, params)
			if p.Dir == "" {
				c.actionDataType(p)
			}
		}
		c.stmts(d.Body, append(append([]*ast.Param{}, params...), d.Params...), false)
	case *ast.FunctionDecl:
		c.stmts(d.Body, d.Params, false)
	case *ast.TableDecl:
		c.table(d, params)
	}
}

// shadow reports a declaration named like a parameter of the block.
func (c *checker) shadow(name string, pos token.Pos, params []*ast.Param) {
	for _, p := range params {
		if p.Name == name {
			c.errorf(pos, "declaration of '%s' shadows a parameter '%s'", name, p.Name)
			return
		}
	}
}

func (c *checker) stmts(b *ast.Block, params []*ast.Param, applyBlock bool) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		c.stmt(s, params, applyBlock)
	}
}

func (c *checker) stmt(s ast.Stmt, params []*ast.Param, applyBlock bool) {
	switch s := s.(type) {
	case *ast.Block:
		c.stmts(s, params, applyBlock)
	case *ast.If:
		c.expr(s.Cond)
		c.stmt(s.Then, params, applyBlock)
		if s.Else != nil {
			c.stmt(s.Else, params, applyBlock)
		}
	case *ast.Switch:
		c.expr(s.X)
		var defaults []ast.Expr
		for _, cs := range s.Cases {
			for _, l := range cs.Labels {
				if _, ok := l.(*ast.Default); ok {
					defaults = append(defaults, l)
				}
			}
			c.stmts(cs.Body, params, applyBlock)
		}
		if len(defaults) > 1 {
			c.errorf(s.Pos, "switch has multiple 'default' labels (%s)", positions(defaults))
		}
	case *ast.DeclStmt:
		switch d := s.Decl.(type) {
		case *ast.Instance:
			if applyBlock {
				c.errorf(d.Pos, "%s: Invalid %s: instances cannot be in a control 'apply' block", d.Name, d.Name)
			}
		case *ast.VarDecl:
			c.shadow(d.Name, d.Pos, params)
			c.expr(d.Init)
		case *ast.ConstDecl:
			c.shadow(d.Name, d.Pos, params)
			c.expr(d.Value)
		}
	case *ast.Assign:
		c.expr(s.LHS)
		c.expr(s.RHS)
	case *ast.CallStmt:
		c.expr(s.Call)
	case *ast.Return:
		c.expr(s.Value)
	case *ast.For:
		for _, st := range s.Init {
			c.stmt(st, params, applyBlock)
		}
		c.expr(s.Cond)
		for _, st := range s.Update {
			c.stmt(st, params, applyBlock)
		}
		c.stmt(s.Body, params, applyBlock)
	case *ast.ForIn:
		c.stmt(s.Body, params, applyBlock)
	}
}

func positions(es []ast.Expr) string {
	s := ""
	for i, e := range es {
		if i > 0 {
			s += ", "
		}
		s += e.Position().String()
	}
	return s
}

// expr checks the shifts of an expression: BMv2 takes shift amounts of at
// most 8 bits unless they are constant.
func (c *checker) expr(e ast.Expr) {
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.Binary)
		if !ok || (b.Op != "<<" && b.Op != ">>") {
			return true
		}
		if _, constant := c.info.Consts[b.Y]; constant {
			return true
		}
		if t, ok := check.Underlying(c.info.Types[b.Y]).(*check.Bits); ok && t.W > 8 {
			c.errorf(b.Pos, "%s: shift amount limited to 8 bits on this target", exprString(b))
		}
		return true
	})
}

// parserTerminates reports a parser whose transitions from start never
// reach accept or reject (a select without a default case may reject).
func (c *checker) parserTerminates(d *ast.ParserDecl) {
	states := map[string]*ast.State{}
	for _, s := range d.States {
		states[s.Name] = s
	}
	seen := map[string]bool{}
	work := []string{"start"}
	for len(work) > 0 {
		name := work[len(work)-1]
		work = work[:len(work)-1]
		if name == "accept" || name == "reject" {
			return
		}
		s, ok := states[name]
		if !ok || seen[name] {
			continue
		}
		seen[name] = true
		if s.Select == nil {
			if s.Next == "" {
				return // no transition: accept
			}
			work = append(work, s.Next)
			continue
		}
		hasDefault := false
		for _, cs := range s.Select.Cases {
			switch k := cs.Keyset.(type) {
			case *ast.Default, *ast.DontCare:
				hasDefault = true
			case *ast.ListExpr:
				all := true
				for _, e := range k.Elems {
					switch e.(type) {
					case *ast.Default, *ast.DontCare:
					default:
						all = false
					}
				}
				hasDefault = hasDefault || all
			}
			work = append(work, cs.Next)
		}
		if !hasDefault {
			return // no match rejects
		}
	}
	if len(states) > 0 {
		c.errorf(d.Pos, "parser %s: Parser never reaches accept or reject state", d.Name)
	}
}

// actionDataType reports an action parameter the control plane could not
// supply.
func (c *checker) actionDataType(p *ast.Param) {
	switch t := check.Underlying(c.info.DeclTypes[p]).(type) {
	case *check.Bits, *check.Bool, *check.InfInt, *check.NewType, nil:
		return
	case *check.Enum:
		if t.Decl != nil && t.Decl.Base != nil {
			return
		}
	}
	c.errorf(p.Pos, "Action parameter %s has a type which is not bit<>, int<>, bool, type or serializable enum", p.Name)
}

func (c *checker) table(d *ast.TableDecl, params []*ast.Param) {
	var keyProp, entriesProp *ast.TableProp
	largest, delta := true, int64(1)
	for _, p := range d.Props {
		c.shadow(p.Name, p.Pos, params)
		switch p.Name {
		case "key":
			keyProp = p
			for _, k := range p.Keys {
				c.expr(k.Expr)
			}
		case "entries":
			entriesProp = p
		case "default_action":
			if call, ok := p.Value.(*ast.Call); ok {
				if a := c.actionOf(call.Fun); a != nil {
					c.constantActionData(a, call.Args)
				}
			}
		case "largest_priority_wins":
			if v, ok := c.info.Consts[p.Value]; ok {
				largest = v.Sign() != 0
			}
		case "priority_delta":
			if v, ok := c.info.Consts[p.Value]; ok {
				delta = v.Int64()
			}
		}
	}
	if entriesProp == nil || len(entriesProp.Entries) == 0 {
		return
	}
	entries := entriesProp.Entries
	for _, en := range entries {
		if en.Action == nil {
			continue
		}
		if a := c.actionOf(en.Action.Name); a != nil {
			c.constantActionData(a, en.Action.Args)
		}
	}
	anyPriority := false
	for _, en := range entries {
		anyPriority = anyPriority || en.Priority != nil
	}
	if !anyPriority {
		return
	}
	needsPriority := false
	if keyProp != nil {
		for _, k := range keyProp.Keys {
			if k.MatchKind != "exact" && k.MatchKind != "lpm" {
				needsPriority = true
			}
		}
	}
	if !needsPriority {
		pos := d.Pos
		if keyProp != nil {
			pos = keyProp.Pos
		}
		c.errorf(pos, "Key key match type does not require priorities, but some are specified")
		return
	}
	if entries[0].Priority == nil {
		c.errorf(entries[0].Pos, "Entry entry must have a priority")
		return
	}
	var prio int64
	for i, en := range entries {
		switch {
		case en.Priority != nil:
			v, ok := c.info.Consts[en.Priority]
			if !ok {
				return
			}
			prio = v.Int64()
		case largest:
			prio -= delta
		default:
			prio += delta
		}
		if prio < 1 || prio > 1<<31-1 {
			c.errorf(d.Pos, "%s Overflow in priority computation (entry %d)", d.Name, i+1)
			return
		}
	}
}

// actionOf is the action a name refers to (nil if it is none).
func (c *checker) actionOf(name ast.Expr) *ast.ActionDecl {
	id, ok := name.(*ast.Ident)
	if !ok {
		return nil
	}
	if o := c.info.Uses[id]; o != nil {
		a, _ := o.Decl.(*ast.ActionDecl)
		return a
	}
	return nil
}

// constantActionData reports action data (arguments of directionless
// parameters) that is not a compile-time constant.
func (c *checker) constantActionData(a *ast.ActionDecl, args []ast.Arg) {
	var data []*ast.Param
	for _, p := range a.Params {
		if p.Dir == "" {
			data = append(data, p)
		}
	}
	dirs := len(a.Params) - len(data)
	for i, arg := range args {
		if i < dirs || arg.Value == nil {
			continue
		}
		if !c.constant(arg.Value) {
			c.errorf(arg.Value.Position(), "%s: action argument must be a compile-time constant", exprString(arg.Value))
		}
	}
}

// constant reports whether e refers to no variable, parameter or instance.
func (c *checker) constant(e ast.Expr) bool {
	if _, ok := c.info.Consts[e]; ok {
		return true
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if o := c.info.Uses[n]; o != nil {
				switch o.Kind {
				case check.ObjVar, check.ObjParam, check.ObjInstance, check.ObjTable:
					ok = false
				}
			}
		case *ast.Call:
			ok = false
		}
		return ok
	})
	return ok
}

// call checks the calls BMv2 cannot run and type parameters bound only by
// integer literals.
func (c *checker) call(call *ast.Call, ci *check.CallInfo) {
	switch ci.Kind {
	case check.CallExternFunc, check.CallExternMethod:
		if _, ok := check.Underlying(ci.Ret).(*check.Struct); ok {
			c.errorf(call.Pos, "%s: functions or methods returning structures are not supported on this target", ci.Name)
		}
		if ci.Extern != nil && ci.Extern.Decl != nil && ci.Extern.Decl.Name == "register" && ci.Name == "read" && len(call.Args) > 0 {
			if _, ok := check.Underlying(c.info.Types[call.Args[0].Value]).(*check.Struct); ok {
				c.errorf(call.Args[0].Value.Position(), "%s: writing to a structure is not supported on this target", exprString(call.Args[0].Value))
			}
		}
	}
	if ci.Method == nil || len(call.TypeArgs) > 0 {
		return
	}
	// A type parameter is inferred from the arguments; an integer literal
	// without a width gives it none.
	bound := map[string]bool{}
	var literals []struct {
		tv  string
		arg ast.Expr
	}
	for i, p := range ci.Method.Params {
		if i >= len(call.Args) || call.Args[i].Value == nil {
			continue
		}
		nt, ok := p.Type.(*ast.NamedType)
		if !ok || !contains(ci.Method.TypeParams, nt.Name) && !c.externTypeParam(ci, nt.Name) {
			continue
		}
		arg := call.Args[i].Value
		if _, inf := c.info.Types[arg].(*check.InfInt); inf {
			literals = append(literals, struct {
				tv  string
				arg ast.Expr
			}{nt.Name, arg})
		} else {
			bound[nt.Name] = true
		}
	}
	for _, l := range literals {
		if !bound[l.tv] && c.externTypeParam(ci, l.tv) == false {
			c.errorf(l.arg.Position(), "%s: could not infer a width", exprString(l.arg))
		}
	}
}

// externTypeParam reports whether name is a type parameter of the
// receiver's extern type (bound when the instance was declared).
func (c *checker) externTypeParam(ci *check.CallInfo, name string) bool {
	return ci.Extern != nil && ci.Extern.Decl != nil && contains(ci.Extern.Decl.TypeParams, name)
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
