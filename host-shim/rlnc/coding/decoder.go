package coding

import (
	"errors"
	"fmt"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/gf256"
)

// Errors of Decoder.Add. None of them changes the decoder's state.
var (
	ErrStale       = errors.New("rlnc: packet combines originals delivered too long ago to subtract")
	ErrCapacity    = errors.New("rlnc: packet reaches beyond the decoder's capacity")
	ErrSymbolSize  = errors.New("rlnc: payload length differs from the session's symbol size")
	ErrCoeffsShape = errors.New("rlnc: window size out of range")
)

// Decoder is the receiver's progressive Gauss–Jordan elimination over a sliding range
// of original packets [Decoded(), Decoded()+capacity). It keeps the received
// combinations in reduced row echelon form: a row per pivot column, each pivot 1 and
// the only non-zero of its column. TCP/NC's definition: packet k is "seen" once some
// row has its pivot at k. A row whose only non-zero is its pivot is a decoded packet;
// decoded packets are delivered in order.
type Decoder struct {
	symbolSize int
	capacity   uint32 // columns; a power of two so ring indices are a mask
	mask       uint32
	base       uint32 // first undelivered sequence number
	rows       []*row // by pivot sequence number & mask; nil = no pivot
	pool       []*row
	history    [][]byte // delivered symbols, by sequence number & mask
	histValid  uint32   // how many delivered symbols history holds (≤ capacity)
	high       uint32   // one past the highest column any accepted packet referenced
	scratch    *row
	stats      DecoderStats
}

// DecoderStats counts what the decoder did with the packets it was given.
type DecoderStats struct {
	Innovative, Dependent, Stale, Rejected, Delivered uint64
}

type row struct {
	coef    []byte // by sequence number & mask
	hi      uint32 // one past the last column that may be non-zero (absolute seq)
	payload []byte
}

// NewDecoder returns a decoder for symbols of symbolSize bytes that holds at most
// capacity (a power of two, ≥ MaxWindow) undelivered packets; it also keeps the last
// capacity delivered ones to subtract them from late packets that still combine them.
func NewDecoder(symbolSize, capacity int) (*Decoder, error) {
	if symbolSize < 1 || symbolSize > MaxSymbolSize {
		return nil, fmt.Errorf("rlnc: symbol size %d out of range 1..%d", symbolSize, MaxSymbolSize)
	}
	if capacity < MaxWindow || capacity > 1<<16 || capacity&(capacity-1) != 0 {
		return nil, fmt.Errorf("rlnc: decoder capacity %d must be a power of two in %d..%d", capacity, MaxWindow, 1<<16)
	}
	d := &Decoder{
		symbolSize: symbolSize,
		capacity:   uint32(capacity),
		mask:       uint32(capacity - 1),
		rows:       make([]*row, capacity),
		history:    make([][]byte, capacity),
	}
	d.scratch = d.newRow()
	return d, nil
}

// SymbolSize is the length of every payload.
func (d *Decoder) SymbolSize() int { return d.symbolSize }

// Capacity is how many undelivered packets the decoder can hold.
func (d *Decoder) Capacity() int { return int(d.capacity) }

// Decoded is the first sequence number not yet delivered.
func (d *Decoder) Decoded() uint32 { return d.base }

// Seen is the first sequence number that is not seen: every earlier packet is.
func (d *Decoder) Seen() uint32 {
	s := d.base
	for s-d.base < d.capacity && d.rows[s&d.mask] != nil {
		s++
	}
	return s
}

// Missing is how many more independent packets the decoder needs to decode every
// packet it has heard of: the unknown columns up to the highest one any packet
// referenced, less the rank.
func (d *Decoder) Missing() int {
	return int(d.high-d.base) - d.Rank()
}

// Rank is the number of received, independent, undelivered combinations.
func (d *Decoder) Rank() int {
	n := 0
	for _, r := range d.rows {
		if r != nil {
			n++
		}
	}
	return n
}

// Stats returns the counters.
func (d *Decoder) Stats() DecoderStats { return d.stats }

func (d *Decoder) newRow() *row {
	if n := len(d.pool); n > 0 {
		r := d.pool[n-1]
		d.pool = d.pool[:n-1]
		return r
	}
	return &row{coef: make([]byte, d.capacity), payload: make([]byte, d.symbolSize)}
}

