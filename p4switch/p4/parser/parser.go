// Package parser builds an ast.Program from P4_16 tokens by recursive descent.
// Like P4's own grammar it distinguishes types from expressions by knowing
// which names are declared as types.
package parser

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
	"github.com/fairfabric/fairfabric/p4switch/p4/token"
)

type parser struct {
	toks      []token.Token
	i         int
	typeNames map[string]bool
}

type bailout struct{ err *token.Error }

// Parse parses a token stream.
func Parse(toks []token.Token) (prog *ast.Program, err error) {
	p := &parser{toks: toks, typeNames: map[string]bool{}}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			err = b.err
		}
	}()
	prog = &ast.Program{}
	for p.tok().Kind != token.EOF {
		if p.is(";") {
			p.next()
			continue
		}
		prog.Decls = append(prog.Decls, p.topDecl())
	}
	return prog, nil
}

func (p *parser) tok() token.Token { return p.toks[p.i] }
func (p *parser) peek(n int) token.Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) pos() token.Pos { return p.tok().Pos }
func (p *parser) next() token.Token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}
func (p *parser) is(s string) bool {
	t := p.tok()
	return (t.Kind == token.Punct || t.Kind == token.Keyword) && t.Text == s
}
func (p *parser) isAt(n int, s string) bool {
	t := p.peek(n)
	return (t.Kind == token.Punct || t.Kind == token.Keyword) && t.Text == s
}
func (p *parser) accept(s string) bool {
	if p.is(s) {
		p.next()
		return true
	}
	return false
}
func (p *parser) errorf(pos token.Pos, format string, a ...any) {
	panic(bailout{&token.Error{Pos: pos, Msg: fmt.Sprintf(format, a...)}})
}
func (p *parser) expect(s string) token.Token {
	if !p.is(s) {
		p.errorf(p.pos(), "expected %q, found %s", s, p.tok())
	}
	return p.next()
}

// name accepts an identifier, also contextual keywords and type names.
func (p *parser) name() string {
	t := p.tok()
	if t.Kind == token.Ident || t.Kind == token.Keyword && token.ContextualKeywords[t.Text] {
		p.next()
		return t.Text
	}
	p.errorf(t.Pos, "expected a name, found %s", t)
	return ""
}

func (p *parser) isName() bool {
	t := p.tok()
	return t.Kind == token.Ident || t.Kind == token.Keyword && token.ContextualKeywords[t.Text]
}

// ---- annotations ----

func (p *parser) annotations() ast.Annotations {
	var as ast.Annotations
	for p.is("@") {
		pos := p.next().Pos
		t := p.next()
		a := &ast.Annotation{Pos: pos, Name: t.Text}
		if p.is("(") && p.tok().Pos.Line == t.Pos.Line {
			start := p.i + 1
			depth := 0
			for {
				if p.tok().Kind == token.EOF {
					p.errorf(pos, "unterminated annotation")
				}
				if p.is("(") {
					depth++
				} else if p.is(")") {
					depth--
					if depth == 0 {
						break
					}
				}
				p.next()
			}
			a.Raw = append([]token.Token(nil), p.toks[start:p.i]...)
			p.next()
			a.Args = parseAnnoArgs(a.Raw, p.typeNames)
		} else if p.is("[") {
			depth := 0
			for {
				if p.is("[") {
					depth++
				} else if p.is("]") {
					depth--
					if depth == 0 {
						p.next()
						break
					}
				}
				if p.tok().Kind == token.EOF {
					p.errorf(pos, "unterminated annotation")
				}
				p.next()
			}
		}
		as = append(as, a)
	}
	return as
}

// parseAnnoArgs parses annotation arguments as a comma list of expressions when possible.
func parseAnnoArgs(raw []token.Token, typeNames map[string]bool) (args []ast.Expr) {
	if len(raw) == 0 {
		return nil
	}
	toks := append(append([]token.Token(nil), raw...), token.Token{Kind: token.EOF, Pos: raw[len(raw)-1].Pos})
	q := &parser{toks: toks, typeNames: typeNames}
	defer func() {
		if r := recover(); r != nil {
			args = nil
		}
	}()
	for {
		args = append(args, q.expr())
		if !q.accept(",") {
			break
		}
	}
	if q.tok().Kind != token.EOF {
		return nil
	}
	return args
}

// ---- declarations ----

