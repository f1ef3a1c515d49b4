package coding

import (
	"fmt"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user + system CPU time. With -cpu 1 the benchmark runs on
// one thread, so its CPU time per op is the cost on one core even when other work
// shares the machine and stretches the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timed runs the benchmark loop and reports CPU ns per op beside Go's wall-clock ns/op.
func timed(b *testing.B, loop func()) {
	c0 := cpuTime()
	b.ResetTimer()
	loop()
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}

// The benchmarks of `./fairfabric bench rlnc` (Promenade Table 3's setting: 1 KB
// packets, windows 4, 8, 12, 16). One goroutine each: the figures are per core.
// Encode: one coded packet over a full window. Decode: generations of w coded packets
// over w fresh originals, fed to the decoder until each is delivered (ns/op is per
// coded packet). Copy: the same 1 KB moved with copy(), the baseline.

var windows = []int{4, 8, 12, 16}

func BenchmarkEncode(b *testing.B) {
	for _, w := range windows {
		b.Run(fmt.Sprintf("w=%d", w), func(b *testing.B) {
			e, _ := source(b, rng(1), w)
			var p Packet
			b.SetBytes(sym)
			timed(b, func() {
				for i := 0; i < b.N; i++ {
					if err := e.Encode(0, w, &p); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, w := range windows {
		b.Run(fmt.Sprintf("w=%d", w), func(b *testing.B) {
			e, _ := source(b, rng(2), w)
			var gen []Packet
			for len(gen) < w { // w independent coded packets (checked by a scratch decoder)
				var p Packet
				_ = e.Encode(0, w, &p)
				d, _ := NewDecoder(sym, 32)
				for _, q := range gen {
					_, _ = d.Add(&q, nil)
				}
				if innov, _ := d.Add(&p, nil); innov {
					gen = append(gen, clone(p))
				}
			}
			d, _ := NewDecoder(sym, 32)
			delivered := 0
			count := func(uint32, []byte) { delivered++ }
			b.SetBytes(sym)
			timed(b, func() {
				for i := 0; i < b.N; i++ {
					p := gen[i%w]
					p.Start = uint32(i/w) * uint32(w)
					if _, err := d.Add(&p, count); err != nil {
						b.Fatal(err)
					}
				}
			})
			if full := b.N / w * w; delivered != full {
				b.Fatalf("delivered %d of %d", delivered, full)
			}
		})
	}
}

func BenchmarkCopy(b *testing.B) {
	src, dst := make([]byte, sym), make([]byte, sym)
	b.SetBytes(sym)
	timed(b, func() {
		for i := 0; i < b.N; i++ {
			copy(dst, src)
		}
	})
}