// Add folds one coded packet into the decoder and calls deliver, in order, for every
// packet that it completes (sym is valid only during the call). It reports whether the
// packet was innovative (raised the rank). A dependent packet, whose coefficients are
// a combination of rows already held (a singular matrix had it been kept), is
// discarded: the state is the one before the call.
func (d *Decoder) Add(p *Packet, deliver func(seq uint32, sym []byte)) (bool, error) {
	n := uint32(len(p.Coeffs))
	if n < 1 || n > MaxWindow {
		d.stats.Rejected++
		return false, ErrCoeffsShape
	}
	if len(p.Payload) != d.symbolSize {
		d.stats.Rejected++
		return false, fmt.Errorf("%w: %d bytes, want %d", ErrSymbolSize, len(p.Payload), d.symbolSize)
	}
	// Every non-zero coefficient must be for an undelivered packet inside the capacity,
	// or for a delivered one still in history.
	lo, hi := d.base, d.base // the columns the new row may occupy
	for i, c := range p.Coeffs {
		if c == 0 {
			continue
		}
		seq := p.Start + uint32(i)
		off := int32(seq - d.base)
		if off < 0 && uint32(-off) > d.histValid {
			d.stats.Stale++
			return false, ErrStale
		}
		if off >= int32(d.capacity) {
			d.stats.Rejected++
			return false, fmt.Errorf("%w: packet %d, capacity ends at %d", ErrCapacity, seq, d.base+d.capacity)
		}
		if off >= 0 && int32(seq+1-d.base) > int32(hi-d.base) {
			hi = seq + 1
		}
	}
	if int32(hi-d.high) > 0 {
		d.high = hi
	}
	r := d.scratch
	clear(r.coef)
	copy(r.payload, p.Payload)
	for i, c := range p.Coeffs {
		if c == 0 {
			continue
		}
		seq := p.Start + uint32(i)
		if int32(seq-d.base) < 0 {
			gf256.MulAddSlice(r.payload, d.history[seq&d.mask], c)
			continue
		}
		r.coef[seq&d.mask] = c
	}
	// Forward: remove every pivot column. Pivot rows are zero in other pivot columns,
	// so one pass from left to right leaves the new row zero in all of them.
	for col := lo; col != hi; col++ {
		c := r.coef[col&d.mask]
		if c == 0 {
			continue
		}
		pr := d.rows[col&d.mask]
		if pr == nil {
			continue
		}
		d.mulAddCoef(r, pr, col, c)
		gf256.MulAddSlice(r.payload, pr.payload, c)
		if int32(pr.hi-hi) > 0 {
			hi = pr.hi
		}
	}
	pivot, found := lo, false
	for ; pivot != hi; pivot++ {
		if r.coef[pivot&d.mask] != 0 {
			found = true
			break
		}
	}
	if !found {
		d.stats.Dependent++
		return false, nil
	}
	r.hi = hi
	if inv := gf256.Inv(r.coef[pivot&d.mask]); inv != 1 {
		t := gf256.MulTableRow(inv)
		for col := pivot; col != hi; col++ {
			r.coef[col&d.mask] = t[r.coef[col&d.mask]]
		}
		gf256.MulSlice(r.payload, inv)
	}
	// Backward: clear the new pivot's column in the rows that have it.
	for col := d.base; col != pivot; col++ {
		or := d.rows[col&d.mask]
		if or == nil {
			continue
		}
		if c := or.coef[pivot&d.mask]; c != 0 {
			d.mulAddCoef(or, r, pivot, c)
			gf256.MulAddSlice(or.payload, r.payload, c)
			if int32(r.hi-or.hi) > 0 {
				or.hi = r.hi
			}
		}
	}
	d.rows[pivot&d.mask] = r
	d.scratch = d.newRow()
	d.stats.Innovative++
	d.deliver(deliver)
	return true, nil
}

// mulAddCoef sets dst.coef += c·src.coef over src's columns [from, src.hi).
func (d *Decoder) mulAddCoef(dst, src *row, from uint32, c byte) {
	t := gf256.MulTableRow(c)
	for col := from; col != src.hi; col++ {
		i := col & d.mask
		dst.coef[i] ^= t[src.coef[i]]
	}
}

// deliver hands over every decoded packet at the front, in order.
func (d *Decoder) deliver(fn func(uint32, []byte)) {
	for {
		i := d.base & d.mask
		r := d.rows[i]
		if r == nil {
			return
		}
		for col := d.base + 1; col != r.hi; col++ {
			if r.coef[col&d.mask] != 0 {
				return
			}
		}
		if fn != nil {
			fn(d.base, r.payload)
		}
		// The row's payload becomes the history entry; the old entry's buffer is reused.
		old := d.history[i]
		d.history[i] = r.payload
		d.rows[i] = nil
		r.coef[i] = 0
		if old == nil {
			old = make([]byte, d.symbolSize)
		}
		r.payload = old
		d.pool = append(d.pool, r)
		d.base++
		if int32(d.high-d.base) < 0 {
			d.high = d.base
		}
		if d.histValid < d.capacity {
			d.histValid++
		}
		d.stats.Delivered++
	}
}