func (p *parser) topDecl() ast.Decl {
	annos := p.annotations()
	pos := p.pos()
	t := p.tok()
	if t.Kind == token.Keyword {
		switch t.Text {
		case "const":
			return p.constDecl(annos)
		case "typedef", "type":
			p.next()
			ty := p.typ()
			name := p.name()
			p.expect(";")
			p.typeNames[name] = true
			return &ast.TypedefDecl{Pos: pos, Annos: annos, Type: ty, Name: name, IsNewType: t.Text == "type"}
		case "header", "struct", "header_union":
			return p.structDecl(annos)
		case "enum":
			return p.enumDecl(annos)
		case "error", "match_kind":
			if p.isAt(1, "{") {
				p.next()
				members := p.nameList()
				if t.Text == "error" {
					return &ast.ErrorDecl{Pos: pos, Members: members}
				}
				return &ast.MatchKindDecl{Pos: pos, Members: members}
			}
		case "extern":
			return p.externDecl(annos)
		case "parser":
			return p.parserDecl(annos)
		case "control":
			return p.controlDecl(annos)
		case "package":
			p.next()
			name := p.name()
			p.typeNames[name] = true
			tps := p.typeParams()
			params := p.params()
			p.expect(";")
			return &ast.TypeProto{Pos: pos, Annos: annos, Kind: "package", Name: name, TypeParams: tps, Params: params}
		case "action":
			return p.actionDecl(annos)
		case "value_set":
			return p.valueSet(annos)
		}
	}
	// function declaration or instantiation
	ty := p.typ()
	if p.is("(") {
		return p.instance(annos, ty)
	}
	name := p.name()
	tps := p.typeParams()
	params := p.params()
	body := p.block()
	return &ast.FunctionDecl{Pos: pos, Annos: annos, Ret: ty, Name: name, TypeParams: tps, Params: params, Body: body}
}

func (p *parser) nameList() []string {
	p.expect("{")
	var out []string
	for !p.is("}") {
		p.annotations()
		out = append(out, p.name())
		if !p.accept(",") {
			break
		}
	}
	p.expect("}")
	return out
}

func (p *parser) constDecl(annos ast.Annotations) *ast.ConstDecl {
	pos := p.expect("const").Pos
	ty := p.typ()
	name := p.name()
	p.expect("=")
	v := p.expr()
	p.expect(";")
	return &ast.ConstDecl{Pos: pos, Annos: annos, Type: ty, Name: name, Value: v}
}

func (p *parser) structDecl(annos ast.Annotations) *ast.StructDecl {
	kw := p.next()
	name := p.name()
	p.typeNames[name] = true
	tps := p.typeParams()
	for _, tp := range tps {
		p.typeNames[tp] = true
	}
	d := &ast.StructDecl{Pos: kw.Pos, Annos: annos, Kind: kw.Text, Name: name}
	p.expect("{")
	for !p.is("}") {
		fa := p.annotations()
		fpos := p.pos()
		ft := p.typ()
		fname := p.name()
		p.expect(";")
		d.Fields = append(d.Fields, &ast.Field{Pos: fpos, Annos: fa, Type: ft, Name: fname})
	}
	p.expect("}")
	return d
}

func (p *parser) enumDecl(annos ast.Annotations) *ast.EnumDecl {
	pos := p.expect("enum").Pos
	d := &ast.EnumDecl{Pos: pos, Annos: annos}
	if p.is("bit") || p.is("int") || p.isName() && p.typeNames[p.tok().Text] && !p.isAt(1, "{") {
		d.Base = p.typ()
	}
	d.Name = p.name()
	p.typeNames[d.Name] = true
	p.expect("{")
	for !p.is("}") {
		p.annotations()
		d.Members = append(d.Members, p.name())
		var v ast.Expr
		if p.accept("=") {
			v = p.expr()
		}
		d.Values = append(d.Values, v)
		if !p.accept(",") {
			break
		}
	}
	p.expect("}")
	return d
}

func (p *parser) typeParams() []string {
	if !p.is("<") {
		return nil
	}
	p.next()
	var out []string
	for !p.is(">") {
		n := p.name()
		p.typeNames[n] = true
		out = append(out, n)
		if !p.accept(",") {
			break
		}
	}
	p.expect(">")
	return out
}

