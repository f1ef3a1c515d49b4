package ast

// Inspect calls f on x and, while f returns true, on its subexpressions.
func Inspect(x Expr, f func(Node) bool) {
	if x == nil || !f(x) {
		return
	}
	switch x := x.(type) {
	case *Member:
		Inspect(x.X, f)
	case *Index:
		Inspect(x.X, f)
		Inspect(x.Index, f)
	case *Slice:
		Inspect(x.X, f)
		Inspect(x.Hi, f)
		Inspect(x.Lo, f)
	case *Call:
		Inspect(x.Fun, f)
		for _, a := range x.Args {
			Inspect(a.Value, f)
		}
	case *Unary:
		Inspect(x.X, f)
	case *Binary:
		Inspect(x.X, f)
		Inspect(x.Y, f)
	case *Ternary:
		Inspect(x.Cond, f)
		Inspect(x.Then, f)
		Inspect(x.Else, f)
	case *Cast:
		Inspect(x.X, f)
	case *ListExpr:
		for _, e := range x.Elems {
			Inspect(e, f)
		}
	case *StructExpr:
		for _, e := range x.Values {
			Inspect(e, f)
		}
	case *Mask:
		Inspect(x.Value, f)
		Inspect(x.Mask, f)
	case *Range:
		Inspect(x.Lo, f)
		Inspect(x.Hi, f)
	}
}
