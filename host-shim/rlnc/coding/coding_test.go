package coding

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/gf256"
)

const sym = 1024

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// source pushes count random symbols into a fresh encoder and returns both.
func source(t testing.TB, r *rand.Rand, count int) (*Encoder, [][]byte) {
	t.Helper()
	e, err := NewEncoder(sym, r)
	if err != nil {
		t.Fatal(err)
	}
	orig := make([][]byte, count)
	for i := range orig {
		orig[i] = make([]byte, sym)
		for j := range orig[i] {
			orig[i][j] = byte(r.Uint32())
		}
		if _, err := e.Push(orig[i]); err != nil {
			t.Fatal(err)
		}
	}
	return e, orig
}

// sink collects deliveries and checks they come in order.
type sink struct {
	t    testing.TB
	next uint32
	got  [][]byte
}

func (s *sink) deliver(seq uint32, b []byte) {
	if seq != s.next {
		s.t.Fatalf("delivered %d, want %d (out of order)", seq, s.next)
	}
	s.next++
	s.got = append(s.got, append([]byte(nil), b...))
}

func (s *sink) check(orig [][]byte) {
	s.t.Helper()
	if len(s.got) != len(orig) {
		s.t.Fatalf("delivered %d packets, want %d", len(s.got), len(orig))
	}
	for i := range orig {
		if !bytes.Equal(s.got[i], orig[i]) {
			s.t.Fatalf("packet %d decoded wrongly", i)
		}
	}
}

func clone(p Packet) Packet {
	p.Coeffs = append([]byte(nil), p.Coeffs...)
	p.Payload = append([]byte(nil), p.Payload...)
	return p
}

// rank computes the rank of coefficient rows by plain Gaussian elimination: the
// reference the decoder's bookkeeping is checked against.
func rank(rows [][]byte) int {
	m := make([][]byte, len(rows))
	for i := range rows {
		m[i] = append([]byte(nil), rows[i]...)
	}
	rk := 0
	for col := 0; len(m) > 0 && col < len(m[0]); col++ {
		p := -1
		for i := rk; i < len(m); i++ {
			if m[i][col] != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		m[rk], m[p] = m[p], m[rk]
		inv := gf256.Inv(m[rk][col])
		for i := range m {
			if i != rk && m[i][col] != 0 {
				f := gf256.Mul(m[i][col], inv)
				gf256.MulAddSlice(m[i], m[rk], f)
			}
		}
		rk++
	}
	return rk
}

func TestHeaderRoundTrip(t *testing.T) {
	p := Packet{PathID: 4094, Session: 0xdeadbeef, Start: 1<<32 - 2, Coeffs: []byte{1, 0, 0xff}, Payload: []byte("hello")}
	b, err := p.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != p.Len() || len(b) != HeaderLen+3+5 {
		t.Fatalf("wire length %d, Len %d", len(b), p.Len())
	}
	want := []byte{1, 1, 0x0f, 0xfe, 0xde, 0xad, 0xbe, 0xef, 0xff, 0xff, 0xff, 0xfe, 3, 0, 0, 5, 1, 0, 0xff}
	if !bytes.Equal(b[:len(want)], want) {
		t.Fatalf("header % x, want % x", b[:len(want)], want)
	}
	q, err := ParsePacket(b)
	if err != nil {
		t.Fatal(err)
	}
	if q.PathID != p.PathID || q.Session != p.Session || q.Start != p.Start || !bytes.Equal(q.Coeffs, p.Coeffs) || !bytes.Equal(q.Payload, p.Payload) {
		t.Fatalf("parsed %+v, want %+v", q, p)
	}
	a := Ack{PathID: 2, Session: 7, Seen: 10, Decoded: 8, Missing: 3}
	ab := a.AppendTo(nil)
	if got, err := ParseAck(ab); err != nil || got != a {
		t.Fatalf("ack round trip: %+v %v", got, err)
	}
}

func TestHeaderRejectsMalformed(t *testing.T) {
	good, _ := (&Packet{Coeffs: []byte{1, 2}, Payload: []byte{9, 9, 9}}).AppendTo(nil)
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	ack := (&Ack{Seen: 5, Decoded: 5}).AppendTo(nil)
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"version 2", mod(func(b []byte) []byte { b[0] = 2; return b })},
		{"type 9", mod(func(b []byte) []byte { b[1] = 9; return b })},
		{"ack as packet", ack},
		{"window 0", mod(func(b []byte) []byte { b[12] = 0; return b })},
		{"window 17", mod(func(b []byte) []byte { b[12] = 17; return b })},
		{"flags", mod(func(b []byte) []byte { b[13] = 1; return b })},
		{"truncated", good[:len(good)-1]},
		{"trailing byte", append(append([]byte(nil), good...), 0)},
		{"payload length 0", mod(func(b []byte) []byte { b[14], b[15] = 0, 0; return b[:HeaderLen+2] })},
		{"header only", good[:HeaderLen-1]},
	} {
		if _, err := ParsePacket(c.b); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if _, err := ParseAck(good); err == nil {
		t.Error("coded packet parsed as an ack")
	}
	bad := (&Ack{Seen: 4, Decoded: 5}).AppendTo(nil)
	if _, err := ParseAck(bad); err == nil {
		t.Error("ack with seen < decoded accepted")
	}
	if _, err := ParseAck(append(ack[:18:18], 0, 1)); err == nil {
		t.Error("ack with reserved bytes set accepted")
	}
	if _, err := ParseAck(ack[:15]); err == nil {
		t.Error("short ack accepted")
	}
	if _, err := (&Packet{Coeffs: make([]byte, 17), Payload: []byte{1}}).AppendTo(nil); err == nil {
		t.Error("window 17 marshalled")
	}
}

