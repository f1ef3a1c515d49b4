package agent

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/fairfabric/fairfabric/host-shim/datapath"
)

func TestUnpinnedDestinationsAreReportedLikeSessions(t *testing.T) {
	a := netip.MustParseAddr
	c := func(kv ...any) map[netip.Addr]datapath.SentCounters {
		m := map[netip.Addr]datapath.SentCounters{}
		for i := 0; i < len(kv); i += 2 {
			m[a(kv[i].(string))] = datapath.SentCounters{Packets: 1, Bytes: uint64(kv[i+1].(int))}
		}
		return m
	}
	pin := func(dsts ...string) map[netip.Addr]bool {
		m := map[netip.Addr]bool{}
		for _, d := range dsts {
			m[a(d)] = true
		}
		return m
	}
	type period struct {
		counters map[netip.Addr]datapath.SentCounters
		pinned   map[netip.Addr]bool
		refresh  bool
		want     string // "dst state reason" joined by "; "
	}
	tests := []struct {
		name    string
		periods []period
	}{
		{"active at its first bytes, inactive after three idle periods", []period{
			{c("10.0.0.16", 1000), nil, false, "10.0.0.16 active transition"},
			{c("10.0.0.16", 2000), nil, false, ""},
			{c("10.0.0.16", 2000), nil, false, ""},
			{c("10.0.0.16", 2000), nil, true, "10.0.0.16 active refresh"},
			{c("10.0.0.16", 2000), nil, false, "10.0.0.16 inactive transition"},
			{c("10.0.0.16", 2000), nil, true, ""},
			{c("10.0.0.16", 2500), nil, false, "10.0.0.16 active transition"},
		}},
		{"pinned by the table: no longer reported, without a record; unpinned again: reported again", []period{
			{c("10.0.0.16", 1000, "10.200.1.2", 10), nil, false, "10.0.0.16 active transition; 10.200.1.2 active transition"},
			{c("10.0.0.16", 1000, "10.200.1.2", 20), pin("10.0.0.16"), true, "10.200.1.2 active refresh"},
			{c("10.0.0.16", 1000, "10.200.1.2", 30), pin("10.0.0.16"), true, "10.200.1.2 active refresh"},
			{c("10.0.0.16", 1500, "10.200.1.2", 30), nil, false, "10.0.0.16 active transition"},
		}},
		{"first seen while pinned: nothing", []period{
			{c("10.0.0.16", 1000), pin("10.0.0.16"), true, ""},
		}},
		{"evicted from the counters while active: removed", []period{
			{c("10.0.0.16", 1000), nil, false, "10.0.0.16 active transition"},
			{c(), nil, false, "10.0.0.16 inactive removed"},
			{c(), nil, true, ""},
		}},
		{"multicast and broadcast are no session", []period{
			{c("224.0.0.251", 100, "255.255.255.255", 100), nil, true, ""},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := newUnpinnedTracker(3)
			for i, p := range tc.periods {
				var got []string
				for _, r := range u.update(p.counters, p.pinned, p.refresh) {
					state := "inactive"
					if r.active {
						state = "active"
					}
					got = append(got, fmt.Sprintf("%s %s %s", r.dst, state, r.reason))
				}
				if g := strings.Join(got, "; "); g != p.want {
					t.Errorf("period %d: got %q, want %q", i, g, p.want)
				}
			}
		})
	}
}

func TestUnpinnedReportsCarryTheLastPeriodsPacketsAndBytes(t *testing.T) {
	dst := netip.MustParseAddr("10.0.0.16")
	u := newUnpinnedTracker(3)
	steps := []struct {
		packets, bytes uint64 // cumulative counters
		refresh        bool
		want           string
	}{
		{10, 15140, false, "active transition 10/15140"}, // first seen: everything so far
		{110, 21740, true, "active refresh 100/6600"},    // ACKs only in this period: 66-byte frames
		{110, 21740, false, ""},                          // idle
		{110, 21740, false, ""},                          // idle
		{110, 21740, false, "inactive transition 0/0"},   // three idle periods
		{5, 7570, false, "active transition 5/7570"},     // evicted and counted again in between
	}
	for i, s := range steps {
		var got []string
		for _, r := range u.update(map[netip.Addr]datapath.SentCounters{dst: {Packets: s.packets, Bytes: s.bytes}}, nil, s.refresh) {
			state := "inactive"
			if r.active {
				state = "active"
			}
			got = append(got, fmt.Sprintf("%s %s %d/%d", state, r.reason, r.packets, r.bytes))
		}
		if g := strings.Join(got, "; "); g != s.want {
			t.Errorf("step %d: got %q, want %q", i, g, s.want)
		}
	}
}
