package coding

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestContinuousStreamDecodesBehindTheSlowestPath: a stream that never pauses, each new
// packet coded over the 8 newest and sent round robin over 4 paths of different delays, no
// loss and no repairs. Every packet must be delivered once all packets up to it have
// arrived: its delay stays within the slowest path's. With a zero coefficient allowed on
// the newest packet, decoding stalled for good after a few hundred packets.
func TestContinuousStreamDecodesBehindTheSlowestPath(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4, 5} {
		enc, _ := NewEncoder(64, rand.New(rand.NewPCG(seed, 7)))
		dec, _ := NewDecoder(64, 256)
		delays := []float64{9, 11, 14, 19} // ms
		const interval, n = 1.36, 3000     // ms between packets (6 Mbit/s of 1 KB symbols)
		type arrival struct {
			at float64
			p  Packet
		}
		var arrivals []arrival
		sym := make([]byte, 62)
		for j := 0; j < n; j++ {
			if _, err := enc.Push(sym); err != nil {
				t.Fatal(err)
			}
			start := uint32(max(0, j-7))
			var p Packet
			if err := enc.Encode(start, j+1-int(start), &p); err != nil {
				t.Fatal(err)
			}
			p.Coeffs = append([]byte(nil), p.Coeffs...)
			p.Payload = append([]byte(nil), p.Payload...)
			arrivals = append(arrivals, arrival{float64(j)*interval + delays[j%len(delays)], p})
		}
		sort.Slice(arrivals, func(a, b int) bool { return arrivals[a].at < arrivals[b].at })
		worst, delivered := 0.0, 0
		for _, a := range arrivals {
			p := a.p
			if _, err := dec.Add(&p, func(seq uint32, _ []byte) {
				delivered++
				worst = max(worst, a.at-float64(seq)*interval)
			}); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		if delivered != n || worst > delays[len(delays)-1]+interval {
			t.Errorf("seed %d: delivered %d of %d, worst delay %.1f ms (slowest path %.0f ms)", seed, delivered, n, worst, delays[len(delays)-1])
		}
	}
}

// TestEncodeDrawsNonZeroCoefficients: every coefficient of every packet, over many draws.
func TestEncodeDrawsNonZeroCoefficients(t *testing.T) {
	enc, _ := NewEncoder(16, rand.New(rand.NewPCG(9, 9)))
	for i := 0; i < MaxWindow; i++ {
		enc.Push(make([]byte, 14))
	}
	var p Packet
	for i := 0; i < 20000; i++ {
		if err := enc.Encode(0, MaxWindow, &p); err != nil {
			t.Fatal(err)
		}
		for k, c := range p.Coeffs {
			if c == 0 {
				t.Fatalf("draw %d: coefficient %d is zero", i, k)
			}
		}
	}
}
