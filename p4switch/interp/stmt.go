package interp

import (
	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// Statement results.
const (
	next   = 0
	ret    = 1 // return from the enclosing action, function or block
	exited = 2 // exit: leave every enclosing control
	brk    = 3 // break out of the innermost loop
	cont   = 4 // continue the innermost loop
)

// maxLoopIterations bounds loops so that a packet cannot stall the switch.
const maxLoopIterations = 1 << 20

type stmtFn func(*State) int

type fnFrame struct {
	retOff int
	retL   *Layout
}

func (c *compiler) block(e *env, b *ast.Block) stmtFn {
	be := newEnv(e, e.prefix)
	var fns []stmtFn
	for _, s := range b.Stmts {
		if f := c.stmt(be, s); f != nil {
			fns = append(fns, f)
		}
	}
	switch len(fns) {
	case 0:
		return func(*State) int { return next }
	case 1:
		f := fns[0]
		return f
	}
	return func(st *State) int {
		for _, f := range fns {
			if r := f(st); r != next {
				return r
			}
		}
		return next
	}
}

// exitAware wraps a statement that evaluates calls inside expressions:
// an exit signalled there is turned into the exited result.
func exitAware(f func(*State)) stmtFn {
	return func(st *State) int {
		f(st)
		if st.exit {
			return exited
		}
		return next
	}
}

func (c *compiler) stmt(e *env, s ast.Stmt) stmtFn {
	switch s := s.(type) {
	case *ast.Empty:
		return nil
	case *ast.Block:
		return c.block(e, s)
	case *ast.Exit:
		return func(*State) int { return exited }
	case *ast.Return:
		if s.Value == nil {
			return func(*State) int { return ret }
		}
		fr := c.fnStack[len(c.fnStack)-1]
		set := c.assign(&lval{l: fr.retL, static: true, off: fr.retOff, hv: -1}, c.expr(e, s.Value))
		return func(st *State) int {
			set(st)
			if st.exit {
				return exited
			}
			return ret
		}
	case *ast.Assign:
		lv := c.lvalue(e, s.LHS)
		var v val
		if s.Op == "=" {
			v = c.expr(e, s.RHS)
		} else {
			op := check.CompoundOp(s.Op)
			bin := &ast.Binary{Pos: s.Pos, Op: op, X: s.LHS, Y: s.RHS}
			c.info.Types[bin] = c.typeOf(s.LHS)
			v = c.binary(e, bin, c.typeOf(s.LHS))
		}
		if hasCall(s.RHS) {
			// an exit inside the right-hand side aborts the assignment
			fix, pinned := c.pin(lv)
			tmp := &lval{l: lv.l, static: true, off: c.alloc(lv.l.Size), hv: -1}
			eval, store := c.assign(tmp, v), c.assign(pinned, c.load(tmp))
			return func(st *State) int {
				if fix != nil {
					fix(st)
				}
				eval(st)
				if st.exit {
					return exited
				}
				store(st)
				return next
			}
		}
		return exitAware(c.assign(lv, v))
	case *ast.CallStmt:
		return c.callStmt(e, s.Call)
	case *ast.If:
		cond := c.cond(e, s.Cond)
		then := c.stmt(newEnv(e, e.prefix), s.Then)
		if then == nil {
			then = func(*State) int { return next }
		}
		if s.Else == nil {
			return func(st *State) int {
				c := cond(st)
				if st.exit {
					return exited
				}
				if c {
					return then(st)
				}
				return next
			}
		}
		els := c.stmt(newEnv(e, e.prefix), s.Else)
		if els == nil {
			els = func(*State) int { return next }
		}
		return func(st *State) int {
			c := cond(st)
			if st.exit {
				return exited
			}
			if c {
				return then(st)
			}
			return els(st)
		}
	case *ast.Switch:
		return c.switchStmt(e, s)
	case *ast.Break:
		return func(*State) int { return brk }
	case *ast.Continue:
		return func(*State) int { return cont }
	case *ast.For:
		return c.forStmt(e, s)
	case *ast.ForIn:
		return c.forIn(e, s)
	case *ast.DeclStmt:
		switch d := s.Decl.(type) {
		case *ast.VarDecl:
			return exitAware(func(f func(*State) int) func(*State) { return func(st *State) { f(st) } }(c.varDecl(e, d)))
		case *ast.ConstDecl:
			c.constDecl(e, d)
			return nil
		case *ast.Instance:
			e.objs[d] = c.instance(e, d)
			return nil
		}
	}
	c.fail(s.Position(), "unsupported statement")
	return nil
}

func (c *compiler) switchStmt(e *env, s *ast.Switch) stmtFn {
	xt := c.typeOf(s.X)
	type arm struct {
		body stmtFn
	}
	bodies := make([]stmtFn, len(s.Cases))
	// fall-through: a case without body uses the next case's body
	for i := len(s.Cases) - 1; i >= 0; i-- {
		if s.Cases[i].Body != nil {
			bodies[i] = c.block(e, s.Cases[i].Body)
		} else if i+1 < len(s.Cases) {
			bodies[i] = bodies[i+1]
		} else {
			bodies[i] = func(*State) int { return next }
		}
	}
	var dflt stmtFn = func(*State) int { return next }
	if _, ok := xt.(*check.ActionEnum); ok {
		m, ok := s.X.(*ast.Member)
		call, ok2 := m.X.(*ast.Call)
		if !ok || !ok2 {
			c.fail(s.Pos, "switch on action_run needs t.apply().action_run")
		}
		apply := c.tableApplyCall(e, call)
		byAction := map[*ast.ActionDecl]stmtFn{}
		for i, cs := range s.Cases {
			for _, l := range cs.Labels {
				if _, ok := l.(*ast.Default); ok {
					dflt = bodies[i]
					continue
				}
				o := c.info.Uses[l.(*ast.Ident)]
				ad := o.Decl.(*ast.ActionDecl)
				if _, dup := byAction[ad]; !dup {
					byAction[ad] = bodies[i]
				}
			}
		}
		return func(st *State) int {
			_, act := apply(st)
			if st.exit {
				return exited
			}
			if act != nil {
				if b, ok := byAction[act.Decl]; ok {
					return b(st)
				}
			}
			return dflt(st)
		}
	}
	x := c.expr(e, s.X)
	if x.u == nil {
		return c.wideSwitch(x, xt, s, bodies, dflt)
	}
	xu := x.u
	cases := map[uint64]stmtFn{}
	for i, cs := range s.Cases {
		for _, l := range cs.Labels {
			if _, ok := l.(*ast.Default); ok {
				dflt = bodies[i]
				continue
			}
			v := c.constVal(xt, c.info.Consts[l])
			k := v.u(nil)
			if _, dup := cases[k]; !dup {
				cases[k] = bodies[i]
			}
		}
	}
	return func(st *State) int {
		k := xu(st)
		if st.exit {
			return exited
		}
		if b, ok := cases[k]; ok {
			return b(st)
		}
		return dflt(st)
	}
}

// wideSwitch is switch on a value wider than 64 bits: cases are looked up by
// the value's hexadecimal digits.
func (c *compiler) wideSwitch(x val, xt check.Type, s *ast.Switch, bodies []stmtFn, dflt stmtFn) stmtFn {
	xb := x.toBig()
	cases := map[string]stmtFn{}
	for i, cs := range s.Cases {
		for _, l := range cs.Labels {
			if _, ok := l.(*ast.Default); ok {
				dflt = bodies[i]
				continue
			}
			k := c.constVal(xt, c.info.Consts[l]).toBig()(nil).Text(16)
			if _, dup := cases[k]; !dup {
				cases[k] = bodies[i]
			}
		}
	}
	return func(st *State) int {
		k := xb(st).Text(16)
		if st.exit {
			return exited
		}
		if b, ok := cases[k]; ok {
			return b(st)
		}
		return dflt(st)
	}
}

func (c *compiler) forStmt(e *env, s *ast.For) stmtFn {
	fe := newEnv(e, e.prefix)
	var init, update []stmtFn
	for _, x := range s.Init {
		if f := c.stmt(fe, x); f != nil {
			init = append(init, f)
		}
	}
	cond := func(*State) bool { return true }
	if s.Cond != nil {
		cond = c.cond(fe, s.Cond)
	}
	for _, x := range s.Update {
		if f := c.stmt(fe, x); f != nil {
			update = append(update, f)
		}
	}
	body := c.stmt(newEnv(fe, e.prefix), s.Body)
	if body == nil {
		body = func(*State) int { return next }
	}
	return func(st *State) int {
		for _, f := range init {
			if r := f(st); r != next {
				return r
			}
		}
		for i := 0; i < maxLoopIterations && cond(st); i++ {
			switch r := body(st); r {
			case brk:
				return next
			case ret, exited:
				return r
			}
			for _, f := range update {
				if r := f(st); r != next {
					return r
				}
			}
		}
		if st.exit {
			return exited
		}
		return next
	}
}

func (c *compiler) forIn(e *env, s *ast.ForIn) stmtFn {
	fe := newEnv(e, e.prefix)
	c.varDecl(fe, s.Var)
	off, _ := fe.slot(s.Var)
	l := c.layoutOf(c.info.DeclTypes[s.Var])
	if l.Words != 1 {
		c.fail(s.Pos, "for-in variables wider than 64 bits are not supported")
	}
	lo, hi := c.scalarU(c.expr(fe, s.Lo), l), c.scalarU(c.expr(fe, s.Hi), l)
	body := c.stmt(newEnv(fe, e.prefix), s.Body)
	if body == nil {
		body = func(*State) int { return next }
	}
	return func(st *State) int {
		from, to := lo(st), hi(st)
		for v, i := from, 0; v <= to && i < maxLoopIterations; v, i = v+1, i+1 {
			st.S[off] = v
			switch r := body(st); r {
			case brk:
				return next
			case ret, exited:
				return r
			}
			if v == to {
				break
			}
		}
		return next
	}
}

// hasCall reports whether an expression contains a call (which may exit).
func hasCall(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if _, ok := n.(*ast.Call); ok {
			found = true
		}
		return !found
	})
	return found
}