// TestBlockRoundTripsWithLossAndReordering: for windows 1..16 and fixed seeds, coded
// packets over one window are shuffled, 0–30% dropped and extra ones added until the
// rank is full; the window comes out byte-exact and in order.
func TestBlockRoundTripsWithLossAndReordering(t *testing.T) {
	for w := 1; w <= MaxWindow; w++ {
		for seed := uint64(0); seed < 20; seed++ {
			r := rng(seed*100 + uint64(w))
			e, orig := source(t, r, w)
			d, err := NewDecoder(sym, 32)
			if err != nil {
				t.Fatal(err)
			}
			s := &sink{t: t}
			loss := r.Float64() * 0.3
			var pkts []Packet
			for i := 0; i < 2*w+4; i++ {
				var p Packet
				if err := e.Encode(0, w, &p); err != nil {
					t.Fatal(err)
				}
				pkts = append(pkts, clone(p))
			}
			r.Shuffle(len(pkts), func(i, j int) { pkts[i], pkts[j] = pkts[j], pkts[i] })
			for _, p := range pkts {
				if r.Float64() < loss {
					continue
				}
				if _, err := d.Add(&p, s.deliver); err != nil {
					t.Fatal(err)
				}
			}
			for extra := 0; d.Decoded() != uint32(w); extra++ { // repair until decoded
				if extra > 4*w {
					t.Fatalf("w=%d seed=%d: not decoded after %d repairs (rank %d)", w, seed, extra, d.Rank())
				}
				var p Packet
				_ = e.Encode(0, w, &p)
				if _, err := d.Add(&p, s.deliver); err != nil {
					t.Fatal(err)
				}
			}
			s.check(orig)
			if st := d.Stats(); st.Innovative != uint64(w) || st.Delivered != uint64(w) {
				t.Fatalf("w=%d: stats %+v", w, st)
			}
		}
	}
}

