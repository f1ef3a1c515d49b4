package interp

import (
	"math/rand"
	"testing"
)

// TestTableIndexAgainstBruteForce inserts and deletes random entries and
// compares every lookup with a linear scan over all entries.
func TestTableIndexAgainstBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	kinds := [][]string{{"exact"}, {"lpm"}, {"exact", "lpm"}, {"ternary"}, {"range", "exact"}, {"lpm", "ternary"}}
	for _, ks := range kinds {
		tb := &Table{Name: "t", Size: 1 << 20, entries: map[string]*Entry{}}
		for _, k := range ks {
			tb.Keys = append(tb.Keys, &TableKey{Name: k, MatchKind: k, Width: 8, words: 1})
		}
		tb.classify()
		randMatch := func(kind string) Match {
			v := uint64(rnd.Intn(16))
			switch kind {
			case "lpm":
				pl := rnd.Intn(9)
				m := PrefixMask(8, pl, 1)
				return Match{Value: []uint64{v << 4 & m[0]}, Mask: m, Plen: pl}
			case "ternary":
				m := uint64(rnd.Intn(256))
				return Match{Value: []uint64{v << 4 & m}, Mask: []uint64{m}}
			case "range":
				lo := uint64(rnd.Intn(200))
				return Match{Value: []uint64{lo}, High: []uint64{lo + uint64(rnd.Intn(50))}}
			}
			return Match{Value: []uint64{v}}
		}
		var live []*Entry
		for step := 0; step < 3000; step++ {
			if rnd.Intn(3) > 0 || len(live) == 0 {
				e := &Entry{Priority: int32(rnd.Intn(5) + 1)}
				for _, k := range ks {
					e.Matches = append(e.Matches, randMatch(k))
				}
				if !tb.NeedsPriority() {
					e.Priority = 0
				}
				if tb.Insert(e) {
					live = append(live, e)
				}
			} else {
				i := rnd.Intn(len(live))
				if !tb.Delete(live[i]) {
					t.Fatalf("%v: delete of a live entry failed", ks)
				}
				live = append(live[:i], live[i+1:]...)
			}
			key := make([][]uint64, len(ks))
			for i := range key {
				key[i] = []uint64{uint64(rnd.Intn(256))}
			}
			got := tb.lookup(key)
			want := bruteForce(tb, live, key)
			if got != want && !(got != nil && want != nil && !tb.scanLess(got, want) && !tb.scanLess(want, got)) {
				t.Fatalf("%v step %d: lookup %v gave %+v, want %+v", ks, step, key, got, want)
			}
		}
	}
}

func bruteForce(tb *Table, live []*Entry, key [][]uint64) *Entry {
	var best *Entry
	for _, e := range live {
		if !entryMatches(e, key) {
			continue
		}
		if best == nil || tb.scanLess(e, best) {
			best = e
		}
	}
	return best
}