func (p *parser) params() []*ast.Param {
	p.expect("(")
	var out []*ast.Param
	for !p.is(")") {
		annos := p.annotations()
		pos := p.pos()
		dir := ""
		if p.is("in") || p.is("out") || p.is("inout") {
			dir = p.next().Text
		}
		ty := p.typ()
		name := p.name()
		var def ast.Expr
		if p.accept("=") {
			def = p.expr()
		}
		out = append(out, &ast.Param{Pos: pos, Annos: annos, Dir: dir, Type: ty, Name: name, Default: def})
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	return out
}

func (p *parser) externDecl(annos ast.Annotations) ast.Decl {
	pos := p.expect("extern").Pos
	// extern Name [<T>] { ... }  vs  extern RetType name(...);
	if p.isName() && (p.isAt(1, "{") || p.isAt(1, "<") && !p.typeNames[p.tok().Text]) {
		name := p.name()
		p.typeNames[name] = true
		d := &ast.ExternDecl{Pos: pos, Annos: annos, Name: name}
		d.TypeParams = p.typeParams()
		p.expect("{")
		for !p.is("}") {
			ma := p.annotations()
			mpos := p.pos()
			abstract := p.accept("abstract")
			if p.isName() && p.tok().Text == name && p.isAt(1, "(") {
				p.next()
				d.Methods = append(d.Methods, &ast.Method{Pos: mpos, Annos: ma, Name: name, Params: p.params()})
				p.expect(";")
				continue
			}
			ret := p.typ()
			mname := p.name()
			tps := p.typeParams()
			params := p.params()
			p.expect(";")
			d.Methods = append(d.Methods, &ast.Method{Pos: mpos, Annos: ma, Ret: ret, Name: mname, TypeParams: tps, Params: params, Abstract: abstract})
		}
		p.expect("}")
		return d
	}
	ret := p.typ()
	name := p.name()
	tps := p.typeParams()
	params := p.params()
	p.expect(";")
	return &ast.ExternFunc{Method: ast.Method{Pos: pos, Annos: annos, Ret: ret, Name: name, TypeParams: tps, Params: params}}
}

func (p *parser) parserDecl(annos ast.Annotations) ast.Decl {
	pos := p.expect("parser").Pos
	name := p.name()
	p.typeNames[name] = true
	tps := p.typeParams()
	params := p.params()
	if p.accept(";") {
		return &ast.TypeProto{Pos: pos, Annos: annos, Kind: "parser", Name: name, TypeParams: tps, Params: params}
	}
	d := &ast.ParserDecl{Pos: pos, Annos: annos, Name: name, TypeParams: tps, Params: params}
	if p.is("(") {
		d.CtorParams = p.params()
	}
	p.expect("{")
	for !p.is("}") {
		la := p.annotations()
		if p.is("state") {
			d.States = append(d.States, p.state(la))
			continue
		}
		d.Locals = append(d.Locals, p.localDecl(la))
	}
	p.expect("}")
	return d
}

func (p *parser) controlDecl(annos ast.Annotations) ast.Decl {
	pos := p.expect("control").Pos
	name := p.name()
	p.typeNames[name] = true
	tps := p.typeParams()
	params := p.params()
	if p.accept(";") {
		return &ast.TypeProto{Pos: pos, Annos: annos, Kind: "control", Name: name, TypeParams: tps, Params: params}
	}
	d := &ast.ControlDecl{Pos: pos, Annos: annos, Name: name, TypeParams: tps, Params: params}
	if p.is("(") {
		d.CtorParams = p.params()
	}
	p.expect("{")
	for !p.is("apply") {
		if p.tok().Kind == token.EOF || p.is("}") {
			p.errorf(p.pos(), "control %s has no apply block", name)
		}
		la := p.annotations()
		switch {
		case p.is("action"):
			d.Locals = append(d.Locals, p.actionDecl(la))
		case p.is("table"):
			d.Locals = append(d.Locals, p.tableDecl(la))
		default:
			d.Locals = append(d.Locals, p.localDecl(la))
		}
	}
	p.next()
	d.Body = p.block()
	p.expect("}")
	return d
}

// localDecl parses const, variable, instantiation or value_set declarations.
func (p *parser) localDecl(annos ast.Annotations) ast.Decl {
	pos := p.pos()
	if p.is("const") {
		return p.constDecl(annos)
	}
	if p.is("value_set") {
		return p.valueSet(annos)
	}
	ty := p.typ()
	if p.is("(") {
		return p.instance(annos, ty)
	}
	name := p.name()
	var init ast.Expr
	if p.accept("=") {
		init = p.expr()
	}
	p.expect(";")
	return &ast.VarDecl{Pos: pos, Annos: annos, Type: ty, Name: name, Init: init}
}

func (p *parser) valueSet(annos ast.Annotations) ast.Decl {
	pos := p.expect("value_set").Pos
	p.expect("<")
	elem := p.typ()
	p.closeAngle()
	p.expect("(")
	size := p.expr()
	p.expect(")")
	name := p.name()
	p.expect(";")
	return &ast.ValueSetDecl{Pos: pos, Annos: annos, Elem: elem, Size: size, Name: name}
}

func (p *parser) instance(annos ast.Annotations, ty ast.Type) ast.Decl {
	pos := ty.Position()
	args := p.args()
	d := &ast.Instance{Pos: pos, Annos: annos, Type: ty, Args: args}
	if p.is("{") {
		// initializer with abstract method implementations
		p.next()
		d.Name = ""
		for !p.is("}") {
			fa := p.annotations()
			fpos := p.pos()
			ret := p.typ()
			fname := p.name()
			params := p.params()
			body := p.block()
			d.Init = append(d.Init, &ast.FunctionDecl{Pos: fpos, Annos: fa, Ret: ret, Name: fname, Params: params, Body: body})
		}
		p.expect("}")
	}
	d.Name = p.name()
	p.expect(";")
	return d
}

func (p *parser) actionDecl(annos ast.Annotations) *ast.ActionDecl {
	pos := p.expect("action").Pos
	name := p.name()
	params := p.params()
	body := p.block()
	return &ast.ActionDecl{Pos: pos, Annos: annos, Name: name, Params: params, Body: body}
}

func (p *parser) state(annos ast.Annotations) *ast.State {
	pos := p.expect("state").Pos
	s := &ast.State{Pos: pos, Annos: annos, Name: p.name()}
	p.expect("{")
	for !p.is("transition") && !p.is("}") {
		s.Stmts = append(s.Stmts, p.stmt())
	}
	if p.accept("transition") {
		if p.is("select") {
			spos := p.next().Pos
			sel := &ast.Select{Pos: spos}
			p.expect("(")
			for !p.is(")") {
				sel.Exprs = append(sel.Exprs, p.expr())
				if !p.accept(",") {
					break
				}
			}
			p.expect(")")
			p.expect("{")
			for !p.is("}") {
				cpos := p.pos()
				ks := p.keyset()
				p.expect(":")
				next := p.name()
				p.expect(";")
				sel.Cases = append(sel.Cases, &ast.SelectCase{Pos: cpos, Keyset: ks, Next: next})
			}
			p.expect("}")
			s.Select = sel
		} else {
			s.Next = p.name()
			p.expect(";")
		}
	} else {
		s.Next = "reject"
		if s.Name == "accept" || s.Name == "reject" {
			s.Next = ""
		}
	}
	p.expect("}")
	return s
}

// keyset parses a select/entry keyset: expr, mask, range, default, _ or a tuple thereof.
func (p *parser) keyset() ast.Expr {
	if p.is("(") && p.tupleAhead() {
		pos := p.next().Pos
		l := &ast.ListExpr{Pos: pos}
		for !p.is(")") {
			l.Elems = append(l.Elems, p.simpleKeyset())
			if !p.accept(",") {
				break
			}
		}
		p.expect(")")
		return l
	}
	return p.simpleKeyset()
}

// tupleAhead reports whether the parenthesis at the cursor holds a top-level comma.
func (p *parser) tupleAhead() bool {
	depth := 0
	for j := p.i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.Kind != token.Punct {
			continue
		}
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return false
			}
		case ",":
			if depth == 1 {
				return true
			}
		case ";":
			return false
		}
	}
	return false
}