// TestAnyIndependentSetRecoversTheWindow: random coefficient matrices, including
// singular ones; the decoder's rank always equals the reference rank, the window is
// recovered exactly when the rank is n, and dependent rows are reported as such.
func TestAnyIndependentSetRecoversTheWindow(t *testing.T) {
	r := rng(7)
	for trial := 0; trial < 400; trial++ {
		n := 1 + r.IntN(MaxWindow)
		e, orig := source(t, r, n)
		d, _ := NewDecoder(sym, 16)
		s := &sink{t: t}
		var rows [][]byte
		singular := trial%3 == 0
		for i := 0; i < n; i++ {
			c := make([]byte, n)
			switch {
			case singular && i > 0 && r.IntN(3) == 0: // a combination of earlier rows
				a, b := rows[r.IntN(len(rows))], rows[r.IntN(len(rows))]
				x, y := byte(r.Uint32()), byte(r.Uint32())
				for j := range c {
					c[j] = gf256.Add(gf256.Mul(x, a[j]), gf256.Mul(y, b[j]))
				}
			case trial%5 == 1: // sparse rows: many zero coefficients
				for j := range c {
					if r.IntN(3) == 0 {
						c[j] = byte(r.Uint32())
					}
				}
			default:
				for j := range c {
					c[j] = byte(r.Uint32())
				}
			}
			allZero := !bytes.ContainsFunc(c, func(rn rune) bool { return rn != 0 })
			if allZero {
				c[r.IntN(n)] = 1
			}
			want := rank(append(rows, c)) > rank(rows)
			rows = append(rows, c)
			var p Packet
			if err := e.EncodeWith(0, c, &p); err != nil {
				t.Fatal(err)
			}
			innov, err := d.Add(&p, s.deliver)
			if err != nil {
				t.Fatal(err)
			}
			if innov != want {
				t.Fatalf("trial %d row %d: innovative=%v, reference says %v", trial, i, innov, want)
			}
		}
		rk := rank(rows)
		if d.Rank()+int(d.Decoded()) != rk {
			t.Fatalf("trial %d: decoder rank %d + decoded %d, reference rank %d", trial, d.Rank(), d.Decoded(), rk)
		}
		if rk == n {
			s.check(orig)
			continue
		}
		// Not full rank: whatever was delivered is correct; completing the rank decodes.
		for i := range s.got {
			if !bytes.Equal(s.got[i], orig[i]) {
				t.Fatalf("trial %d: packet %d delivered wrong from a singular matrix", trial, i)
			}
		}
		for extra := 0; d.Decoded() != uint32(n); extra++ {
			if extra > 4*n {
				t.Fatalf("trial %d: not decoded after %d extra packets", trial, extra)
			}
			var p Packet
			_ = e.Encode(0, n, &p)
			if _, err := d.Add(&p, s.deliver); err != nil {
				t.Fatal(err)
			}
		}
		s.check(orig)
	}
}

func TestDependentPacketsDoNotCorruptState(t *testing.T) {
	r := rng(3)
	e, orig := source(t, r, 4)
	d, _ := NewDecoder(sym, 16)
	s := &sink{t: t}
	add := func(c []byte) bool {
		t.Helper()
		var p Packet
		if err := e.EncodeWith(0, append([]byte(nil), c...), &p); err != nil {
			t.Fatal(err)
		}
		innov, err := d.Add(&p, s.deliver)
		if err != nil {
			t.Fatal(err)
		}
		return innov
	}
	a, b := []byte{3, 7, 0, 9}, []byte{0, 5, 1, 1}
	if !add(a) || !add(b) {
		t.Fatal("first two rows not innovative")
	}
	if d.Seen() != 2 || d.Decoded() != 0 || d.Rank() != 2 || d.Missing() != 2 {
		t.Fatalf("after 2 rows: seen %d decoded %d rank %d", d.Seen(), d.Decoded(), d.Rank())
	}
	sum := make([]byte, 4)
	for j := range sum {
		sum[j] = gf256.Add(gf256.Mul(0x53, a[j]), b[j])
	}
	scaled := []byte{gf256.Mul(9, 3), gf256.Mul(9, 7), 0, gf256.Mul(9, 9)}
	for _, c := range [][]byte{a, scaled, sum} {
		if add(c) {
			t.Fatalf("dependent row %v counted as innovative", c)
		}
	}
	if d.Seen() != 2 || d.Rank() != 2 || d.Stats().Dependent != 3 {
		t.Fatalf("state changed by dependent rows: seen %d rank %d stats %+v", d.Seen(), d.Rank(), d.Stats())
	}
	add([]byte{0, 0, 1, 0})
	add([]byte{0, 0, 0, 1})
	s.check(orig)
}

