package interp

import (
	"math/big"

	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// val is a compiled expression.
type val struct {
	t   check.Type
	l   *Layout
	u   func(*State) uint64   // scalars up to 64 bits (also bool, enum, error)
	b   func(*State) *big.Int // scalars wider than 64 bits: unsigned W-bit representation
	lv  *lval                 // set when the expression denotes storage
	agg func(*State, []uint64)
	cst *big.Int // compile-time constant (signed value for int<W>)
}

// wide reports whether the scalar needs the big path.
func (v val) wide() bool { return v.l != nil && v.l.Kind == KScalar && v.l.Width > 64 }

// lval is assignable storage.
type lval struct {
	l         *Layout
	static    bool
	off       int              // when static
	addr      func(*State) int // dynamic address; -1 when out of bounds
	hv        int              // static offset of the enclosing header's validity slot, -1 none
	hvDyn     func(*State) int // dynamic validity slot (header stack element), nil when static
	union     []int            // for a header inside a union: validity slots of the siblings (relative to union base)
	unionBase func(*State) int // union base address
	slice     *sliceInfo
}

type sliceInfo struct {
	base   *lval
	hi, lo int
}

func (lv *lval) address(st *State) int {
	if lv.static {
		return lv.off
	}
	return lv.addr(st)
}

// validSlot returns the validity slot guarding writes (-1 none).
func (lv *lval) validSlot(st *State) int {
	if lv.hvDyn != nil {
		return lv.hvDyn(st)
	}
	return lv.hv
}

// bigOf returns the W-bit unsigned representation of a scalar as a big.Int.
func bigFromWords(ws []uint64) *big.Int {
	r := new(big.Int)
	for i := len(ws) - 1; i >= 0; i-- {
		r.Lsh(r, 64)
		r.Or(r, new(big.Int).SetUint64(ws[i]))
	}
	return r
}

func wordsFromBig(v *big.Int, w int, dst []uint64) {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	x := new(big.Int).Mod(v, m)
	w64 := new(big.Int).SetUint64(^uint64(0))
	for i := range dst {
		dst[i] = new(big.Int).And(x, w64).Uint64()
		x.Rsh(x, 64)
	}
}

// toBig converts a scalar value to a big-path function.
func (v val) toBig() func(*State) *big.Int {
	if v.b != nil {
		return v.b
	}
	u := v.u
	return func(st *State) *big.Int { return new(big.Int).SetUint64(u(st)) }
}

// signedBig interprets an unsigned W-bit big value as int<W>.
func signedBig(x *big.Int, w int) *big.Int {
	if x.Bit(w-1) == 1 {
		return new(big.Int).Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	}
	return x
}

func modBig(x *big.Int, w int) *big.Int {
	return new(big.Int).Mod(x, new(big.Int).Lsh(big.NewInt(1), uint(w)))
}
