// Package transport is Promenade's RLNC multipath transport (docs/rlnc.md): a sender
// that codes an application's byte stream over a sliding window and spreads the coded
// packets over the session's pinned paths in proportion to their allocated rates, and
// a receiver that decodes, delivers the stream in order and acknowledges seen packets.
package transport

import (
	"fmt"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

// Path is one pinned path of a session: its id (the 802.1Q VID, 0 = unpinned) and the
// rate the controller allocated to it.
type Path struct {
	ID      uint16
	RateBps uint64
}

// PathsOf returns the paths of a session of a validated rates table (ff.ctl.rates.v1).
func PathsOf(s ratetable.Session) []Path {
	ps := make([]Path, len(s.Paths))
	for i, p := range s.Paths {
		ps[i] = Path{ID: uint16(p.ID), RateBps: p.RateBps}
	}
	return ps
}

func checkPaths(ps []Path) error {
	if len(ps) == 0 || len(ps) > ratetable.MaxPaths {
		return fmt.Errorf("rlnc: %d paths (want 1..%d)", len(ps), ratetable.MaxPaths)
	}
	seen := map[uint16]bool{}
	for _, p := range ps {
		if p.ID > ratetable.MaxPathID {
			return fmt.Errorf("rlnc: path id %d out of range 0..%d", p.ID, ratetable.MaxPathID)
		}
		if p.ID == 0 && len(ps) > 1 {
			return fmt.Errorf("rlnc: path id 0 (unpinned) must be the only path")
		}
		if seen[p.ID] {
			return fmt.Errorf("rlnc: path %d appears twice", p.ID)
		}
		seen[p.ID] = true
		if p.RateBps < ratetable.MinRateBps || p.RateBps > ratetable.MaxRateBps {
			return fmt.Errorf("rlnc: path %d rate %d out of range %d..%d", p.ID, p.RateBps, uint64(ratetable.MinRateBps), uint64(ratetable.MaxRateBps))
		}
	}
	return nil
}

// pacer spreads packets over paths in proportion to their rates and holds the session
// to the sum of the rates.
//   - Split: a byte-weighted round robin, as the shim's eBPF does. Every path has a
//     virtual time that advances by bytes/rate when it carries a packet, and a packet
//     takes the path with the smallest. Every path's bytes stay within one packet of
//     its share, whatever the timing.
//   - Pace: the session has the time its next packet may leave, which advances by the
//     packet's serialisation time at the total rate. Bursts up to burst ahead of the
//     clock are allowed, so the average holds although sleeps are coarse.
//
// With the split exact and the sum paced, each path gets its rate.
type pacer struct {
	paths []Path
	vt    []float64 // seconds of each path's rate used so far
	total float64   // bit/s
	next  time.Time
	burst time.Duration
}

// newPacer starts on schedule at now: no saved credit, no debt.
func newPacer(ps []Path, burst time.Duration, now time.Time) *pacer {
	p := &pacer{paths: append([]Path(nil), ps...), vt: make([]float64, len(ps)), burst: burst, next: now}
	for _, x := range ps {
		p.total += float64(x.RateBps)
	}
	return p
}

// pick returns the path for the next packet and how long to wait before sending it.
func (p *pacer) pick(now time.Time) (int, time.Duration) {
	best := 0
	for i := range p.vt {
		if p.vt[i] < p.vt[best] {
			best = i
		}
	}
	if ready := p.next.Add(-p.burst); ready.After(now) {
		return best, ready.Sub(now)
	}
	return best, 0
}

// maxDebt bounds how far a backlogged session may lag its schedule and still catch up.
const maxDebt = 20 * time.Millisecond

// sent charges bytes to path i.
//   - After an idle spell (the sender had nothing to send), the session saves no more
//     than one burst.
//   - While the sender is backlogged, time lost to late wake-ups (a loaded machine
//     oversleeps) is kept as debt, up to maxDebt, and repaid by sending back to back,
//     so the average rate holds.
func (p *pacer) sent(i int, bytes int, now time.Time, backlogged bool) {
	bits := float64(bytes * 8)
	p.vt[i] += bits / float64(p.paths[i].RateBps)
	floor := now.Add(-p.burst)
	if backlogged {
		floor = now.Add(-maxDebt)
	}
	if p.next.Before(floor) {
		p.next = floor
	}
	p.next = p.next.Add(time.Duration(bits / p.total * 1e9))
}
