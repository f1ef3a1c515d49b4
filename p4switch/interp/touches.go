package interp

import (
	"sort"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

// Applying a parser or control instance copies each argument into the
// instance's parameter slots and each inout argument back (copy-in/copy-out).
// A sub-control typically gets the whole headers, metadata and standard
// metadata and uses a few fields of them, so copying whole structs was most
// of the per-packet cost of a program like fabric.p4. While an instance is
// compiled, every storage access it compiles is recorded (touchSet); the
// call then copies only the touched parts of in and inout parameters.
//
// That is exact as long as the arguments do not overlap: slots the callee
// never reads need no value, and slots it never writes would be copied back
// unchanged. Calls whose arguments may overlap copy everything, as before;
// so do out parameters (their untouched slots are cleared in the caller).

// segment is a run of slots, relative to the start of a parameter.
type segment struct{ off, n int }

// touchSet collects the absolute slot ranges one block instance accesses.
type touchSet struct{ ranges []segment }

func (t *touchSet) add(off, n int) {
	if n > 0 {
		t.ranges = append(t.ranges, segment{off, n})
	}
}

// mergeGap joins touched runs this close: one copy of a few untouched slots
// is cheaper than two copies.
const mergeGap = 4

// within returns the touched parts of [off, off+n), relative to off, sorted
// and merged; an empty, non-nil slice when the instance never touches it.
func (t *touchSet) within(off, n int) []segment {
	var in []segment
	for _, r := range t.ranges {
		lo, hi := max(r.off, off), min(r.off+r.n, off+n)
		if lo < hi {
			in = append(in, segment{lo - off, hi - lo})
		}
	}
	sort.Slice(in, func(i, j int) bool { return in[i].off < in[j].off })
	out := []segment{}
	for _, s := range in {
		if k := len(out) - 1; k >= 0 && s.off <= out[k].off+out[k].n+mergeGap {
			out[k].n = max(out[k].n, s.off+s.n-out[k].off)
			continue
		}
		out = append(out, s)
	}
	return out
}

// touch records slots [off, off+n) as accessed by the innermost instance
// being compiled.
func (c *compiler) touch(off, n int) {
	if k := len(c.touching); k > 0 && c.noTouch == 0 {
		c.touching[k-1].add(off, n)
	}
}

// touchLval records the storage an lvalue expression denotes: its exact
// slots (and its header's validity slot) when they are known at compile
// time, else the whole variable it belongs to.
func (c *compiler) touchLval(e *env, x ast.Expr, lv *lval) {
	if len(c.touching) == 0 || c.noTouch > 0 {
		return
	}
	for lv.slice != nil {
		lv = lv.slice.base
	}
	if lv.static && lv.union == nil && lv.hvDyn == nil {
		c.touch(lv.off, lv.l.Size)
		if lv.hv >= 0 {
			c.touch(lv.hv, 1)
		}
		return
	}
	root := rootIdent(x)
	if root == nil {
		return
	}
	o := c.info.Uses[root]
	if o == nil {
		return
	}
	if off, ok := e.slot(o.Decl); ok {
		c.touch(off, c.layoutOf(c.info.DeclTypes[o.Decl]).Size)
	}
}

// rootIdent is the variable a storage expression starts from.
func rootIdent(x ast.Expr) *ast.Ident {
	for {
		switch y := x.(type) {
		case *ast.Ident:
			return y
		case *ast.Member:
			x = y.X
		case *ast.Index:
			x = y.X
		case *ast.Slice:
			x = y.X
		default:
			return nil
		}
	}
}

// staticArg returns the storage of argument x when its slots are known at
// compile time (a variable or a field path without run-time indices),
// recording nothing.
func (c *compiler) staticArg(e *env, x ast.Expr) (*lval, bool) {
	if x == nil || !isStorage(x) {
		return nil, false
	}
	if _, isConst := c.info.Consts[x]; isConst {
		return nil, false
	}
	root := rootIdent(x)
	o := c.info.Uses[root]
	if o == nil {
		return nil, false
	}
	if _, ok := e.slot(o.Decl); !ok {
		return nil, false
	}
	c.noTouch++
	lv := c.lvalue(e, x)
	c.noTouch--
	if !lv.static || lv.slice != nil || lv.union != nil || lv.hvDyn != nil {
		return nil, false
	}
	return lv, true
}
