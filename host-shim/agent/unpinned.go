package agent

import (
	"net/netip"
	"sort"

	"github.com/fairfabric/fairfabric/host-shim/datapath"
)

// UnpinnedPrefix starts the session id under which a shim reports a destination it
// sends to outside any session of its rates table.
const UnpinnedPrefix = "unpinned/"

// unpinnedTracker follows the activity of destinations outside the table, like the
// sessions': active while bytes went out in one of the last idle periods.
type unpinnedTracker struct {
	idlePeriods int
	dsts        map[netip.Addr]*unpinnedActivity
}

type unpinnedActivity struct {
	bytes  uint64 // the counter at the last period
	active bool
	idle   int
}

type unpinnedReport struct {
	dst    netip.Addr
	active bool
	reason string // "transition" | "refresh" | "removed"
}

func newUnpinnedTracker(idlePeriods int) unpinnedTracker {
	return unpinnedTracker{idlePeriods: idlePeriods, dsts: map[netip.Addr]*unpinnedActivity{}}
}

// update takes one period's counters and the destinations the table pins now, and
// returns what to report, sorted by destination. A destination that the table pins
// now stops being reported without a record of its own (the session's reports take
// over); one that left the counters (evicted) or was never active is forgotten.
func (u *unpinnedTracker) update(counters map[netip.Addr]datapath.SentCounters, pinned map[netip.Addr]bool, refresh bool) []unpinnedReport {
	var out []unpinnedReport
	for dst, st := range u.dsts {
		c, ok := counters[dst]
		if !ok {
			if st.active {
				out = append(out, unpinnedReport{dst, false, "removed"})
			}
			delete(u.dsts, dst)
			continue
		}
		sent := c.Bytes != st.bytes
		st.bytes = c.Bytes
		if pinned[dst] {
			st.active, st.idle = false, u.idlePeriods
			continue
		}
		if sent {
			st.idle = 0
		} else if st.idle < u.idlePeriods {
			st.idle++
		}
		active := st.idle < u.idlePeriods
		switch {
		case active != st.active:
			st.active = active
			out = append(out, unpinnedReport{dst, active, "transition"})
		case refresh && active:
			out = append(out, unpinnedReport{dst, true, "refresh"})
		}
	}
	for dst, c := range counters {
		if _, known := u.dsts[dst]; known || dst.IsMulticast() || dst == broadcast {
			continue
		}
		st := &unpinnedActivity{bytes: c.Bytes, idle: u.idlePeriods}
		u.dsts[dst] = st
		if !pinned[dst] && c.Bytes > 0 {
			st.active, st.idle = true, 0
			out = append(out, unpinnedReport{dst, true, "transition"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dst.Less(out[j].dst) })
	return out
}
