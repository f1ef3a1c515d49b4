package interp

// Fast serialisation for the common case: a header, struct or tuple whose
// fields are all scalars of at most 64 bits and whose total width is whole
// bytes. Its fields are packed through a 64-bit accumulator and written a
// byte at a time, instead of bit by bit per field.

// flatPiece is a run of at most 56 bits of one slot: bits
// [shift, shift+width) of s[off].
type flatPiece struct {
	off, shift, width int
}

// flatLayout is a layout flattened into pieces, or nil when it cannot be.
type flatLayout struct {
	pieces []flatPiece
	bits   int
}

// flatten flattens l (headers contribute their fields; validity is the
// caller's business). It returns nil for layouts with wide scalars,
// varbits, stacks or unions, or a width that is not whole bytes.
func flatten(l *Layout) *flatLayout {
	fl := &flatLayout{}
	if !fl.add(l, 0) || fl.bits%8 != 0 {
		return nil
	}
	return fl
}

func (fl *flatLayout) add(l *Layout, base int) bool {
	switch l.Kind {
	case KScalar:
		if l.Words != 1 {
			return false
		}
		if l.Width > 56 { // keep every piece ≤ 56 bits so the accumulator never overflows
			fl.pieces = append(fl.pieces, flatPiece{off: base, shift: 32, width: l.Width - 32}, flatPiece{off: base, shift: 0, width: 32})
		} else if l.Width > 0 {
			fl.pieces = append(fl.pieces, flatPiece{off: base, shift: 0, width: l.Width})
		}
		fl.bits += l.Width
		return true
	case KHeader, KStruct, KTuple:
		for _, f := range l.Fields {
			if !fl.add(f.Layout, base+f.Off) {
				return false
			}
		}
		return true
	}
	return false
}

// write appends the flattened value s to bw.
func (fl *flatLayout) write(bw *bitWriter, s []uint64) {
	if bw.bits&7 != 0 {
		for _, p := range fl.pieces {
			bw.write(s[p.off]>>uint(p.shift)&(1<<uint(p.width)-1), p.width)
		}
		return
	}
	var acc uint64
	n := 0 // bits held in acc, < 8 between pieces
	for _, p := range fl.pieces {
		acc = acc<<uint(p.width) | s[p.off]>>uint(p.shift)&(1<<uint(p.width)-1)
		n += p.width
		for n >= 8 {
			n -= 8
			bw.buf = append(bw.buf, byte(acc>>uint(n)))
		}
	}
	bw.bits += fl.bits
}
