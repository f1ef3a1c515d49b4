package bmv2check

import (
	"fmt"
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

// exprString prints an expression for a message, as p4c does (no spaces
// inside casts, hexadecimal for literals above 9).
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		if e.Dot {
			return "." + e.Name
		}
		return e.Name
	case *ast.IntLit:
		s := e.Value.String()
		if e.Value.Sign() >= 0 && e.Value.BitLen() > 3 {
			s = "0x" + e.Value.Text(16)
		}
		if e.HasWidth {
			w := "w"
			if e.Signed {
				w = "s"
			}
			return fmt.Sprintf("%d%s%s", e.Width, w, s)
		}
		return s
	case *ast.BoolLit:
		return fmt.Sprint(e.Value)
	case *ast.Member:
		return exprString(e.X) + "." + e.Name
	case *ast.Index:
		return exprString(e.X) + "[" + exprString(e.Index) + "]"
	case *ast.Slice:
		return exprString(e.X) + "[" + exprString(e.Hi) + ":" + exprString(e.Lo) + "]"
	case *ast.Cast:
		return "(" + typeString(e.Type) + ")" + exprString(e.X)
	case *ast.Unary:
		return e.Op + exprString(e.X)
	case *ast.Binary:
		return operand(e.X) + " " + e.Op + " " + operand(e.Y)
	case *ast.Call:
		var args []string
		for _, a := range e.Args {
			args = append(args, exprString(a.Value))
		}
		return exprString(e.Fun) + "(" + strings.Join(args, ", ") + ")"
	case *ast.DontCare:
		return "_"
	}
	return fmt.Sprintf("expression at %s", e.Position())
}

func typeString(t ast.Type) string {
	switch t := t.(type) {
	case *ast.NamedType:
		return t.Name
	case *ast.BitType:
		kind := "bit"
		if t.Signed {
			kind = "int"
		}
		w := exprString(t.Width)
		if l, ok := t.Width.(*ast.IntLit); ok {
			w = l.Value.String()
		}
		return kind + "<" + w + ">"
	case *ast.BoolType:
		return "bool"
	}
	return "type"
}

// operand prints a binary operator's operand, in parentheses if it is one.
func operand(e ast.Expr) string {
	if _, ok := e.(*ast.Binary); ok {
		return "(" + exprString(e) + ")"
	}
	return exprString(e)
}
