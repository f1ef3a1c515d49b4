package v1model

import (
	"fmt"
	"math/big"
)

// wordsBytes renders little-endian words as a canonical bytestring (no leading zero bytes, at least one byte).
func wordsBytes(ws []uint64, width int) []byte {
	x := new(big.Int)
	for i := len(ws) - 1; i >= 0; i-- {
		x.Lsh(x, 64)
		x.Or(x, new(big.Int).SetUint64(ws[i]))
	}
	if width < 64*len(ws) {
		x.And(x, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(width)), big.NewInt(1)))
	}
	b := x.Bytes()
	if len(b) == 0 {
		return []byte{0}
	}
	return b
}

// bytesWords parses a bytestring into words of a width-bit value; it fails
// when the value does not fit (leading zero bytes are accepted).
func bytesWords(b []byte, width int) ([]uint64, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("empty bytestring for a %d-bit value", width)
	}
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) > (width+7)/8 {
		return nil, fmt.Errorf("a %d-byte value does not fit in %d bits", len(b), width)
	}
	if width <= 64 {
		var v uint64
		for _, c := range b {
			v = v<<8 | uint64(c)
		}
		if width < 64 && v>>uint(width) != 0 {
			return nil, fmt.Errorf("value 0x%x does not fit in %d bits", b, width)
		}
		return []uint64{v}, nil
	}
	x := new(big.Int).SetBytes(b)
	if x.BitLen() > width {
		return nil, fmt.Errorf("value 0x%x does not fit in %d bits", b, width)
	}
	n := 1
	if width > 64 {
		n = (width + 63) / 64
	}
	ws := make([]uint64, n)
	m := new(big.Int).SetUint64(^uint64(0))
	for i := range ws {
		ws[i] = new(big.Int).And(x, m).Uint64()
		x.Rsh(x, 64)
	}
	return ws, nil
}
