package preproc

import (
	"fmt"
	"strconv"
	"strings"
)

// evalCond evaluates a #if expression: defined(X), defined X, !, &&, ||,
// ==, !=, <, >, <=, >=, parentheses, integers and macros (undefined = 0).
func (p *pp) evalCond(s string) (bool, error) {
	toks := condTokens(s)
	e := &condEval{p: p, toks: toks}
	v, err := e.or()
	if err != nil {
		return false, err
	}
	if e.i != len(toks) {
		return false, fmt.Errorf("bad #if expression %q", strings.TrimSpace(s))
	}
	return v != 0, nil
}

func condTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case isIdentStart(c) || c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isIdentStart(s[j]) || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			if i+1 < len(s) {
				two := s[i : i+2]
				if two == "&&" || two == "||" || two == "==" || two == "!=" || two == "<=" || two == ">=" {
					out = append(out, two)
					i += 2
					continue
				}
			}
			out = append(out, string(c))
			i++
		}
	}
	return out
}

type condEval struct {
	p    *pp
	toks []string
	i    int
}

func (e *condEval) peek() string {
	if e.i < len(e.toks) {
		return e.toks[e.i]
	}
	return ""
}

func (e *condEval) or() (int64, error) {
	v, err := e.and()
	for err == nil && e.peek() == "||" {
		e.i++
		var w int64
		w, err = e.and()
		v = b2i(v != 0 || w != 0)
	}
	return v, err
}

func (e *condEval) and() (int64, error) {
	v, err := e.cmp()
	for err == nil && e.peek() == "&&" {
		e.i++
		var w int64
		w, err = e.cmp()
		v = b2i(v != 0 && w != 0)
	}
	return v, err
}

func (e *condEval) cmp() (int64, error) {
	v, err := e.unary()
	for err == nil {
		op := e.peek()
		if op != "==" && op != "!=" && op != "<" && op != ">" && op != "<=" && op != ">=" {
			break
		}
		e.i++
		var w int64
		w, err = e.unary()
		switch op {
		case "==":
			v = b2i(v == w)
		case "!=":
			v = b2i(v != w)
		case "<":
			v = b2i(v < w)
		case ">":
			v = b2i(v > w)
		case "<=":
			v = b2i(v <= w)
		case ">=":
			v = b2i(v >= w)
		}
	}
	return v, err
}

func (e *condEval) unary() (int64, error) {
	t := e.peek()
	e.i++
	switch {
	case t == "!":
		v, err := e.unary()
		return b2i(v == 0), err
	case t == "(":
		v, err := e.or()
		if e.peek() != ")" {
			return 0, fmt.Errorf("missing ) in #if")
		}
		e.i++
		return v, err
	case t == "defined":
		paren := e.peek() == "("
		if paren {
			e.i++
		}
		name := e.peek()
		e.i++
		if paren {
			if e.peek() != ")" {
				return 0, fmt.Errorf("missing ) after defined")
			}
			e.i++
		}
		_, ok := e.p.defines[name]
		return b2i(ok), nil
	case t != "" && t[0] >= '0' && t[0] <= '9':
		n, err := strconv.ParseInt(strings.TrimRight(t, "uUlL"), 0, 64)
		return n, err
	case t != "" && isIdentStart(t[0]):
		if v, ok := e.p.defines[t]; ok {
			return e.p.evalInt(v)
		}
		return 0, nil
	}
	return 0, fmt.Errorf("bad #if expression")
}

func (p *pp) evalInt(s string) (int64, error) {
	e := &condEval{p: p, toks: condTokens(s)}
	return e.or()
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