func (p *parser) simpleKeyset() ast.Expr {
	if p.is("default") {
		return &ast.Default{Pos: p.next().Pos}
	}
	if p.is("_") {
		return &ast.DontCare{Pos: p.next().Pos}
	}
	e := p.expr()
	if p.is("&&&") {
		pos := p.next().Pos
		return &ast.Mask{Pos: pos, Value: e, Mask: p.expr()}
	}
	if p.is("..") {
		pos := p.next().Pos
		return &ast.Range{Pos: pos, Lo: e, Hi: p.expr()}
	}
	return e
}

func (p *parser) tableDecl(annos ast.Annotations) *ast.TableDecl {
	pos := p.expect("table").Pos
	d := &ast.TableDecl{Pos: pos, Annos: annos, Name: p.name()}
	if p.is("(") && p.isAt(1, ")") { // old syntax: table t() { ... }
		p.next()
		p.next()
	}
	p.expect("{")
	for !p.is("}") {
		pa := p.annotations()
		ppos := p.pos()
		isConst := p.accept("const")
		pname := p.name()
		prop := &ast.TableProp{Pos: ppos, Annos: pa, Name: pname, Const: isConst}
		switch pname {
		case "key":
			p.expect("=")
			p.expect("{")
			for !p.is("}") {
				kpos := p.pos()
				e := p.expr()
				p.expect(":")
				mk := p.name()
				ka := p.annotations()
				p.expect(";")
				prop.Keys = append(prop.Keys, &ast.KeyElem{Pos: kpos, Annos: ka, Expr: e, MatchKind: mk})
			}
			p.expect("}")
		case "actions":
			p.expect("=")
			p.expect("{")
			for !p.is("}") {
				prop.Actions = append(prop.Actions, p.actionRef())
				p.expect(";")
			}
			p.expect("}")
		case "entries":
			p.expect("=")
			p.expect("{")
			for !p.is("}") {
				ea := p.annotations()
				epos := p.pos()
				e := &ast.Entry{Pos: epos, Annos: ea, Const: p.accept("const")}
				if p.is("priority") || p.isName() && p.tok().Text == "priority" && p.isAt(1, "=") {
					p.next()
					p.expect("=")
					e.Priority = p.expr()
					p.expect(":")
				}
				ks := p.keyset()
				if l, ok := ks.(*ast.ListExpr); ok {
					e.Keys = l.Elems
				} else {
					e.Keys = []ast.Expr{ks}
				}
				p.expect(":")
				e.Action = p.actionRef()
				// older p4c syntax: "keys : action(args) @priority(N);"
				e.Annos = append(e.Annos, p.annotations()...)
				p.accept(";")
				prop.Entries = append(prop.Entries, e)
			}
			p.expect("}")
		default:
			p.expect("=")
			prop.Value = p.expr()
			p.expect(";")
			// "default_action = a(1);" keeps the call expression
		}
		d.Props = append(d.Props, prop)
	}
	p.expect("}")
	return d
}

