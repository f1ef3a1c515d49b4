package interp

import (
	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// orderedArgs matches call arguments to parameters (nil for missing ones).
func orderedArgs(args []ast.Arg, params []*ast.Param) []ast.Expr {
	out := make([]ast.Expr, len(params))
	for i, a := range args {
		if a.Name == "" {
			if i < len(out) {
				out[i] = a.Value
			}
			continue
		}
		for j, p := range params {
			if p.Name == a.Name {
				out[j] = a.Value
			}
		}
	}
	for i, p := range params {
		if out[i] == nil && p.Default != nil {
			out[i] = p.Default
		}
	}
	return out
}

// bindArgs compiles copy-in (into the parameter slots at offs) and copy-out.
//
// touched (nil for actions and functions) gives, per in/inout parameter of a
// block instance, the parts the instance accesses: those are all that is
// copied when the arguments cannot overlap (see touches.go).
func (c *compiler) bindArgs(e *env, args []ast.Arg, params []*ast.Param, offs []int, touched [][]segment) (in, out func(*State)) {
	ordered := orderedArgs(args, params)
	partial := c.partialCopies(e, ordered, params, offs, touched)
	var evals, copies, outs []func(*State)
	for i, p := range params {
		if offs[i] < 0 {
			continue // packet_in/packet_out: shared, nothing to copy
		}
		l := c.layoutOf(c.info.DeclTypes[p])
		off, n := offs[i], l.Size
		a := ordered[i]
		_, dontCare := a.(*ast.DontCare)
		if from, ok := partial[i]; ok {
			segs := touched[i]
			for _, s := range segs {
				c.touch(from+s.off, s.n)
			}
			// copied in as the argument is evaluated (left to right)
			evals = append(evals, func(st *State) {
				for _, s := range segs {
					copy(st.S[off+s.off:off+s.off+s.n], st.S[from+s.off:from+s.off+s.n])
				}
			})
			if p.Dir == "inout" {
				outs = append(outs, func(st *State) {
					for _, s := range segs {
						copy(st.S[from+s.off:from+s.off+s.n], st.S[off+s.off:off+s.off+s.n])
					}
				})
			}
			continue
		}
		switch {
		case p.Dir == "out":
			copies = append(copies, func(st *State) { clear(st.S[off : off+n]) })
		case a == nil || dontCare:
			copies = append(copies, func(st *State) { clear(st.S[off : off+n]) })
		default:
			tmp := c.alloc(n)
			store := c.storeFn(c.expr(e, a), l)
			evals = append(evals, func(st *State) { store(st, st.S[tmp:tmp+n]) })
			copies = append(copies, func(st *State) { copy(st.S[off:off+n], st.S[tmp:tmp+n]) })
		}
		if (p.Dir == "out" || p.Dir == "inout") && a != nil && !dontCare {
			// the argument's location is fixed at the call, not at copy-out
			fix, lv := c.pin(c.lvalue(e, a))
			if fix != nil {
				evals = append(evals, fix)
			}
			outs = append(outs, c.assign(lv, c.load(&lval{l: l, static: true, off: off, hv: -1})))
		}
	}
	in = func(st *State) {
		for _, f := range evals {
			f(st)
		}
		for _, f := range copies {
			f(st)
		}
	}
	out = func(st *State) {
		for _, f := range outs {
			f(st)
		}
	}
	return in, out
}

// partialCopies returns, for each parameter whose touched parts alone are
// copied, the argument's first slot. That needs every argument bound to an
// in, out or inout parameter that is storage to be at static slots that no
// other such argument overlaps.
func (c *compiler) partialCopies(e *env, args []ast.Expr, params []*ast.Param, offs []int, touched [][]segment) map[int]int {
	if touched == nil {
		return nil
	}
	type span struct{ i, off, n int }
	var spans []span
	for i, p := range params {
		if offs[i] < 0 || args[i] == nil {
			continue
		}
		if _, dontCare := args[i].(*ast.DontCare); dontCare {
			continue
		}
		lv, ok := c.staticArg(e, args[i])
		if !ok {
			if p.Dir != "in" || isStorage(args[i]) {
				return nil // a run-time location might overlap another argument
			}
			continue // a computed value: copied in, cannot overlap
		}
		if lv.l.Kind == KScalar {
			// a scalar is one copy anyway; and its type may differ from the parameter's
			if p.Dir != "in" {
				return nil
			}
			continue
		}
		spans = append(spans, span{i, lv.off, lv.l.Size})
	}
	for a := range spans {
		for b := a + 1; b < len(spans); b++ {
			if spans[a].off < spans[b].off+spans[b].n && spans[b].off < spans[a].off+spans[a].n {
				return nil
			}
		}
	}
	partial := map[int]int{}
	for _, s := range spans {
		if touched[s.i] != nil && s.n == c.layoutOf(c.info.DeclTypes[params[s.i]]).Size {
			partial[s.i] = s.off
		}
	}
	return partial
}

func (c *compiler) callStmt(e *env, call *ast.Call) stmtFn {
	ci := c.info.Calls[call]
	if ci == nil {
		c.fail(call.Pos, "internal: unresolved call")
	}
	switch ci.Kind {
	case check.CallTableApply:
		apply := c.tableApplyCall(e, call)
		return func(st *State) int {
			apply(st)
			if st.exit {
				return exited
			}
			return next
		}
	case check.CallAction:
		a := c.action(e, ci.Action)
		offs := c.paramOffsets(a)
		in, out := c.bindArgs(e, call.Args, ci.Action.Params, offs, nil)
		run := a.Run
		return func(st *State) int {
			in(st)
			r := run(st)
			out(st)
			if r == exited || st.exit {
				return exited
			}
			return next
		}
	case check.CallFunction:
		run, _ := c.functionCall(e, call, ci)
		return func(st *State) int {
			if run(st) == exited || st.exit {
				return exited
			}
			return next
		}
	case check.CallBlockApply:
		return c.blockApply(e, call, ci)
	case check.CallHeaderMethod:
		return c.headerMethod(e, call, ci)
	case check.CallStackMethod:
		return c.stackMethod(e, call, ci)
	case check.CallExternFunc, check.CallExternMethod:
		run, _ := c.externCall(e, call, ci)
		return run
	}
	c.fail(call.Pos, "unsupported call statement")
	return nil
}

// paramOffsets returns the slots of all parameters of an action.
func (c *compiler) paramOffsets(a *Action) []int {
	var offs []int
	ae := c.actionEnvs[a]
	for _, p := range a.Decl.Params {
		offs = append(offs, ae.vars[p])
	}
	return offs
}

func (c *compiler) callExpr(e *env, call *ast.Call) val {
	ci := c.info.Calls[call]
	t := c.typeOf(call)
	switch ci.Kind {
	case check.CallHeaderMethod:
		if ci.Name != "isValid" {
			break
		}
		lv := c.lvalue(e, ci.Recv)
		l := c.layoutOf(t)
		if lv.l.Kind == KUnion {
			var offs []int
			for _, f := range lv.l.Fields {
				offs = append(offs, f.Off)
			}
			return val{t: t, l: l, u: func(st *State) uint64 {
				a := lv.address(st)
				if a < 0 {
					return 0
				}
				for _, o := range offs {
					if st.S[a+o] != 0 {
						return 1
					}
				}
				return 0
			}}
		}
		if lv.static {
			off := lv.off
			return val{t: t, l: l, u: func(st *State) uint64 { return st.S[off] }}
		}
		return val{t: t, l: l, u: func(st *State) uint64 {
			a := lv.address(st)
			if a < 0 {
				return 0
			}
			return st.S[a]
		}}
	case check.CallFunction:
		run, res := c.functionCall(e, call, ci)
		return c.withPre(res, func(st *State) {
			if run(st) == exited {
				st.exit = true
			}
		})
	case check.CallExternFunc, check.CallExternMethod:
		run, res := c.externCall(e, call, ci)
		if res.l == nil {
			c.fail(call.Pos, "%s has no value", ci.Name)
		}
		return c.withPre(res, func(st *State) { run(st) })
	}
	c.fail(call.Pos, "unsupported call in an expression")
	return val{}
}

// withPre returns v evaluated after running pre.
func (c *compiler) withPre(v val, pre func(*State)) val {
	out := v
	out.lv = nil
	switch {
	case v.u != nil:
		u := v.u
		out.u = func(st *State) uint64 { pre(st); return u(st) }
	case v.b != nil:
		b := v.b
		out.b = func(st *State) *bigInt { pre(st); return b(st) }
	case v.agg != nil:
		g := v.agg
		out.agg = func(st *State, dst []uint64) { pre(st); g(st, dst) }
	}
	return out
}

// functionCall compiles a call of a P4 function; the result lives in return slots.
func (c *compiler) functionCall(e *env, call *ast.Call, ci *check.CallInfo) (func(*State) int, val) {
	fd := ci.Function
	fc := c.functionInst(fd)
	in, out := c.bindArgs(e, call.Args, fd.Params, fc.offs, nil)
	body := fc.body
	run := func(st *State) int {
		in(st)
		r := body(st)
		out(st)
		if r == exited {
			return exited
		}
		return next
	}
	var res val
	if fc.retL != nil && fc.retL.Kind != KNone {
		res = c.load(&lval{l: fc.retL, static: true, off: fc.retOff, hv: -1})
	}
	return run, res
}

type funcInst struct {
	offs   []int
	body   stmtFn
	retOff int
	retL   *Layout
}

func (c *compiler) functionInst(fd *ast.FunctionDecl) *funcInst {
	if fi, ok := c.funcs[fd]; ok {
		return fi
	}
	fi := &funcInst{}
	c.funcs[fd] = fi
	fe := newEnv(c.topEnv, "")
	for _, p := range fd.Params {
		l := c.layoutOf(c.info.DeclTypes[p])
		off := c.alloc(l.Size)
		fe.vars[p] = off
		fi.offs = append(fi.offs, off)
	}
	rt := c.resolveRet(fd)
	if rt != nil {
		fi.retL = c.layoutOf(rt)
		fi.retOff = c.alloc(fi.retL.Size)
	}
	c.fnStack = append(c.fnStack, &fnFrame{retOff: fi.retOff, retL: fi.retL})
	fi.body = c.block(fe, fd.Body)
	c.fnStack = c.fnStack[:len(c.fnStack)-1]
	return fi
}

func (c *compiler) blockApply(e *env, call *ast.Call, ci *check.CallInfo) stmtFn {
	bi, ok := c.objOf(e, ci.Recv).(*blockInst)
	if !ok {
		c.fail(call.Pos, "cannot apply this instance")
	}
	in, out := c.bindArgs(e, call.Args, bi.params, bi.offs, bi.touched)
	run := bi.run
	if bi.isParser {
		// a sub-parser that rejects makes the calling parser reject too
		return func(st *State) int {
			in(st)
			r := run(st)
			out(st)
			if r == exited {
				st.subReject = true
			}
			return next
		}
	}
	return func(st *State) int {
		in(st)
		r := run(st)
		out(st)
		if r == exited {
			return exited
		}
		return next
	}
}

// objOf resolves an expression naming an instance or table.
func (c *compiler) objOf(e *env, x ast.Expr) any {
	id, ok := x.(*ast.Ident)
	if !ok {
		c.fail(x.Position(), "expected an instance name")
	}
	o := c.info.Uses[id]
	if o == nil {
		c.fail(x.Position(), "internal: unresolved %s", id.Name)
	}
	obj := e.obj(o.Decl)
	if obj == nil {
		c.fail(x.Position(), "%s is not instantiated here", id.Name)
	}
	return obj
}

func (c *compiler) headerMethod(e *env, call *ast.Call, ci *check.CallInfo) stmtFn {
	lv := c.lvalue(e, ci.Recv)
	switch ci.Name {
	case "isValid":
		return nil
	case "setValid":
		return func(st *State) int {
			a := lv.address(st)
			if a < 0 {
				return next
			}
			st.S[a] = 1
			if lv.union != nil {
				ub := lv.unionBase(st)
				for _, o := range lv.union {
					st.S[ub+o] = 0
				}
			}
			return next
		}
	case "setInvalid":
		return func(st *State) int {
			if a := lv.address(st); a >= 0 {
				st.S[a] = 0
			}
			return next
		}
	}
	c.fail(call.Pos, "unsupported header method %s", ci.Name)
	return nil
}

func (c *compiler) stackMethod(e *env, call *ast.Call, ci *check.CallInfo) stmtFn {
	lv := c.lvalue(e, ci.Recv)
	l := lv.l
	count := int(c.info.Consts[call.Args[0].Value].Int64())
	es, n := l.Elem.Size, l.N
	return func(st *State) int {
		b := lv.address(st)
		if b < 0 {
			return next
		}
		elems := st.S[b+1 : b+1+n*es]
		if count <= 0 {
			return next
		}
		k := count
		if k > n {
			k = n
		}
		nextIdx := int(st.S[b])
		if ci.Name == "push_front" {
			copy(elems[k*es:], elems[:(n-k)*es])
			for i := 0; i < k; i++ {
				clear(elems[i*es : (i+1)*es]) // invalid
			}
			nextIdx += count
			if nextIdx > n {
				nextIdx = n
			}
		} else {
			copy(elems, elems[k*es:])
			for i := n - k; i < n; i++ {
				clear(elems[i*es : (i+1)*es])
			}
			nextIdx -= count
			if nextIdx < 0 {
				nextIdx = 0
			}
		}
		st.S[b] = uint64(nextIdx)
		return next
	}
}
