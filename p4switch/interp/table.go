package interp

import (
	"encoding/binary"
	"math/big"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

// Table is a match-action table instance with its entries.
type Table struct {
	Name    string
	Annos   ast.Annotations
	Decl    *ast.TableDecl
	Keys    []*TableKey
	Actions []*TableAction
	Size    int
	// ConstEntries is set when the program declares "const entries".
	ConstEntries bool
	// Default is the action run on a miss; ConstDefault forbids changing it.
	Default       *ActionCall
	InitDefault   *ActionCall
	ConstDefault  bool
	Profile       *ActionProfile
	DirectCounter *Counter
	DirectMeter   *Meter
	SupportsIdle  bool

	mu       sync.RWMutex
	entries  map[string]*Entry // by match identity
	sorted   []*Entry          // priority order (ternary/range/optional and mixed lpm)
	exact    map[string]*Entry // exact-only tables
	lpm      []lpmBucket       // one lpm key plus exact keys
	kind     tableKind
	lpmKey   int
	keyBuf   []uint64
	keyBytes []byte
	apply    func(*State) (bool, *Action)
}

type tableKind int

const (
	kindExact tableKind = iota
	kindLPM
	kindScan
	kindEmpty // no key: always miss
)

type lpmBucket struct {
	plen int
	mask []uint64
	m    map[string]*Entry
}

// TableKey is one key field.
type TableKey struct {
	Name      string
	MatchKind string
	Width     int
	Annos     ast.Annotations
	load      func(*State, []uint64)
	words     int
}

// TableAction is an entry of a table's action list.
type TableAction struct {
	Action      *Action
	Annos       ast.Annotations
	DefaultOnly bool
	TableOnly   bool
	bind        func(*State) // copy-in of directional arguments bound in the action list
	bindOut     func(*State) // and their copy-out
}

// ActionCall is an action with its directionless argument values (one word slice per parameter).
type ActionCall struct {
	Action *Action
	Args   [][]uint64
}

// Match is the match of one key field.
type Match struct {
	Value []uint64 // exact/lpm/ternary/optional value; range low
	Mask  []uint64 // ternary mask; lpm prefix mask
	High  []uint64 // range high
	Plen  int      // lpm prefix length
	Wild  bool     // optional/ternary/range key matches everything (omitted in P4Runtime)
}

// Entry is a table entry.
type Entry struct {
	Matches             []Match
	Priority            int32
	Call                *ActionCall // direct action
	Member              uint32      // action profile member (when Group == 0 and UseMember)
	Group               uint32
	UseMember, UseGroup bool
	Counter             CounterCell
	Meter               *MeterCell
	Metadata            []byte
	IdleTimeoutNs       int64
	IsConst             bool
	// LastHit is when a packet last matched the entry (Monotonic), kept
	// in tables that support idle timeouts.
	LastHit atomic.Int64
	id      string
}

// epoch is the origin of Monotonic.
var epoch = time.Now()

// Monotonic is the clock of Entry.LastHit, in nanoseconds.
func Monotonic() int64 { return int64(time.Since(epoch)) }

// Entries returns a snapshot of the entries in priority order.
func (t *Table) Entries() []*Entry {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]*Entry, 0, len(t.entries))
	for _, e := range t.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return entryLess(out[i], out[j]) })
	return out
}

func entryLess(a, b *Entry) bool {
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	return a.id < b.id
}

// NeedsPriority reports whether entries carry a priority (ternary, range or optional keys).
func (t *Table) NeedsPriority() bool {
	for _, k := range t.Keys {
		switch k.MatchKind {
		case "ternary", "range", "optional":
			return true
		}
	}
	return false
}

// Identity returns the key identifying an entry (match fields and, where relevant, priority).
func (t *Table) Identity(e *Entry) string {
	var b []byte
	for _, m := range e.Matches {
		b = append(b, byte(len(m.Value)))
		if m.Wild {
			b = append(b, 'w')
			continue
		}
		for _, w := range m.Value {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
		for _, w := range m.Mask {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
		for _, w := range m.High {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
		b = append(b, byte(m.Plen))
	}
	if t.NeedsPriority() {
		b = binary.LittleEndian.AppendUint32(b, uint32(e.Priority))
	}
	return string(b)
}

// Lookup finds the stored entry with e's identity.
func (t *Table) Lookup(e *Entry) *Entry {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.entries[t.Identity(e)]
}

// Len is the number of entries.
func (t *Table) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.entries)
}

// Insert adds e; it reports false when an entry with the same identity exists.
func (t *Table) Insert(e *Entry) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e.id = t.Identity(e)
	if _, ok := t.entries[e.id]; ok {
		return false
	}
	t.entries[e.id] = e
	t.indexAdd(e)
	return true
}

