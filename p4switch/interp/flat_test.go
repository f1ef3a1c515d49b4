package interp

import (
	"bytes"
	"math/rand"
	"testing"
)

func scalarLayout(w int) *Layout {
	return &Layout{Kind: KScalar, Width: w, Words: words(w), Size: words(w)}
}

// headerLayout lays out a header (validity slot first) with fields of the given widths.
func headerLayout(widths ...int) *Layout {
	l := &Layout{Kind: KHeader, Size: 1}
	for _, w := range widths {
		f := scalarLayout(w)
		l.Fields = append(l.Fields, &FieldLayout{Off: l.Size, Layout: f})
		l.Size += f.Size
	}
	return l
}

// TestFlatMatchesGenericSerialiser: the fast serialiser writes exactly the
// bits of the generic one, whatever the values (including bits above a
// field's width) and the writer's starting bit offset.
func TestFlatMatchesGenericSerialiser(t *testing.T) {
	cases := []struct {
		name   string
		l      *Layout
		isFlat bool
	}{
		{"ethernet", headerLayout(48, 48, 16), true},
		{"ipv4", headerLayout(4, 4, 8, 16, 16, 3, 13, 8, 8, 16, 32, 32), true},
		{"64-bit and 57-bit fields", headerLayout(64, 57, 7), true},
		{"odd total width", headerLayout(9, 3), false},
		{"wide field", headerLayout(128), false},
	}
	rnd := rand.New(rand.NewSource(1))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fl := flatten(c.l)
			if (fl != nil) != c.isFlat {
				t.Fatalf("flatten: got %v, want flat=%v", fl, c.isFlat)
			}
			if fl == nil {
				return
			}
			for round := 0; round < 50; round++ {
				s := make([]uint64, c.l.Size)
				for i := range s {
					s[i] = rnd.Uint64()
				}
				s[0] = 1
				lead := round % 3 // 0, 1 or 2 bits already written
				var want, got bitWriter
				want.write(5, lead)
				got.write(5, lead)
				emitLayout(&want, c.l, s)
				fl.write(&got, s)
				if want.bits != got.bits || !bytes.Equal(want.buf, got.buf) {
					t.Fatalf("lead %d: flat wrote %d bits %x, generic %d bits %x", lead, got.bits, got.buf, want.bits, want.buf)
				}
			}
		})
	}
}
