// Package p4info generates the P4Info of a compiled program the way p4c
// does: fully qualified names, shortest-unique-suffix aliases and IDs made
// of an 8-bit resource prefix and 24 bits of a Jenkins one-at-a-time hash
// of the name, with linear probing and @id honoured.
package p4info

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/ast"
)

// symbol is one P4Runtime-visible object.
type symbol struct {
	prefix uint32
	name   string // the P4Info name
	idName string // the name the id is hashed from, when it is not name
	annos  ast.Annotations
	id     uint32
}

// hashed is the name the symbol's id comes from. p4c names a controller
// header in P4Info by its @controller_header string but keys it in its
// symbol table (and so hashes and sorts it) by the header type's name.
func (s *symbol) hashed() string {
	if s.idName != "" {
		return s.idName
	}
	return s.name
}

type symbolTable struct {
	syms     []*symbol
	byKey    map[string]*symbol
	assigned map[uint32]bool
	errs     []string
}

func newSymbolTable() *symbolTable {
	return &symbolTable{byKey: map[string]*symbol{}, assigned: map[uint32]bool{}}
}

func (t *symbolTable) add(prefix uint32, name string, annos ast.Annotations) *symbol {
	key := fmt.Sprintf("%d/%s", prefix, name)
	if s, ok := t.byKey[key]; ok {
		return s
	}
	s := &symbol{prefix: prefix, name: name, annos: annos}
	if v, ok := annos.Int("id"); ok {
		id := uint32(v.Uint64())
		if id&0xff000000 != 0 && id&0xff000000 != prefix<<24 {
			t.errs = append(t.errs, fmt.Sprintf("%s: @id has the wrong 8-bit prefix", name))
		} else {
			id |= prefix << 24
			if t.assigned[id] {
				t.errs = append(t.errs, fmt.Sprintf("@id %d is assigned to multiple declarations", id))
			} else {
				s.id = id
				t.assigned[id] = true
			}
		}
	}
	t.syms = append(t.syms, s)
	t.byKey[key] = s
	return s
}

// jenkins is Bob Jenkins' one-at-a-time hash.
func jenkins(s string) uint32 {
	var h uint32
	for i := 0; i < len(s); i++ {
		h += uint32(s[i])
		h += h << 10
		h ^= h >> 6
	}
	h += h << 3
	h ^= h >> 11
	h += h << 15
	return h
}

// assign computes ids for symbols without @id, per resource type in prefix
// order, names sorted, probing linearly on collisions.
func (t *symbolTable) assign() {
	byPrefix := map[uint32][]*symbol{}
	var prefixes []uint32
	for _, s := range t.syms {
		if s.id != 0 {
			continue
		}
		if byPrefix[s.prefix] == nil {
			prefixes = append(prefixes, s.prefix)
		}
		byPrefix[s.prefix] = append(byPrefix[s.prefix], s)
	}
	sort.Slice(prefixes, func(i, j int) bool { return prefixes[i] < prefixes[j] })
	for _, p := range prefixes {
		ss := byPrefix[p]
		sort.Slice(ss, func(i, j int) bool { return ss[i].hashed() < ss[j].hashed() })
		for _, s := range ss {
			h := jenkins(s.hashed())
			v := h
			for {
				id := p<<24 | v&0xffffff
				if !t.assigned[id] {
					s.id = id
					t.assigned[id] = true
					break
				}
				v++
				if v == h {
					t.errs = append(t.errs, "no available id for "+s.name)
					break
				}
			}
		}
	}
}

// aliases computes the shortest unique dot-separated suffix of every name.
func (t *symbolTable) alias(name string) string {
	parts := strings.Split(name, ".")
	for n := 1; n <= len(parts); n++ {
		suffix := strings.Join(parts[len(parts)-n:], ".")
		count := 0
		seen := map[string]bool{}
		for _, s := range t.syms {
			if seen[s.name] {
				continue
			}
			seen[s.name] = true
			if s.name == suffix || strings.HasSuffix(s.name, "."+suffix) {
				count++
			}
		}
		if count < 2 {
			return suffix
		}
	}
	return name
}
