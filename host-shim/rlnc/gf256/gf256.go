// Package gf256 is arithmetic in GF(2^8), the field of Promenade's random linear
// network code (docs/rlnc.md): addition is XOR, multiplication goes through
// log/exp tables, and the row operations of encoding and Gaussian elimination
// (dst += c·src, dst *= c) go through a 256-entry table per constant c.
package gf256

// Poly is the field's reducing polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d), the
// one Reed–Solomon and most RLNC libraries use; 2 generates its multiplicative group.
const Poly = 0x11d

var (
	expTable [510]byte // expTable[i] = 2^i; doubled so Mul needs no modulo
	logTable [256]byte // logTable[a] = i such that 2^i = a (a != 0); logTable[0] unused
	mulTable [256][256]byte
	invTable [256]byte
)

func init() {
	x := 1
	for i := 0; i < 255; i++ {
		expTable[i] = byte(x)
		expTable[i+255] = byte(x)
		logTable[x] = byte(i)
		x <<= 1
		if x&0x100 != 0 {
			x ^= Poly
		}
	}
	for a := 1; a < 256; a++ {
		for b := 1; b < 256; b++ {
			mulTable[a][b] = expTable[int(logTable[a])+int(logTable[b])]
		}
		invTable[a] = expTable[255-int(logTable[a])]
	}
}

// Add returns a + b (which is also a - b).
func Add(a, b byte) byte { return a ^ b }

// Mul returns a·b by the log/exp tables.
func Mul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return expTable[int(logTable[a])+int(logTable[b])]
}

// Inv returns the multiplicative inverse of a; it panics for 0, which has none.
func Inv(a byte) byte {
	if a == 0 {
		panic("gf256: inverse of 0")
	}
	return invTable[a]
}

// Div returns a/b; it panics when b is 0.
func Div(a, b byte) byte {
	if b == 0 {
		panic("gf256: division by 0")
	}
	if a == 0 {
		return 0
	}
	return expTable[int(logTable[a])+255-int(logTable[b])]
}

// MulTableRow returns the table of x ↦ c·x, the lookup the slice operations use.
func MulTableRow(c byte) *[256]byte { return &mulTable[c] }
