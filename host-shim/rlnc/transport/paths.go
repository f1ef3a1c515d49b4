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

// pacer spreads packets over paths in proportion to their rates and holds each path to
// its rate: every path has the time its next packet may leave; a packet takes the path
// whose time comes first, which then moves on by the packet's serialisation time at the
// path's rate. Bursts up to burst ahead of the clock are allowed, so the average holds
// although the sender's sleeps are coarse.
type pacer struct {
	paths []Path
	next  []time.Time
	burst time.Duration
}

func newPacer(ps []Path, burst time.Duration) *pacer {
	return &pacer{paths: append([]Path(nil), ps...), next: make([]time.Time, len(ps)), burst: burst}
}

// pick returns the path for the next packet and how long to wait before sending it.
func (p *pacer) pick(now time.Time) (int, time.Duration) {
	best := 0
	for i := range p.next {
		if p.next[i].Before(p.next[best]) {
			best = i
		}
	}
	if ready := p.next[best].Add(-p.burst); ready.After(now) {
		return best, ready.Sub(now)
	}
	return best, 0
}

// sent charges bytes to path i.
func (p *pacer) sent(i int, bytes int, now time.Time) {
	if p.next[i].Before(now.Add(-p.burst)) {
		p.next[i] = now.Add(-p.burst) // an idle path saves no more than one burst
	}
	p.next[i] = p.next[i].Add(time.Duration(float64(bytes*8) / float64(p.paths[i].RateBps) * 1e9))
}
