package failover

import (
	"fmt"
	"math/rand"
	"sort"
	"sync"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

// Failover keeps the controller's latest rates table and dead paths, and gives the
// table to put in force: the controller's with dead paths rerouted (Reroute).
//
// vFab migrates at once when a path fails (its trigger i) and allows one migration
// per host in a random freeze window of [1, N] RTTs. Here a failure moves traffic at
// once and starts a freeze window, uniform in [Freeze.Min, Freeze.Max]; a path the
// controller declares alive again within the window stays avoided until the window
// ends (a flapping link does not pull the traffic back and forth).
type Failover struct {
	mu      sync.Mutex
	freeze  Freeze
	rnd     *rand.Rand
	version uint64
	table   *ratetable.Table // the controller's table in force (before rerouting)
	dead    deadSet          // as the controller says now
	held    deadSet          // declared alive again inside the freeze window: still avoided
	alive   aliveLists       // per session, its paths that are up (from the last record)
	until   time.Time        // end of the freeze window of the last move
	links   []string

	moves, records, rejected uint64
	lastMove                 time.Time
}

// Freeze is the range of the freeze window after a move.
type Freeze struct{ Min, Max time.Duration }

// DefaultFreeze is vFab's [1, 10] RTTs with a 5 ms emulated RTT.
var DefaultFreeze = Freeze{5 * time.Millisecond, 50 * time.Millisecond}

// New makes a Failover; seed makes the freeze windows reproducible in tests.
func New(f Freeze, seed int64) *Failover {
	if f.Max < f.Min {
		f.Max = f.Min
	}
	return &Failover{freeze: f, rnd: rand.New(rand.NewSource(seed)), dead: deadSet{}, held: deadSet{}}
}

// Filter returns the table to put in force for the controller's table t: t with
// the paths avoided now rerouted. Call Keep(t) once t is in force.
func (f *Failover) Filter(t *ratetable.Table, now time.Time) *ratetable.Table {
	f.mu.Lock()
	defer f.mu.Unlock()
	out, _ := Reroute(t, f.effective(now), f.alive)
	return out
}

// Keep records the controller's table now in force (before rerouting).
func (f *Failover) Keep(t *ratetable.Table) {
	f.mu.Lock()
	f.table = t
	f.mu.Unlock()
}

// Update admits a dead-path record. It answers the table to put in force when the
// avoided paths changed (nil: nothing to do) and, when recoveries are held by the
// freeze window, how long until Expire should be called.
func (f *Failover) Update(r *Record, now time.Time) (apply *ratetable.Table, recheck time.Duration, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Version <= f.version {
		f.rejected++
		return nil, 0, fmt.Errorf("dead-paths version %d is not above version %d in force", r.Version, f.version)
	}
	f.version = r.Version
	f.records++
	before := f.effective(now)
	next := r.set()
	newDead := false
	for id, ps := range next {
		for p := range ps {
			if !f.dead[id][p] && !f.held[id][p] {
				newDead = true
			}
		}
	}
	// paths that left the dead set: held while the last move's freeze window lasts
	if now.Before(f.until) {
		for id, ps := range f.dead {
			for p := range ps {
				if !next[id][p] {
					if f.held[id] == nil {
						f.held[id] = map[int]bool{}
					}
					f.held[id][p] = true
				}
			}
		}
	}
	for id, ps := range next { // dead again: no longer merely held
		for p := range ps {
			delete(f.held[id], p)
		}
	}
	f.dead = next
	f.alive = r.alive()
	f.links = append([]string(nil), r.Links...)
	if newDead {
		f.until = now.Add(f.window())
	}
	after := f.effective(now)
	if len(f.held) > 0 {
		recheck = f.until.Sub(now)
	}
	if sameSet(before, after) || f.table == nil {
		return nil, recheck, nil
	}
	out, moved := Reroute(f.table, after, f.alive)
	if newDead && moved > 0 {
		f.moves++
		f.lastMove = now
	}
	return out, recheck, nil
}

// Expire ends held recoveries whose freeze window is over; it answers the table to
// put in force when that changed what is avoided, and how long to wait for the next
// look (0: none).
func (f *Failover) Expire(now time.Time) (apply *ratetable.Table, recheck time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.held) == 0 {
		return nil, 0
	}
	if now.Before(f.until) {
		return nil, f.until.Sub(now)
	}
	f.held = deadSet{}
	if f.table == nil {
		return nil, 0
	}
	out, _ := Reroute(f.table, f.dead, f.alive)
	return out, 0
}

func (f *Failover) window() time.Duration {
	span := f.freeze.Max - f.freeze.Min
	if span <= 0 {
		return f.freeze.Min
	}
	return f.freeze.Min + time.Duration(f.rnd.Int63n(int64(span)+1))
}

// effective is the set of paths to avoid now: dead, plus held inside the window.
func (f *Failover) effective(now time.Time) deadSet {
	out := deadSet{}
	add := func(s deadSet) {
		for id, ps := range s {
			for p := range ps {
				if out[id] == nil {
					out[id] = map[int]bool{}
				}
				out[id][p] = true
			}
		}
	}
	add(f.dead)
	if now.Before(f.until) {
		add(f.held)
	}
	return out
}

func sameSet(a, b deadSet) bool {
	count := func(s deadSet) int {
		n := 0
		for _, ps := range s {
			n += len(ps)
		}
		return n
	}
	if count(a) != count(b) {
		return false
	}
	for id, ps := range a {
		for p := range ps {
			if !b[id][p] {
				return false
			}
		}
	}
	return true
}

// Status is what /failover shows.
type Status struct {
	Version    uint64           `json:"version"`
	Dead       map[string][]int `json:"dead"` // session → path ids avoided now (dead or held)
	Links      []string         `json:"links"`
	FrozenMs   float64          `json:"freeze_left_ms"`
	Moves      uint64           `json:"moves"`
	LastMoveMs int64            `json:"last_move_unix_ms"`
	Records    uint64           `json:"records"`
	Rejected   uint64           `json:"rejected"`
}

// Status is a snapshot for the shim's HTTP endpoint.
func (f *Failover) Status(now time.Time) Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := Status{Version: f.version, Dead: map[string][]int{}, Links: append([]string{}, f.links...), Moves: f.moves,
		Records: f.records, Rejected: f.rejected}
	for id, ps := range f.effective(now) {
		for p := range ps {
			st.Dead[id] = append(st.Dead[id], p)
		}
		sort.Ints(st.Dead[id])
	}
	if now.Before(f.until) {
		st.FrozenMs = float64(f.until.Sub(now).Microseconds()) / 1000
	}
	if !f.lastMove.IsZero() {
		st.LastMoveMs = f.lastMove.UnixMilli()
	}
	return st
}

// Rejected counts records refused (malformed, or not newer than the one in force).
func (f *Failover) Reject() {
	f.mu.Lock()
	f.rejected++
	f.mu.Unlock()
}
