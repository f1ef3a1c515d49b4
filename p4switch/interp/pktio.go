package interp

// readBits returns w (<= 64) bits of p starting at bit offset off, MSB first.
// Bits beyond the end of p read as zero.
func readBits(p []byte, off, w int) uint64 {
	if w == 0 {
		return 0
	}
	if w > 56 {
		hi := readBits(p, off, w-32)
		return hi<<32 | readBits(p, off+w-32, 32)
	}
	i := off >> 3
	// load 8 bytes big-endian from byte i (zero beyond the end)
	var v uint64
	if i+8 <= len(p) {
		v = uint64(p[i])<<56 | uint64(p[i+1])<<48 | uint64(p[i+2])<<40 | uint64(p[i+3])<<32 |
			uint64(p[i+4])<<24 | uint64(p[i+5])<<16 | uint64(p[i+6])<<8 | uint64(p[i+7])
	} else {
		for k := 0; k < 8; k++ {
			v <<= 8
			if i+k < len(p) {
				v |= uint64(p[i+k])
			}
		}
	}
	return v << uint(off&7) >> uint(64-w)
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
	for w > 0 {
		if bw.bits&7 == 0 {
			bw.buf = append(bw.buf, 0)
		}
		free := 8 - bw.bits&7
		n := free
		if w < n {
			n = w
		}
		chunk := v >> uint(w-n) & (1<<uint(n) - 1)
		bw.buf[len(bw.buf)-1] |= byte(chunk << uint(free-n))
		bw.bits += n
		w -= n
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
