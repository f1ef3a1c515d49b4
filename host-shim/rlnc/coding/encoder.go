package coding

import (
	"fmt"
	"math/rand/v2"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/gf256"
)

// Encoder is the sender's coding buffer: the original packets (symbols of a fixed
// size) from Base() on, which coded packets combine over windows of up to MaxWindow.
type Encoder struct {
	symbolSize int
	base       uint32   // sequence number of buf[0]
	buf        [][]byte // symbols base, base+1, ...
	free       [][]byte
	rng        *rand.Rand
}

// NewEncoder returns an encoder for symbols of symbolSize bytes whose random
// coefficients come from rng.
func NewEncoder(symbolSize int, rng *rand.Rand) (*Encoder, error) {
	if symbolSize < 1 || symbolSize > MaxSymbolSize {
		return nil, fmt.Errorf("rlnc: symbol size %d out of range 1..%d", symbolSize, MaxSymbolSize)
	}
	return &Encoder{symbolSize: symbolSize, rng: rng}, nil
}

// SymbolSize is the length of every original and coded payload.
func (e *Encoder) SymbolSize() int { return e.symbolSize }

// Base is the sequence number of the oldest buffered packet.
func (e *Encoder) Base() uint32 { return e.base }

// End is the sequence number the next pushed packet gets.
func (e *Encoder) End() uint32 { return e.base + uint32(len(e.buf)) }

// Push copies sym (zero-padded to the symbol size) into the buffer and returns its
// sequence number.
func (e *Encoder) Push(sym []byte) (uint32, error) {
	if len(sym) > e.symbolSize {
		return 0, fmt.Errorf("rlnc: symbol of %d bytes exceeds the symbol size %d", len(sym), e.symbolSize)
	}
	var b []byte
	if n := len(e.free); n > 0 {
		b, e.free = e.free[n-1], e.free[:n-1]
	} else {
		b = make([]byte, e.symbolSize)
	}
	clear(b[copy(b, sym):])
	e.buf = append(e.buf, b)
	return e.End() - 1, nil
}

// Release drops the packets before upTo (the receiver has seen them).
func (e *Encoder) Release(upTo uint32) {
	d := int32(upTo - e.base)
	if d <= 0 {
		return
	}
	if int(d) > len(e.buf) {
		d = int32(len(e.buf))
	}
	e.free = append(e.free, e.buf[:d]...)
	e.buf = append(e.buf[:0], e.buf[d:]...)
	e.base += uint32(d)
}

// Encode fills p with a coded packet over the n packets from start, with random
// non-zero coefficients. p's slices are reused when large enough.
//
// Non-zero, not merely not all zero: the sender codes each new packet j over a window
// that ends at j, so the packets 0..k form a triangular system whose diagonal is each
// packet's own coefficient. A zero there (1 packet in 256 with uniform coefficients)
// made that system singular for good: in a continuous stream every later packet brings
// a new unknown with its equation, decoding stalled until a repair round (an RTO after
// the flow-control window filled) and a 6 Mbit/s stream's records waited up to 380 ms
// (docs/rlnc.md, "Coefficients").
func (e *Encoder) Encode(start uint32, n int, p *Packet) error {
	if n < 1 || n > MaxWindow {
		return fmt.Errorf("rlnc: window size %d out of range 1..%d", n, MaxWindow)
	}
	p.Coeffs = resize(p.Coeffs, n)
	for i := range p.Coeffs {
		p.Coeffs[i] = byte(1 + e.rng.Uint32()%255)
	}
	return e.EncodeWith(start, p.Coeffs, p)
}

// EncodeWith fills p's payload with Σ coeffs[i]·symbol(start+i) and sets p.Start and
// p.Coeffs (to coeffs, not a copy).
func (e *Encoder) EncodeWith(start uint32, coeffs []byte, p *Packet) error {
	n := len(coeffs)
	if n < 1 || n > MaxWindow {
		return fmt.Errorf("rlnc: window size %d out of range 1..%d", n, MaxWindow)
	}
	off := int32(start - e.base)
	if off < 0 || int(off)+n > len(e.buf) {
		return fmt.Errorf("rlnc: window [%d, %d) is not inside the buffer [%d, %d)", start, start+uint32(n), e.base, e.End())
	}
	p.Start, p.Coeffs = start, coeffs
	p.Payload = resize(p.Payload, e.symbolSize)
	clear(p.Payload)
	for i, c := range coeffs {
		gf256.MulAddSlice(p.Payload, e.buf[int(off)+i], c)
	}
	return nil
}

func resize(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