func TestSeenBeforeDecoded(t *testing.T) {
	r := rng(4)
	e, orig := source(t, r, 4)
	d, _ := NewDecoder(sym, 16)
	s := &sink{t: t}
	for i, want := range []struct{ seen, decoded uint32 }{{1, 0}, {2, 0}, {3, 0}, {4, 4}} {
		var p Packet
		c := []byte{1, 2, 3, 4}
		c[i] = 0 // never makes a row dependent here: rows differ in their pattern
		c = []byte{byte(1 + i), byte(5 + i), byte(9 + 2*i), byte(13 + 3*i)}
		_ = e.EncodeWith(0, c, &p)
		if _, err := d.Add(&p, s.deliver); err != nil {
			t.Fatal(err)
		}
		if d.Seen() != want.seen || d.Decoded() != want.decoded {
			t.Fatalf("after %d packets: seen %d decoded %d, want %+v", i+1, d.Seen(), d.Decoded(), want)
		}
	}
	s.check(orig)
}

// TestSlidingStreamWithLossAndReordering runs the transport's scheme without a
// network: coded packet j covers [max(seen, j-w+1), j], packets are reordered within
// a horizon and lost at random, and when the stream stalls the sender repairs from the
// receiver's seen point (what its ack would say). The stream comes out exact.
func TestSlidingStreamWithLossAndReordering(t *testing.T) {
	for _, w := range []int{4, 8, 16} {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("w%d/seed%d", w, seed), func(t *testing.T) {
				r := rng(seed*31 + uint64(w))
				const count = 300
				e, orig := source(t, r, count)
				d, _ := NewDecoder(sym, 64)
				s := &sink{t: t}
				loss := 0.3 * float64(seed-1) / 4
				var inflight []Packet
				ackSeen := uint32(0)
				feed := func(p Packet) {
					if _, err := d.Add(&p, s.deliver); err != nil && !errors.Is(err, ErrStale) {
						t.Fatal(err)
					}
					ackSeen = d.Seen()
				}
				for j := 0; j < count; j++ {
					start := uint32(max(0, j-w+1))
					if ackSeen > start {
						start = ackSeen
					}
					if start > uint32(j) {
						continue
					}
					// Flow control: stay within the decoder's capacity.
					for uint32(j+1)-d.Decoded() > uint32(d.Capacity()) {
						var p Packet
						_ = e.Encode(d.Seen(), min(w, int(uint32(j)-d.Seen())), &p)
						feed(clone(p))
					}
					var p Packet
					if err := e.Encode(start, int(uint32(j)+1-start), &p); err != nil {
						t.Fatal(err)
					}
					if r.Float64() >= loss {
						inflight = append(inflight, clone(p))
					}
					if len(inflight) > 6 { // deliver a random one of the last few: reordering
						k := r.IntN(len(inflight))
						feed(inflight[k])
						inflight = append(inflight[:k], inflight[k+1:]...)
					}
				}
				for _, p := range inflight {
					feed(p)
				}
				for repairs := 0; d.Decoded() != count; repairs++ {
					if repairs > 10*count {
						t.Fatalf("stalled at decoded %d seen %d", d.Decoded(), d.Seen())
					}
					from := d.Seen()
					n := min(w, count-int(from))
					if n <= 0 { // everything seen, not all decoded: cover from decoded
						from, n = d.Decoded(), min(w, count-int(d.Decoded()))
					}
					var p Packet
					_ = e.Encode(from, n, &p)
					if r.Float64() >= loss {
						feed(clone(p))
					}
				}
				s.check(orig)
			})
		}
	}
}

