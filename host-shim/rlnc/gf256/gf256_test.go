package gf256

import (
	"bytes"
	"math/rand"
	"testing"
)

// slowMul is the bitwise reference: carry-less multiplication reduced by Poly.
func slowMul(a, b byte) byte {
	var p uint16
	x, y := uint16(a), uint16(b)
	for y != 0 {
		if y&1 != 0 {
			p ^= x
		}
		y >>= 1
		x <<= 1
		if x&0x100 != 0 {
			x ^= Poly
		}
	}
	return byte(p)
}

func TestMulMatchesBitwiseReferenceForAllPairs(t *testing.T) {
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			want := slowMul(byte(a), byte(b))
			if got := Mul(byte(a), byte(b)); got != want {
				t.Fatalf("Mul(%#x, %#x) = %#x, want %#x", a, b, got, want)
			}
			if got := MulTableRow(byte(a))[b]; got != want {
				t.Fatalf("MulTableRow(%#x)[%#x] = %#x, want %#x", a, b, got, want)
			}
		}
	}
}

func TestKnownProducts(t *testing.T) {
	for _, c := range []struct{ a, b, want byte }{
		{0, 0x53, 0}, {1, 0x53, 0x53}, {2, 0x80, 0x1d}, {0x80, 0x80, 0x13}, {0xff, 0xff, 0xe2},
	} {
		if got := Mul(c.a, c.b); got != c.want {
			t.Errorf("Mul(%#x, %#x) = %#x, want %#x", c.a, c.b, got, c.want)
		}
	}
}

func TestInverseAndDivision(t *testing.T) {
	for a := 1; a < 256; a++ {
		if Mul(byte(a), Inv(byte(a))) != 1 {
			t.Fatalf("a·Inv(a) != 1 for a=%#x", a)
		}
		for b := 1; b < 256; b++ {
			if Mul(Div(byte(a), byte(b)), byte(b)) != byte(a) {
				t.Fatalf("(a/b)·b != a for a=%#x b=%#x", a, b)
			}
		}
	}
	if Div(0, 7) != 0 {
		t.Error("0/7 != 0")
	}
	for name, f := range map[string]func(){"Inv(0)": func() { Inv(0) }, "Div(1,0)": func() { Div(1, 0) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestFieldLaws(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		a, b, c := byte(r.Intn(256)), byte(r.Intn(256)), byte(r.Intn(256))
		if Mul(a, Add(b, c)) != Add(Mul(a, b), Mul(a, c)) {
			t.Fatalf("distributivity fails for %#x %#x %#x", a, b, c)
		}
		if Mul(Mul(a, b), c) != Mul(a, Mul(b, c)) {
			t.Fatalf("associativity fails for %#x %#x %#x", a, b, c)
		}
	}
}

func TestSliceOperationsMatchScalar(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 1024, 1027} {
		for _, c := range []byte{0, 1, 2, 0x8e, 0xff} {
			src := make([]byte, n)
			dst := make([]byte, n+3) // longer dst: only len(src) bytes change
			r.Read(src)
			r.Read(dst)
			want := append([]byte(nil), dst...)
			for i := range src {
				want[i] ^= slowMul(c, src[i])
			}
			MulAddSlice(dst, src, c)
			if !bytes.Equal(dst, want) {
				t.Fatalf("MulAddSlice n=%d c=%#x differs from the scalar reference", n, c)
			}
			b := append([]byte(nil), src...)
			MulSlice(b, c)
			for i := range src {
				if b[i] != slowMul(c, src[i]) {
					t.Fatalf("MulSlice n=%d c=%#x: byte %d = %#x, want %#x", n, c, i, b[i], slowMul(c, src[i]))
				}
			}
		}
	}
}

var sink []byte

func BenchmarkMulAddSlice1K(b *testing.B) {
	src, dst := make([]byte, 1024), make([]byte, 1024)
	rand.New(rand.NewSource(3)).Read(src)
	b.SetBytes(1024)
	for i := 0; i < b.N; i++ {
		MulAddSlice(dst, src, byte(i%254)+2)
	}
	sink = dst
}

func BenchmarkMulAddSlice1KBitwise(b *testing.B) {
	src, dst := make([]byte, 1024), make([]byte, 1024)
	rand.New(rand.NewSource(3)).Read(src)
	b.SetBytes(1024)
	for i := 0; i < b.N; i++ {
		c := byte(i%254) + 2
		for j := range src {
			dst[j] ^= slowMul(c, src[j])
		}
	}
	sink = dst
}

func BenchmarkMulAddSlice1KLogExp(b *testing.B) {
	src, dst := make([]byte, 1024), make([]byte, 1024)
	rand.New(rand.NewSource(3)).Read(src)
	b.SetBytes(1024)
	for i := 0; i < b.N; i++ {
		c := byte(i%254) + 2
		for j := range src {
			dst[j] ^= Mul(c, src[j])
		}
	}
	sink = dst
}

func BenchmarkCopy1K(b *testing.B) {
	src, dst := make([]byte, 1024), make([]byte, 1024)
	b.SetBytes(1024)
	for i := 0; i < b.N; i++ {
		copy(dst, src)
	}
	sink = dst
}
