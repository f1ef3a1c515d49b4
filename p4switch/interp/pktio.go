package interp

// readBits returns w (<= 64) bits of p starting at bit offset off, MSB first.
// Bits beyond the end of p read as zero.
func readBits(p []byte, off, w int) uint64 {
	if off&7 == 0 && w&7 == 0 {
		i := off >> 3
		if i+w>>3 <= len(p) {
			var v uint64
			for _, b := range p[i : i+w>>3] {
				v = v<<8 | uint64(b)
			}
			return v
		}
	}
	var v uint64
	for k := 0; k < w; k++ {
		bit := off + k
		var b uint64
		if bit>>3 < len(p) {
			b = uint64(p[bit>>3]>>(7-uint(bit&7))) & 1
		}
		v = v<<1 | b
	}
	return v
}

// readWide reads w bits into dst words (little-endian words, value MSB first in the packet).
func readWide(p []byte, off, w int, dst []uint64) {
	for i := range dst {
		dst[i] = 0
	}
	// read from the least significant end
	pos := off + w
	for i := 0; pos > off; i++ {
		n := 64
		if pos-off < 64 {
			n = pos - off
		}
		dst[i] = readBits(p, pos-n, n)
		pos -= n
	}
}

// appendBits appends w bits of v (MSB first) to a bit buffer.
type bitWriter struct {
	buf  []byte
	bits int // total bits written
}

func (bw *bitWriter) write(v uint64, w int) {
	if bw.bits&7 == 0 && w&7 == 0 {
		for k := w - 8; k >= 0; k -= 8 {
			bw.buf = append(bw.buf, byte(v>>uint(k)))
		}
		bw.bits += w
		return
	}
	for k := w - 1; k >= 0; k-- {
		if bw.bits&7 == 0 {
			bw.buf = append(bw.buf, 0)
		}
		if v>>uint(k)&1 != 0 {
			bw.buf[len(bw.buf)-1] |= 0x80 >> uint(bw.bits&7)
		}
		bw.bits++
	}
}

func (bw *bitWriter) writeWide(src []uint64, w int) {
	// most significant word first
	top := w - 64*(len(src)-1)
	bw.write(src[len(src)-1], top)
	for i := len(src) - 2; i >= 0; i-- {
		bw.write(src[i], 64)
	}
}