func (p *parser) actionRef() *ast.ActionRef {
	annos := p.annotations()
	pos := p.pos()
	dot := p.accept(".")
	name := p.name()
	ref := &ast.ActionRef{Pos: pos, Annos: annos, Name: &ast.Ident{Pos: pos, Name: name, Dot: dot}}
	if p.is("(") {
		ref.Args = p.args()
	}
	return ref
}

// ---- statements ----

func (p *parser) block() *ast.Block {
	pos := p.expect("{").Pos
	b := &ast.Block{Pos: pos}
	for !p.is("}") {
		if p.tok().Kind == token.EOF {
			p.errorf(pos, "unterminated block")
		}
		b.Stmts = append(b.Stmts, p.stmt())
	}
	p.next()
	return b
}

func (p *parser) stmt() ast.Stmt {
	annos := p.annotations()
	pos := p.pos()
	switch {
	case p.is("{"):
		return p.block()
	case p.is(";"):
		p.next()
		return &ast.Empty{Pos: pos}
	case p.is("if"):
		p.next()
		p.expect("(")
		c := p.expr()
		p.expect(")")
		s := &ast.If{Pos: pos, Cond: c, Then: p.stmt()}
		if p.accept("else") {
			s.Else = p.stmt()
		}
		return s
	case p.is("exit"):
		p.next()
		p.expect(";")
		return &ast.Exit{Pos: pos}
	case p.is("return"):
		p.next()
		r := &ast.Return{Pos: pos}
		if !p.is(";") {
			r.Value = p.expr()
		}
		p.expect(";")
		return r
	case p.is("switch"):
		return p.switchStmt()
	case p.is("const"):
		return &ast.DeclStmt{Pos: pos, Decl: p.constDecl(annos)}
	case p.word("for") && p.isAt(1, "("):
		return p.forStmt()
	case p.word("break") && p.isAt(1, ";"):
		p.next()
		p.next()
		return &ast.Break{Pos: pos}
	case p.word("continue") && p.isAt(1, ";"):
		p.next()
		p.next()
		return &ast.Continue{Pos: pos}
	}
	if p.startsDecl() {
		return &ast.DeclStmt{Pos: pos, Decl: p.localDecl(annos)}
	}
	lhs := p.expr()
	if call, ok := lhs.(*ast.Call); ok && p.is(";") {
		p.next()
		return &ast.CallStmt{Pos: pos, Call: call}
	}
	t := p.tok()
	if t.Kind == token.Punct && (t.Text == "=" || len(t.Text) >= 2 && strings.HasSuffix(t.Text, "=") && t.Text != "==" && t.Text != "!=" && t.Text != "<=" && t.Text != ">=") {
		p.next()
		rhs := p.expr()
		p.expect(";")
		return &ast.Assign{Pos: pos, LHS: lhs, Op: t.Text, RHS: rhs}
	}
	if p.is(">") && p.isAt(1, ">=") {
		// a >>= b is scanned as ">" ">="
		p.next()
		p.next()
		rhs := p.expr()
		p.expect(";")
		return &ast.Assign{Pos: pos, LHS: lhs, Op: ">>=", RHS: rhs}
	}
	p.errorf(p.pos(), "expected a statement, found %s", p.tok())
	return nil
}

// startsDecl reports whether a statement at the cursor is a declaration.
func (p *parser) startsDecl() bool {
	t := p.tok()
	if t.Kind == token.Keyword {
		switch t.Text {
		case "bit", "int", "varbit", "bool", "tuple", "string":
			return true
		case "error":
			return !p.isAt(1, ".")
		}
		return false
	}
	if t.Kind != token.Ident || !p.typeNames[t.Text] {
		return false
	}
	// T x; T<..> x; T(..) x; T[..] x;  but not T.member (enum constant) or T(...);
	n := p.peek(1)
	if n.Kind == token.Ident || n.Kind == token.Keyword && token.ContextualKeywords[n.Text] {
		return true
	}
	if p.isAt(1, "<") || p.isAt(1, "[") {
		return true
	}
	if p.isAt(1, "(") {
		// instantiation: T(args) name;
		depth := 0
		for j := p.i + 1; j < len(p.toks); j++ {
			tt := p.toks[j]
			if tt.Kind == token.Punct && tt.Text == "(" {
				depth++
			} else if tt.Kind == token.Punct && tt.Text == ")" {
				depth--
				if depth == 0 {
					return j+1 < len(p.toks) && p.toks[j+1].Kind == token.Ident
				}
			}
		}
	}
	return false
}

func (p *parser) switchStmt() ast.Stmt {
	pos := p.expect("switch").Pos
	p.expect("(")
	x := p.expr()
	p.expect(")")
	s := &ast.Switch{Pos: pos, X: x}
	p.expect("{")
	for !p.is("}") {
		cpos := p.pos()
		var labels []ast.Expr
		for {
			if p.is("default") {
				labels = append(labels, &ast.Default{Pos: p.next().Pos})
			} else {
				labels = append(labels, p.expr())
			}
			p.expect(":")
			if p.is("{") || p.is("}") {
				break
			}
			// fall-through label
			s.Cases = append(s.Cases, &ast.SwitchCase{Pos: cpos, Labels: labels})
			labels = nil
			cpos = p.pos()
		}
		c := &ast.SwitchCase{Pos: cpos, Labels: labels}
		if p.is("{") {
			c.Body = p.block()
		}
		s.Cases = append(s.Cases, c)
	}
	p.expect("}")
	return s
}

