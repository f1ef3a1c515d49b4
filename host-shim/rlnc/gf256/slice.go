package gf256

// MulAddSlice sets dst[i] += c·src[i] for i < len(src); dst must be at least as long.
// It is the inner loop of encoding (a coded payload is Σ c_i·b_i) and of elimination.
func MulAddSlice(dst, src []byte, c byte) {
	switch c {
	case 0:
		return
	case 1:
		xorSlice(dst, src)
		return
	}
	t := &mulTable[c]
	dst = dst[:len(src)]
	n := len(src) &^ 7
	for i := 0; i < n; i += 8 {
		s := src[i : i+8 : i+8]
		d := dst[i : i+8 : i+8]
		d[0] ^= t[s[0]]
		d[1] ^= t[s[1]]
		d[2] ^= t[s[2]]
		d[3] ^= t[s[3]]
		d[4] ^= t[s[4]]
		d[5] ^= t[s[5]]
		d[6] ^= t[s[6]]
		d[7] ^= t[s[7]]
	}
	for i := n; i < len(src); i++ {
		dst[i] ^= t[src[i]]
	}
}

// MulSlice sets b[i] = c·b[i] (normalising a row by its pivot's inverse).
func MulSlice(b []byte, c byte) {
	switch c {
	case 0:
		clear(b)
		return
	case 1:
		return
	}
	t := &mulTable[c]
	n := len(b) &^ 7
	for i := 0; i < n; i += 8 {
		d := b[i : i+8 : i+8]
		d[0] = t[d[0]]
		d[1] = t[d[1]]
		d[2] = t[d[2]]
		d[3] = t[d[3]]
		d[4] = t[d[4]]
		d[5] = t[d[5]]
		d[6] = t[d[6]]
		d[7] = t[d[7]]
	}
	for i := n; i < len(b); i++ {
		b[i] = t[b[i]]
	}
}

// xorSlice sets dst[i] ^= src[i], eight bytes at a time.
func xorSlice(dst, src []byte) {
	dst = dst[:len(src)]
	n := len(src) &^ 7
	for i := 0; i < n; i += 8 {
		d := dst[i : i+8 : i+8]
		s := src[i : i+8 : i+8]
		v := uint64(d[0]) | uint64(d[1])<<8 | uint64(d[2])<<16 | uint64(d[3])<<24 |
			uint64(d[4])<<32 | uint64(d[5])<<40 | uint64(d[6])<<48 | uint64(d[7])<<56
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		v ^= w
		d[0], d[1], d[2], d[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		d[4], d[5], d[6], d[7] = byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56)
	}
	for i := n; i < len(src); i++ {
		dst[i] ^= src[i]
	}
}
