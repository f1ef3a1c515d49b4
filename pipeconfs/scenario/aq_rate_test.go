package scenario

import (
	"testing"
	"time"
)

// The AQ digest's rate-level vectors (augmented-queue.md §6.7): A5, a CBR
// source at twice the AQ rate is held to R (+ limit/T), and A6, a source at
// 0.8 R that bursts by at most the limit is never dropped or marked. Both run
// 10 s of packets through the real program with exact clocks.

const (
	aqIn       = in + "aq_ingress.aq_table"
	aqClassify = in + "aq_classify_outbound.aq_classify_outbound"
	aqCCDrop   = 0
	aqCCECN    = 1
	aqPktBytes = 1500 // IPv4 total length, the size the AQ counts
)

// aqLeaf programs a leaf whose host h1 (port 1) sends through ingress AQ 5:
// rate bytesPerUs, the given limit, CC type and ECN threshold.
func aqLeaf(h *harness, bytesPerUs float64, limit, ccType, ecnThreshold uint64) {
	leaf(h)
	rateFP := uint64(bytesPerUs * 65536)
	invRateFP := uint64(1000 / bytesPerUs * 65536)
	h.add(aqClassify, []match{exact("hdr.ipv4.src_addr", h1IP)}, 0, in+"aq_classify_outbound.set_aq_ids", 5, 0)
	h.add(aqIn, []match{exact("aq_id", 5)}, 0, in+"aq_ingress.aq_update", 5, rateFP, limit, ccType, ecnThreshold, invRateFP)
}

// ectFrame is h1 → h2 UDP with ECT(0) set.
func ectFrame() []byte {
	f := udpFrame(0, h1IP, h2IP, 0, 1000, 2000, aqPktBytes)
	f[15] |= 0x02
	f[24], f[25] = 0, 0
	sum := checksum(f[14:34])
	f[24], f[25] = byte(sum>>8), byte(sum)
	return f
}

type aqOutcome struct{ sent, passed, marked int }

// aqRun sends a frame at every instant of times and counts what leaves port 2.
func aqRun(h *harness, times []time.Duration) aqOutcome {
	var o aqOutcome
	frame := ectFrame()
	for _, t := range times {
		o.sent++
		for _, out := range h.send(1, frame, t, 0) {
			if out.port != 2 {
				continue
			}
			o.passed++
			if out.data[15]&0x03 == 0x03 {
				o.marked++
			}
		}
	}
	return o
}

func TestAQHoldsATwiceTooFastSourceToItsRate(t *testing.T) {
	const (
		rate  = 6.25 // B/µs = 50 Mbit/s
		limit = 30000
		span  = 10 * time.Second
	)
	h := newHarness(t)
	aqLeaf(h, rate, limit, aqCCDrop, 0)
	// CBR at 2R: one 1500 B packet every 120 µs.
	var times []time.Duration
	for ts := time.Duration(0); ts < span; ts += 120 * time.Microsecond {
		times = append(times, ts)
	}
	o := aqRun(h, times)
	admitted := float64(o.passed*aqPktBytes) / float64(span/time.Microsecond)
	upper := rate + float64(limit)/float64(span/time.Microsecond)
	t.Logf("A5: %d of %d packets admitted: %.4f B/µs (R = %.4f, bound %.4f)", o.passed, o.sent, admitted, rate, upper)
	if admitted < rate*0.999 || admitted > upper {
		t.Fatalf("admitted %.4f B/µs, want within [%.4f, %.4f]", admitted, rate*0.999, upper)
	}
}

func TestAQNeverDropsOrMarksAConformingSource(t *testing.T) {
	const (
		rate  = 6.25
		limit = 30000
		span  = 10 * time.Second
	)
	smooth := func() []time.Duration { // 0.8 R: one packet every 300 µs
		var ts []time.Duration
		for t := time.Duration(0); t < span; t += 300 * time.Microsecond {
			ts = append(ts, t)
		}
		return ts
	}
	bursty := func() []time.Duration { // 0.8 R in bursts of exactly limit bytes
		var ts []time.Duration
		perBurst := limit / aqPktBytes
		period := time.Duration(float64(perBurst*aqPktBytes)/(0.8*rate)) * time.Microsecond
		for t := time.Duration(0); t < span; t += period {
			for i := 0; i < perBurst; i++ {
				ts = append(ts, t)
			}
		}
		return ts
	}
	for _, tc := range []struct {
		name  string
		cc    uint64
		times []time.Duration
	}{
		{"smooth/drop", aqCCDrop, smooth()},
		{"bursts/drop", aqCCDrop, bursty()},
		{"smooth/ecn", aqCCECN, smooth()},
		{"bursts/ecn", aqCCECN, bursty()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			// ECN threshold at the limit: a burst of exactly the limit is not marked (strict >).
			aqLeaf(h, rate, limit, tc.cc, limit)
			o := aqRun(h, tc.times)
			t.Logf("A6 %s: %d sent, %d passed, %d marked", tc.name, o.sent, o.passed, o.marked)
			if o.passed != o.sent || o.marked != 0 {
				t.Fatalf("%d of %d passed, %d marked; want all passed, none marked", o.passed, o.sent, o.marked)
			}
		})
	}
}