// ---- types ----

func (p *parser) startsType() bool {
	t := p.tok()
	if t.Kind == token.Keyword {
		switch t.Text {
		case "bit", "int", "varbit", "bool", "error", "string", "void", "tuple":
			return true
		}
	}
	return t.Kind == token.Ident && p.typeNames[t.Text] || p.is("_")
}

func (p *parser) typ() ast.Type {
	t := p.base()
	for p.is("[") {
		pos := p.next().Pos
		size := p.expr()
		p.expect("]")
		t = &ast.StackType{Pos: pos, Elem: t, Size: size}
	}
	return t
}

func (p *parser) base() ast.Type {
	t := p.tok()
	pos := t.Pos
	switch {
	case p.is("bit") || p.is("int"):
		p.next()
		signed := t.Text == "int"
		if p.is("<") {
			p.next()
			var w ast.Expr
			if p.is("(") {
				p.next()
				w = p.expr()
				p.expect(")")
			} else {
				w = p.primary()
			}
			p.closeAngle()
			return &ast.BitType{Pos: pos, Width: w, Signed: signed}
		}
		if signed {
			return &ast.IntType{Pos: pos}
		}
		return &ast.BitType{Pos: pos, Width: &ast.IntLit{Pos: pos, Value: big.NewInt(1)}}
	case p.is("varbit"):
		p.next()
		p.expect("<")
		var w ast.Expr
		if p.is("(") {
			p.next()
			w = p.expr()
			p.expect(")")
		} else {
			w = p.primary()
		}
		p.closeAngle()
		return &ast.VarbitType{Pos: pos, Width: w}
	case p.is("bool"):
		p.next()
		return &ast.BoolType{Pos: pos}
	case p.is("error"):
		p.next()
		return &ast.ErrorType{Pos: pos}
	case p.is("string"):
		p.next()
		return &ast.StringType{Pos: pos}
	case p.is("void"):
		p.next()
		return &ast.VoidType{Pos: pos}
	case p.is("_"):
		p.next()
		return &ast.DontCareType{Pos: pos}
	case p.is("tuple") || p.is("list"):
		p.next()
		p.expect("<")
		tt := &ast.TupleType{Pos: pos}
		for !p.is(">") {
			tt.Elems = append(tt.Elems, p.typ())
			if !p.accept(",") {
				break
			}
		}
		p.closeAngle()
		return tt
	case p.is("."):
		p.next()
		return p.base()
	case t.Kind == token.Ident:
		p.next()
		nt := &ast.NamedType{Pos: pos, Name: t.Text}
		if p.is("<") {
			p.next()
			for !p.is(">") {
				nt.Args = append(nt.Args, p.typ())
				if !p.accept(",") {
					break
				}
			}
			p.closeAngle()
		}
		return nt
	}
	p.errorf(pos, "expected a type, found %s", t)
	return nil
}

// closeAngle consumes one '>' (splitting a '>=' or '>>=' when needed is not necessary since the scanner never joins '>>').
func (p *parser) closeAngle() {
	if p.is(">=") {
		t := &p.toks[p.i]
		t.Text = "="
		t.Pos.Col++
		return
	}
	p.expect(">")
}

// ---- expressions ----

func (p *parser) args() []ast.Arg {
	p.expect("(")
	var out []ast.Arg
	for !p.is(")") {
		var a ast.Arg
		if p.isName() && p.isAt(1, "=") {
			a.Name = p.name()
			p.next()
		}
		if p.is("_") && (p.isAt(1, ",") || p.isAt(1, ")")) {
			a.Value = &ast.DontCare{Pos: p.next().Pos}
		} else {
			a.Value = p.expr()
		}
		out = append(out, a)
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	return out
}

func (p *parser) expr() ast.Expr {
	c := p.binary(0)
	if p.is("?") {
		pos := p.next().Pos
		a := p.expr()
		p.expect(":")
		b := p.expr()
		return &ast.Ternary{Pos: pos, Cond: c, Then: a, Else: b}
	}
	return c
}

var precedence = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8,
	"+": 9, "-": 9, "|+|": 9, "|-|": 9, "++": 9, "*": 10, "/": 10, "%": 10,
}

// binOp returns the operator at the cursor and how many tokens it spans.
func (p *parser) binOp() (string, int) {
	t := p.tok()
	if t.Kind != token.Punct {
		return "", 0
	}
	if t.Text == ">" {
		n := p.peek(1)
		if n.Kind == token.Punct && n.Text == ">" && n.Pos.Line == t.Pos.Line && n.Pos.Col == t.Pos.Col+1 {
			return ">>", 2
		}
		if n.Kind == token.Punct && n.Text == ">=" && n.Pos.Line == t.Pos.Line && n.Pos.Col == t.Pos.Col+1 {
			return "", 0 // >>= assignment
		}
	}
	if _, ok := precedence[t.Text]; ok {
		return t.Text, 1
	}
	return "", 0
}