// Replace swaps the stored entry with e's identity (same identity required).
func (t *Table) Replace(e *Entry) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e.id = t.Identity(e)
	old, ok := t.entries[e.id]
	if !ok {
		return false
	}
	t.indexRemove(old)
	t.entries[e.id] = e
	t.indexAdd(e)
	return true
}

// Delete removes the entry with e's identity.
func (t *Table) Delete(e *Entry) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	id := t.Identity(e)
	old, ok := t.entries[id]
	if !ok {
		return false
	}
	delete(t.entries, id)
	t.indexRemove(old)
	return true
}

// Clear removes every non-const entry.
func (t *Table) Clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, e := range t.entries {
		if !e.IsConst {
			delete(t.entries, id)
		}
	}
	t.reindex()
}

// SetDefault replaces the default action.
func (t *Table) SetDefault(a *ActionCall) {
	t.mu.Lock()
	t.Default = a
	t.mu.Unlock()
}

// GetDefault returns the default action.
func (t *Table) GetDefault() *ActionCall {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.Default
}

func (t *Table) classify() {
	switch {
	case len(t.Keys) == 0:
		t.kind = kindEmpty
		return
	}
	lpms, other := 0, 0
	for i, k := range t.Keys {
		switch k.MatchKind {
		case "exact":
		case "lpm":
			lpms++
			t.lpmKey = i
		default:
			other++
		}
	}
	switch {
	case other > 0 || lpms > 1:
		t.kind = kindScan
	case lpms == 1:
		t.kind = kindLPM
	default:
		t.kind = kindExact
	}
}

// reindex rebuilds the lookup structures; called with the lock held.
func (t *Table) reindex() {
	switch t.kind {
	case kindExact:
		t.exact = make(map[string]*Entry, len(t.entries))
		for _, e := range t.entries {
			t.exact[string(matchBytes(nil, e.Matches, false))] = e
		}
	case kindLPM:
		byLen := map[int]map[string]*Entry{}
		for _, e := range t.entries {
			pl := e.Matches[t.lpmKey].Plen
			if byLen[pl] == nil {
				byLen[pl] = map[string]*Entry{}
			}
			byLen[pl][string(matchBytes(nil, e.Matches, false))] = e
		}
		t.lpm = t.lpm[:0]
		for pl, m := range byLen {
			k := t.Keys[t.lpmKey]
			t.lpm = append(t.lpm, lpmBucket{plen: pl, m: m, mask: PrefixMask(k.Width, pl, words(k.Width))})
		}
		sort.Slice(t.lpm, func(i, j int) bool { return t.lpm[i].plen > t.lpm[j].plen })
	case kindScan:
		t.sorted = t.sorted[:0]
		for _, e := range t.entries {
			t.sorted = append(t.sorted, e)
		}
		sort.Slice(t.sorted, func(i, j int) bool { return t.scanLess(t.sorted[i], t.sorted[j]) })
	}
}

// indexAdd adds one entry to the lookup structures (lock held).
func (t *Table) indexAdd(e *Entry) {
	switch t.kind {
	case kindExact:
		if t.exact == nil {
			t.exact = map[string]*Entry{}
		}
		t.exact[string(matchBytes(nil, e.Matches, false))] = e
	case kindLPM:
		pl := e.Matches[t.lpmKey].Plen
		i := sort.Search(len(t.lpm), func(i int) bool { return t.lpm[i].plen <= pl })
		if i == len(t.lpm) || t.lpm[i].plen != pl {
			k := t.Keys[t.lpmKey]
			t.lpm = append(t.lpm, lpmBucket{})
			copy(t.lpm[i+1:], t.lpm[i:])
			t.lpm[i] = lpmBucket{plen: pl, m: map[string]*Entry{}, mask: PrefixMask(k.Width, pl, words(k.Width))}
		}
		t.lpm[i].m[string(matchBytes(nil, e.Matches, false))] = e
	case kindScan:
		i := sort.Search(len(t.sorted), func(i int) bool { return t.scanLess(e, t.sorted[i]) })
		t.sorted = append(t.sorted, nil)
		copy(t.sorted[i+1:], t.sorted[i:])
		t.sorted[i] = e
	}
}

