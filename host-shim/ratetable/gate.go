package ratetable

import "fmt"

// Rejection reasons, used as metric labels.
const (
	RejectMalformed  = "malformed"
	RejectDuplicate  = "duplicate"
	RejectOutOfOrder = "out_of_order"
)

// Gate admits only tables whose version is above the last applied one, so that a
// replayed, duplicated or reordered record never rolls the rates back.
type Gate struct {
	applied uint64
}

// Applied is the version currently in force (0: none yet).
func (g *Gate) Applied() uint64 { return g.applied }

// Check says whether t may be applied, and if not, why (a Reject* reason).
func (g *Gate) Check(t *Table) (reason string, err error) {
	switch {
	case t.Version == g.applied:
		return RejectDuplicate, fmt.Errorf("version %d is already in force", t.Version)
	case t.Version < g.applied:
		return RejectOutOfOrder, fmt.Errorf("version %d is older than version %d in force", t.Version, g.applied)
	}
	return "", nil
}

// Commit records that t is now in force (call only after it was applied).
func (g *Gate) Commit(t *Table) { g.applied = t.Version }