func (p *parser) binary(min int) ast.Expr {
	x := p.unary()
	for {
		op, n := p.binOp()
		prec := precedence[op]
		if op == "" || prec <= min {
			return x
		}
		pos := p.pos()
		for k := 0; k < n; k++ {
			p.next()
		}
		y := p.binary(prec)
		x = &ast.Binary{Pos: pos, Op: op, X: x, Y: y}
	}
}

func (p *parser) unary() ast.Expr {
	pos := p.pos()
	switch {
	case p.is("-") || p.is("~") || p.is("!") || p.is("+"):
		op := p.next().Text
		x := p.unary()
		if op == "+" {
			return x
		}
		return &ast.Unary{Pos: pos, Op: op, X: x}
	case p.is("(") && p.castAhead():
		p.next()
		ty := p.typ()
		p.expect(")")
		return &ast.Cast{Pos: pos, Type: ty, X: p.unary()}
	}
	return p.postfix(p.primary())
}

// castAhead reports whether "(" starts a cast: ( type ) followed by an operand.
func (p *parser) castAhead() bool {
	save := p.i
	defer func() { p.i = save }()
	p.next()
	if !p.startsType() {
		return false
	}
	t := p.tok()
	if t.Kind == token.Ident && (p.isAt(1, ".") || p.isAt(1, "(")) {
		return false
	}
	ok := func() (ok bool) {
		defer func() {
			if r := recover(); r != nil {
				ok = false
			}
		}()
		p.typ()
		return p.is(")")
	}()
	if !ok {
		return false
	}
	p.next()
	n := p.tok()
	switch n.Kind {
	case token.Ident, token.Int, token.String:
		return true
	case token.Keyword:
		return n.Text == "true" || n.Text == "false" || n.Text == "error" || n.Text == "this"
	case token.Punct:
		return n.Text == "(" || n.Text == "{" || n.Text == "-" || n.Text == "~" || n.Text == "!" || n.Text == "."
	}
	return false
}

func (p *parser) primary() ast.Expr {
	t := p.tok()
	pos := t.Pos
	switch t.Kind {
	case token.Int:
		p.next()
		lit, err := ParseInt(t.Text)
		if err != nil {
			p.errorf(pos, "%v", err)
		}
		lit.Pos = pos
		return lit
	case token.String:
		p.next()
		return &ast.StringLit{Pos: pos, Value: t.Text}
	case token.Ident:
		p.next()
		return &ast.Ident{Pos: pos, Name: t.Text}
	}
	switch {
	case p.is("true") || p.is("false"):
		p.next()
		return &ast.BoolLit{Pos: pos, Value: t.Text == "true"}
	case p.is("("):
		p.next()
		e := p.expr()
		p.expect(")")
		return e
	case p.is("{"):
		p.next()
		if p.isName() && p.isAt(1, "=") {
			se := &ast.StructExpr{Pos: pos}
			for !p.is("}") {
				se.Names = append(se.Names, p.name())
				p.expect("=")
				se.Values = append(se.Values, p.expr())
				if !p.accept(",") {
					break
				}
			}
			p.expect("}")
			return se
		}
		l := &ast.ListExpr{Pos: pos}
		for !p.is("}") {
			if p.is("...") {
				p.next()
				break
			}
			l.Elems = append(l.Elems, p.expr())
			if !p.accept(",") {
				break
			}
		}
		p.expect("}")
		return l
	case p.is("."):
		p.next()
		n := p.name()
		return &ast.Ident{Pos: pos, Name: n, Dot: true}
	case p.is("error"):
		p.next()
		return &ast.Ident{Pos: pos, Name: "error"}
	case p.is("this"):
		p.next()
		return &ast.This{Pos: pos}
	case p.is("_"):
		p.next()
		return &ast.DontCare{Pos: pos}
	case p.is("bit") || p.is("int") || p.is("varbit") || p.is("bool") || p.is("tuple"):
		return &ast.TypeExpr{Pos: pos, Type: p.typ()}
	case t.Kind == token.Keyword && token.ContextualKeywords[t.Text]:
		p.next()
		return &ast.Ident{Pos: pos, Name: t.Text}
	}
	p.errorf(pos, "expected an expression, found %s", t)
	return nil
}