// indexRemove removes one entry from the lookup structures (lock held).
func (t *Table) indexRemove(e *Entry) {
	switch t.kind {
	case kindExact:
		delete(t.exact, string(matchBytes(nil, e.Matches, false)))
	case kindLPM:
		pl := e.Matches[t.lpmKey].Plen
		for i := range t.lpm {
			if t.lpm[i].plen == pl {
				delete(t.lpm[i].m, string(matchBytes(nil, e.Matches, false)))
				if len(t.lpm[i].m) == 0 {
					t.lpm = append(t.lpm[:i], t.lpm[i+1:]...)
				}
				break
			}
		}
	case kindScan:
		for i, x := range t.sorted {
			if x == e {
				t.sorted = append(t.sorted[:i], t.sorted[i+1:]...)
				break
			}
		}
	}
}

// scanLess orders entries of scanned tables: longest prefixes first for
// lpm-only tables, then priority, then identity.
func (t *Table) scanLess(a, b *Entry) bool {
	if !t.NeedsPriority() {
		pa, pb := 0, 0
		for _, m := range a.Matches {
			pa += m.Plen
		}
		for _, m := range b.Matches {
			pb += m.Plen
		}
		if pa != pb {
			return pa > pb
		}
	}
	return entryLess(a, b)
}

// matchBytes serialises the (masked) values of matches for hashing.
func matchBytes(b []byte, ms []Match, _ bool) []byte {
	for _, m := range ms {
		for _, w := range m.Value {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	return b
}

// lookup finds the entry matching the key words (one slice per key field).
func (t *Table) lookup(key [][]uint64) *Entry {
	t.mu.RLock()
	defer t.mu.RUnlock()
	switch t.kind {
	case kindEmpty:
		return nil
	case kindExact:
		b := t.keyBytes[:0]
		for _, k := range key {
			for _, w := range k {
				b = binary.LittleEndian.AppendUint64(b, w)
			}
		}
		t.keyBytes = b
		return t.exact[string(b)]
	case kindLPM:
		for _, bk := range t.lpm {
			b := t.keyBytes[:0]
			for i, k := range key {
				if i == t.lpmKey {
					m := bk.mask
					for j, w := range k {
						b = binary.LittleEndian.AppendUint64(b, w&m[j])
					}
					continue
				}
				for _, w := range k {
					b = binary.LittleEndian.AppendUint64(b, w)
				}
			}
			t.keyBytes = b
			if e, ok := bk.m[string(b)]; ok {
				return e
			}
		}
		return nil
	}
	for _, e := range t.sorted {
		if entryMatches(e, key) {
			return e
		}
	}
	return nil
}

func entryMatches(e *Entry, key [][]uint64) bool {
	for i, m := range e.Matches {
		if m.Wild {
			continue
		}
		k := key[i]
		switch {
		case m.High != nil:
			if cmpWords(k, m.Value) < 0 || cmpWords(k, m.High) > 0 {
				return false
			}
		case m.Mask != nil:
			for j := range k {
				if k[j]&m.Mask[j] != m.Value[j] {
					return false
				}
			}
		default:
			for j := range k {
				if k[j] != m.Value[j] {
					return false
				}
			}
		}
	}
	return true
}

func cmpWords(a, b []uint64) int {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// PrefixMask builds the mask of an lpm prefix.
func PrefixMask(width, plen, nwords int) []uint64 {
	m := make([]uint64, nwords)
	for b := width - plen; b < width; b++ {
		m[b/64] |= 1 << uint(b%64)
	}
	return m
}

// Arg is the value of the i-th directionless argument.
func (c *ActionCall) Arg(i int) *big.Int { return bigFromWords(c.Args[i]) }
