package v1model

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/interp"
)

// idleWatch is an entry with an idle timeout.
type idleWatch struct {
	table    *interp.Table
	notified bool  // a notification went out for the idle period ...
	lastHit  int64 // ... that began at this LastHit
}

// trackIdle starts (or restarts) the idle timer of a stored entry; the
// caller holds writeMu. An entry without a timeout is not watched.
func (p *Pipeline) trackIdle(t *interp.Table, en *interp.Entry) {
	if en.IdleTimeoutNs <= 0 || !t.SupportsIdle {
		delete(p.idle, en)
		return
	}
	en.LastHit.Store(interp.Monotonic())
	p.idle[en] = &idleWatch{table: t}
}

// untrackIdle stops watching the entry of t with en's identity.
func (p *Pipeline) untrackIdle(t *interp.Table, en *interp.Entry) {
	delete(p.idle, en)
	if stored := t.Lookup(en); stored != nil {
		delete(p.idle, stored)
	}
}

// IdleExpired returns the entries whose idle timeout has expired since the
// last call: each expiry is reported once; a hit (or a MODIFY) re-arms the
// entry. Entries are not deleted.
func (p *Pipeline) IdleExpired() []*p4v1.TableEntry {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	now := interp.Monotonic()
	var out []*p4v1.TableEntry
	for en, w := range p.idle {
		last := en.LastHit.Load()
		if now-last < en.IdleTimeoutNs || (w.notified && w.lastHit == last) {
			continue
		}
		w.notified, w.lastHit = true, last
		out = append(out, p.entryProto(w.table, en, &p4v1.TableEntry{}))
	}
	return out
}

// sinceLastHit is the TableEntry.time_since_last_hit of en.
func sinceLastHit(en *interp.Entry) *p4v1.TableEntry_IdleTimeout {
	return &p4v1.TableEntry_IdleTimeout{ElapsedNs: max(0, interp.Monotonic()-en.LastHit.Load())}
}
