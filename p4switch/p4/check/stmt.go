package check

import (
	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

func (c *checker) block(s *Scope, b *ast.Block) {
	for _, st := range b.Stmts {
		c.stmt(s, st)
	}
}

var compoundOps = map[string]string{"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "&=": "&", "|=": "|", "^=": "^", "<<=": "<<", ">>=": ">>", "|+|=": "|+|", "|-|=": "|-|"}

// CompoundOp returns the binary operator of a compound assignment ("" for "=").
func CompoundOp(op string) string { return compoundOps[op] }

func (c *checker) stmt(s *Scope, st ast.Stmt) {
	switch st := st.(type) {
	case *ast.Block:
		c.block(newScope(s), st)
	case *ast.Empty:
	case *ast.Exit:
	case *ast.Assign:
		lt := c.expr(s, st.LHS, nil)
		if !c.isLValue(s, st.LHS) {
			c.errorf(st.LHS.Position(), "cannot assign to this expression")
		}
		if st.Op == "=" {
			rt := c.expr(s, st.RHS, lt)
			c.assignable(st.RHS.Position(), lt, rt, st.RHS)
			return
		}
		op, ok := compoundOps[st.Op]
		if !ok {
			c.errorf(st.Pos, "unknown assignment operator %s", st.Op)
			return
		}
		rt := c.expr(s, st.RHS, lt)
		if op == "<<" || op == ">>" {
			if bitsOf(rt) == nil && !isInt(rt) {
				c.errorf(st.Pos, "shift amount must be an integer")
			}
			return
		}
		c.assignable(st.RHS.Position(), lt, rt, st.RHS)
		if bitsOf(lt) == nil {
			c.errorf(st.Pos, "%s needs an integer left-hand side", st.Op)
		}
	case *ast.CallStmt:
		c.expr(s, st.Call, nil)
	case *ast.If:
		t := c.expr(s, st.Cond, &Bool{})
		if _, ok := t.(*Bool); !ok {
			c.errorf(st.Cond.Position(), "condition must be bool, not %s", t)
		}
		c.stmt(newScope(s), st.Then)
		if st.Else != nil {
			c.stmt(newScope(s), st.Else)
		}
	case *ast.Return:
		if st.Value != nil {
			if c.retType == nil {
				c.errorf(st.Pos, "return with a value outside a function")
				return
			}
			t := c.expr(s, st.Value, c.retType)
			c.assignable(st.Value.Position(), c.retType, t, st.Value)
		}
	case *ast.Switch:
		xt := c.expr(s, st.X, nil)
		ae, isAction := xt.(*ActionEnum)
		for _, cs := range st.Cases {
			for _, l := range cs.Labels {
				if _, ok := l.(*ast.Default); ok {
					continue
				}
				if isAction {
					id, ok := l.(*ast.Ident)
					if !ok {
						c.errorf(l.Position(), "switch label must be an action name")
						continue
					}
					o := c.lookup(s, id)
					if o != nil && o.Kind != ObjAction {
						c.errorf(l.Position(), "%s is not an action", id.Name)
					} else if o != nil && !tableHasAction(ae.Table, &ast.ActionRef{Name: id}) {
						c.errorf(l.Position(), "action %s is not an action of table %s", id.Name, ae.Table.Name)
					}
					continue
				}
				lt := c.expr(s, l, xt)
				c.assignable(l.Position(), xt, lt, l)
				if _, ok := c.info.Consts[l]; !ok {
					c.errorf(l.Position(), "switch label must be a constant")
				}
			}
			if cs.Body != nil {
				c.block(newScope(s), cs.Body)
			}
		}
		if !isAction && bitsOf(xt) == nil {
			if _, ok := Underlying(xt).(*Enum); !ok {
				if _, ok := xt.(*ErrorT); !ok {
					c.errorf(st.X.Position(), "cannot switch on %s", xt)
				}
			}
		}
	case *ast.DeclStmt:
		c.localDecl(s, st.Decl)
	case *ast.For:
		fs := newScope(s)
		for _, x := range st.Init {
			c.stmt(fs, x)
		}
		if st.Cond != nil {
			if t := c.expr(fs, st.Cond, &Bool{}); !Same(t, &Bool{}) {
				c.errorf(st.Cond.Position(), "loop condition must be bool, not %s", t)
			}
		}
		for _, x := range st.Update {
			c.stmt(fs, x)
		}
		c.loops++
		c.stmt(newScope(fs), st.Body)
		c.loops--
	case *ast.ForIn:
		fs := newScope(s)
		c.localDecl(fs, st.Var)
		vt := c.info.DeclTypes[st.Var]
		c.assignable(st.Lo.Position(), vt, c.expr(fs, st.Lo, vt), st.Lo)
		c.assignable(st.Hi.Position(), vt, c.expr(fs, st.Hi, vt), st.Hi)
		if bitsOf(vt) == nil {
			c.errorf(st.Pos, "for-in over a range needs an integer variable")
		}
		c.loops++
		c.stmt(newScope(fs), st.Body)
		c.loops--
	case *ast.Break, *ast.Continue:
		if c.loops == 0 {
			c.errorf(st.Position(), "break or continue outside a loop")
		}
	default:
		c.errorf(st.Position(), "unsupported statement")
	}
}