func TestRejectedPacketsChangeNothing(t *testing.T) {
	r := rng(5)
	e, orig := source(t, r, 40)
	d, _ := NewDecoder(sym, 16)
	s := &sink{t: t}
	for i := 0; i < 20; i++ { // deliver 0..19 one by one
		var p Packet
		_ = e.EncodeWith(uint32(i), []byte{1}, &p)
		if _, err := d.Add(&p, s.deliver); err != nil {
			t.Fatal(err)
		}
	}
	before := []uint32{d.Seen(), d.Decoded(), uint32(d.Rank())}
	cases := []struct {
		name  string
		start uint32
		c     []byte
		short bool
		want  error
	}{
		{"stale (delivered beyond history)", 2, []byte{1, 1}, false, ErrStale},
		{"beyond capacity", 20 + 15, []byte{1, 1}, false, ErrCapacity},
		{"wrong symbol size", 20, []byte{1}, true, ErrSymbolSize},
		{"window 0", 20, []byte{}, false, ErrCoeffsShape},
	}
	for _, c := range cases {
		var p Packet
		if len(c.c) > 0 {
			_ = e.EncodeWith(c.start, append([]byte(nil), c.c...), &p)
		}
		p.Start, p.Coeffs = c.start, c.c
		if c.short {
			p.Payload = p.Payload[:10]
		}
		if _, err := d.Add(&p, s.deliver); !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
		if now := []uint32{d.Seen(), d.Decoded(), uint32(d.Rank())}; fmt.Sprint(now) != fmt.Sprint(before) {
			t.Errorf("%s changed the state: %v -> %v", c.name, before, now)
		}
	}
	// A late packet that still combines delivered packets within history is reduced by them.
	var p Packet
	_ = e.EncodeWith(18, []byte{5, 6, 7}, &p) // 18, 19 delivered, 20 new
	if innov, err := d.Add(&p, s.deliver); err != nil || !innov {
		t.Fatalf("late packet over history: innovative=%v err=%v", innov, err)
	}
	for i := 21; i < 40; i++ {
		_ = e.EncodeWith(uint32(i), []byte{1}, &p)
		if _, err := d.Add(&p, s.deliver); err != nil {
			t.Fatal(err)
		}
	}
	s.check(orig)
}

func TestSequenceNumbersWrap(t *testing.T) {
	r := rng(6)
	e, _ := NewEncoder(sym, r)
	d, _ := NewDecoder(sym, 16)
	const first = uint32(1<<32 - 5)
	start := first
	end := start + 12 // wraps to 7
	e.base, d.base, d.high = first, first, first
	var orig [][]byte
	for i := 0; i < 12; i++ {
		b := make([]byte, sym)
		b[0], b[1] = byte(i), 0xaa
		orig = append(orig, b)
		_, _ = e.Push(b)
	}
	var got [][]byte
	next := uint32(first)
	for tries := 0; d.Decoded() != end; tries++ {
		if tries > 100 {
			t.Fatalf("not decoded across the wrap: decoded %d", d.Decoded())
		}
		from := d.Seen()
		n := min(8, int(end-from))
		var p Packet
		if err := e.Encode(from, n, &p); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Add(&p, func(seq uint32, b []byte) {
			if seq != next {
				t.Fatalf("delivered %d, want %d", seq, next)
			}
			next++
			got = append(got, append([]byte(nil), b...))
		}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range orig {
		if !bytes.Equal(got[i], orig[i]) {
			t.Fatalf("packet %d wrong across the wrap", i)
		}
	}
}

func TestEncoderRelease(t *testing.T) {
	e, _ := source(t, rng(8), 10)
	e.Release(4)
	if e.Base() != 4 || e.End() != 10 {
		t.Fatalf("base %d end %d", e.Base(), e.End())
	}
	var p Packet
	if err := e.Encode(3, 2, &p); err == nil {
		t.Error("encoded over a released packet")
	}
	if err := e.Encode(8, 3, &p); err == nil {
		t.Error("encoded beyond the buffer")
	}
	e.Release(2) // backwards: no-op
	e.Release(100)
	if e.Base() != 10 || e.End() != 10 {
		t.Fatalf("after releasing all: base %d end %d", e.Base(), e.End())
	}
	if _, err := e.Push(make([]byte, sym+1)); err == nil {
		t.Error("oversized symbol pushed")
	}
	if _, err := NewDecoder(sym, 24); err == nil {
		t.Error("capacity 24 (not a power of two) accepted")
	}
}
