// Package interp compiles a checked P4 program into Go closures over a flat
// per-packet slot array and runs them.
//
// Every scalar occupies one uint64 slot (bit<W> and int<W> up to 64 bits,
// bool, enums, error) or ceil(W/64) slots little-endian for wider values.
// A header starts with its validity slot; a header stack starts with its
// nextIndex slot; a varbit starts with its current length in bits.
package interp

import (
	"github.com/fairfabric/fairfabric/p4switch/p4/check"
)

// Layout describes how a value of some type is stored.
type Layout struct {
	Type   check.Type
	Size   int // slots
	Kind   LayoutKind
	Width  int  // scalars and varbit max
	Signed bool // int<W>
	Words  int  // slots of a scalar or varbit data
	Fields []*FieldLayout
	Elem   *Layout // stack element
	N      int     // stack size
}

// LayoutKind classifies layouts.
type LayoutKind int

const (
	KScalar LayoutKind = iota
	KVarbit
	KStruct
	KHeader
	KUnion
	KStack
	KTuple
	KNone
)

// FieldLayout is a field at a slot offset within its parent.
type FieldLayout struct {
	Name   string
	Off    int
	Layout *Layout
}

// Field finds a field layout by name.
func (l *Layout) Field(name string) *FieldLayout {
	for _, f := range l.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func words(w int) int {
	if w <= 64 {
		return 1
	}
	return (w + 63) / 64
}

// layoutOf computes (and caches) the layout of t.
func (c *compiler) layoutOf(t check.Type) *Layout {
	if l, ok := c.layouts[t]; ok {
		return l
	}
	l := &Layout{Type: t}
	switch u := check.Underlying(t).(type) {
	case *check.Bits:
		l.Kind, l.Width, l.Signed, l.Words = KScalar, u.W, u.Signed, words(u.W)
		l.Size = l.Words
	case *check.Bool:
		l.Kind, l.Width, l.Words, l.Size = KScalar, 1, 1, 1
	case *check.ErrorT:
		l.Kind, l.Width, l.Words, l.Size = KScalar, 32, 1, 1
	case *check.Enum:
		w := 32
		signed := false
		if u.Base != nil {
			w, signed = u.Base.W, u.Base.Signed
		}
		l.Kind, l.Width, l.Signed, l.Words, l.Size = KScalar, w, signed, words(w), words(w)
	case *check.InfInt:
		l.Kind, l.Width, l.Words, l.Size = KScalar, 64, 1, 1
	case *check.Varbit:
		l.Kind, l.Width, l.Words = KVarbit, u.Max, (u.Max+63)/64
		l.Size = 1 + l.Words
	case *check.Struct:
		off := 0
		switch u.Kind {
		case "header":
			l.Kind = KHeader
			off = 1
		case "header_union":
			l.Kind = KUnion
		default:
			l.Kind = KStruct
		}
		for _, f := range u.Fields {
			fl := c.layoutOf(f.Type)
			l.Fields = append(l.Fields, &FieldLayout{Name: f.Name, Off: off, Layout: fl})
			off += fl.Size
		}
		l.Size = off
	case *check.Stack:
		l.Kind, l.Elem, l.N = KStack, c.layoutOf(u.Elem), u.Size
		l.Size = 1 + l.N*l.Elem.Size
	case *check.Tuple:
		l.Kind = KTuple
		off := 0
		for i, e := range u.Elems {
			fl := c.layoutOf(e)
			l.Fields = append(l.Fields, &FieldLayout{Name: itoa(i), Off: off, Layout: fl})
			off += fl.Size
		}
		l.Size = off
	default:
		l.Kind = KNone
	}
	c.layouts[t] = l
	return l
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// sext sign-extends the low w bits of v.
func sext(v uint64, w int) int64 {
	if w >= 64 {
		return int64(v)
	}
	s := uint(64 - w)
	return int64(v<<s) >> s
}
