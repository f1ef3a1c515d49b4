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
	bytes   uint64 // the counters at the last period
	packets uint64
	active  bool
	idle    int
}

type unpinnedReport struct {
	dst    netip.Addr
	active bool
	reason string // "transition" | "refresh" | "removed"
	// what went to dst in the last period (frames as the egress hook saw them): the
	// monitor tells data from a stream of TCP acknowledgements by the mean size
	packets, bytes uint64
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
				out = append(out, unpinnedReport{dst: dst, reason: "removed"})
			}
			delete(u.dsts, dst)
			continue
		}
		sent := c.Bytes != st.bytes
		dBytes, dPackets := c.Bytes-st.bytes, c.Packets-st.packets
		if c.Bytes < st.bytes || c.Packets < st.packets { // evicted and counted again in between
			dBytes, dPackets = c.Bytes, c.Packets
		}
		st.bytes, st.packets = c.Bytes, c.Packets
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
			out = append(out, unpinnedReport{dst, active, "transition", dPackets, dBytes})
		case refresh && active:
			out = append(out, unpinnedReport{dst, true, "refresh", dPackets, dBytes})
		}
	}
	for dst, c := range counters {
		if _, known := u.dsts[dst]; known || dst.IsMulticast() || dst == broadcast {
			continue
		}
		st := &unpinnedActivity{bytes: c.Bytes, packets: c.Packets, idle: u.idlePeriods}
		u.dsts[dst] = st
		if !pinned[dst] && c.Bytes > 0 {
			st.active, st.idle = true, 0
			out = append(out, unpinnedReport{dst, true, "transition", c.Packets, c.Bytes})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dst.Less(out[j].dst) })
	return out
}