func (p *parser) postfix(x ast.Expr) ast.Expr {
	for {
		pos := p.pos()
		switch {
		case p.is("."):
			p.next()
			var n string
			if p.tok().Kind == token.Keyword {
				n = p.next().Text // e.g. .apply, .key
			} else {
				n = p.name()
			}
			x = &ast.Member{Pos: pos, X: x, Name: n}
		case p.is("["):
			p.next()
			i := p.expr()
			if p.accept(":") {
				lo := p.expr()
				p.expect("]")
				x = &ast.Slice{Pos: pos, X: x, Hi: i, Lo: lo}
			} else {
				p.expect("]")
				x = &ast.Index{Pos: pos, X: x, Index: i}
			}
		case p.is("("):
			x = &ast.Call{Pos: pos, Fun: x, Args: p.args()}
		case p.is("<") && p.genericCallAhead():
			p.next()
			var targs []ast.Type
			for !p.is(">") {
				targs = append(targs, p.typ())
				if !p.accept(",") {
					break
				}
			}
			p.closeAngle()
			x = &ast.Call{Pos: pos, Fun: x, TypeArgs: targs, Args: p.args()}
		default:
			return x
		}
	}
}

// genericCallAhead reports whether "<" starts type arguments of a call: f<T, U>(...).
func (p *parser) genericCallAhead() bool {
	save := p.i
	defer func() { p.i = save }()
	p.next()
	ok := func() (ok bool) {
		defer func() {
			if r := recover(); r != nil {
				ok = false
			}
		}()
		if !p.startsType() {
			return false
		}
		for {
			p.typ()
			if !p.accept(",") {
				break
			}
		}
		if !p.is(">") {
			return false
		}
		p.next()
		return p.is("(")
	}()
	return ok
}

// ParseInt parses a P4 integer literal: [W(w|s)](0x|0o|0b|0d)?digits with '_' separators.
func ParseInt(text string) (*ast.IntLit, error) {
	lit := &ast.IntLit{}
	s := strings.ReplaceAll(text, "_", "")
	for i := 0; i < len(s); i++ {
		if s[i] == 'w' || s[i] == 's' {
			if i == 0 {
				break
			}
			var w big.Int
			if _, ok := w.SetString(s[:i], 10); !ok || !w.IsInt64() || w.Int64() <= 0 || w.Int64() > 2048 {
				return nil, fmt.Errorf("bad width in %q", text)
			}
			lit.Width = int(w.Int64())
			lit.Signed = s[i] == 's'
			lit.HasWidth = true
			s = s[i+1:]
			break
		}
		if s[i] < '0' || s[i] > '9' {
			break
		}
	}
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'b', 'B':
			base = 2
		case 'o', 'O':
			base = 8
		case 'd', 'D':
			base = 10
		}
		if base != 10 || s[1] == 'd' || s[1] == 'D' {
			s = s[2:]
		}
	}
	v, ok := new(big.Int).SetString(s, base)
	if !ok {
		return nil, fmt.Errorf("bad integer literal %q", text)
	}
	lit.Value = v
	return lit, nil
}

// word reports whether the cursor is the identifier w (for, break and
// continue are not reserved words in older P4 programs).
func (p *parser) word(w string) bool {
	t := p.tok()
	return t.Kind == token.Ident && t.Text == w
}

// forStmt parses for (init; cond; update) body and for (T x in lo .. hi) body.
func (p *parser) forStmt() ast.Stmt {
	pos := p.next().Pos
	p.expect("(")
	if p.startsDecl() || p.startsType() {
		save := p.i
		ty := p.typ()
		if p.isName() && p.peek(1).Kind == token.Keyword && p.peek(1).Text == "in" {
			vpos := p.pos()
			name := p.name()
			p.next() // in
			lo := p.expr()
			p.expect("..")
			hi := p.expr()
			p.expect(")")
			return &ast.ForIn{Pos: pos, Var: &ast.VarDecl{Pos: vpos, Type: ty, Name: name}, Lo: lo, Hi: hi, Body: p.stmt()}
		}
		p.i = save
	}
	f := &ast.For{Pos: pos}
	for !p.is(";") {
		f.Init = append(f.Init, p.simpleStmt())
		if !p.accept(",") {
			break
		}
	}
	p.expect(";")
	if !p.is(";") {
		f.Cond = p.expr()
	}
	p.expect(";")
	for !p.is(")") {
		f.Update = append(f.Update, p.simpleStmt())
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	f.Body = p.stmt()
	return f
}

// simpleStmt parses a declaration, assignment or call without its semicolon.
func (p *parser) simpleStmt() ast.Stmt {
	pos := p.pos()
	if p.startsDecl() {
		ty := p.typ()
		name := p.name()
		d := &ast.VarDecl{Pos: pos, Type: ty, Name: name}
		if p.accept("=") {
			d.Init = p.expr()
		}
		return &ast.DeclStmt{Pos: pos, Decl: d}
	}
	lhs := p.expr()
	if call, ok := lhs.(*ast.Call); ok && !p.is("=") {
		return &ast.CallStmt{Pos: pos, Call: call}
	}
	t := p.tok()
	if t.Kind == token.Punct && strings.HasSuffix(t.Text, "=") && t.Text != "==" && t.Text != "!=" && t.Text != "<=" && t.Text != ">=" {
		p.next()
		return &ast.Assign{Pos: pos, LHS: lhs, Op: t.Text, RHS: p.expr()}
	}
	p.errorf(p.pos(), "expected an assignment, found %s", p.tok())
	return nil
}
