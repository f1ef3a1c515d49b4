package scenario

import (
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// flow is an unpinned UDP flow toward the other leaf.
func flow(dscp uint8, sport uint16) []byte {
	return udpFrame(0, h1IP, remoteIP, dscp, sport, 5001, 100)
}

func TestRoutingGroupsSkipEmptyGroups(t *testing.T) {
	h := newHarness(t)
	leaf(h)
	uplinkMembers(h, upQ)
	// G0 (priority 3) is empty, so it has no entry; G1 = {3}, G2 = {4}.
	groupOf(h, upQ, 11, 2, 3)
	groupOf(h, upQ, 12, 1, 4)
	for i := 0; i < 20; i++ {
		if got := h.sendTo(1, flow(0, uint16(1000+i)), time.Second); got != 3 {
			t.Fatalf("flow %d left on %d, want 3 (G1 is the first non-empty group)", i, got)
		}
	}
	// Algorithm 4 moves port 3 down to G2: G1 becomes empty, its entry goes.
	h.write(p4v1.Update_DELETE, h.entry(upQ, []match{ternary("hdr.ipv4.dst_addr", dcnPrefix, 0xFF000000)}, 2, nil))
	h.group(p4v1.Update_MODIFY, selectorOf[upQ], 12, 3, 4)
	seen := map[uint32]int{}
	for i := 0; i < 50; i++ {
		seen[h.sendTo(1, flow(0, uint16(2000+i)), time.Second)]++
	}
	if len(seen) != 2 || seen[3] == 0 || seen[4] == 0 {
		t.Fatalf("after the move flows left on %v, want both 3 and 4", seen)
	}
	// Both ports up to G0: traffic is still delivered on 3 and 4.
	groupOf(h, upQ, 10, 3, 3, 4)
	h.write(p4v1.Update_DELETE, h.entry(upQ, []match{ternary("hdr.ipv4.dst_addr", dcnPrefix, 0xFF000000)}, 1, nil))
	for i := 0; i < 20; i++ {
		if got := h.sendTo(1, flow(0, uint16(3000+i)), time.Second); got != 3 && got != 4 {
			t.Fatalf("flow %d left on %d", i, got)
		}
	}
}

func TestAllUplinksInOneGroupIsEcmp(t *testing.T) {
	h := newHarness(t)
	leaf(h)
	for _, table := range []string{upD, upQ, upU} {
		uplinkMembers(h, table)
		groupOf(h, table, 1, 1, 3, 4, 5)
	}
	const flows = 3000
	counts := map[uint32]int{}
	for i := 0; i < flows; i++ {
		counts[h.sendTo(1, udpFrame(0, h1IP, remoteIP, 0, uint16(1024+i), uint16(5000+i%7), 100), time.Second)]++
	}
	// Uniform split: chi-square with 2 degrees of freedom below 13.8 (p = 0.001).
	chi := 0.0
	for _, port := range []uint32{3, 4, 5} {
		d := float64(counts[port]) - flows/3.0
		chi += d * d / (flows / 3.0)
	}
	if len(counts) != 3 || chi > 13.8 {
		t.Fatalf("split over uplinks %v (chi-square %.1f), want uniform over 3, 4, 5", counts, chi)
	}
}

// colors packs port_utilizations: 2 bits per port.
func colors(portColor map[uint32]uint64) []byte {
	var v [16]byte // bit<128>, big-endian
	for port, c := range portColor {
		bit := 2 * port
		v[15-bit/8] |= byte(c << (bit % 8))
	}
	b := v[:]
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

func TestAlgorithm3TruthTable(t *testing.T) {
	h := newHarness(t)
	leaf(h)
	// low_delay_port = 3, low_queue_depth_port = 4, low_util_port = 5.
	for table, port := range map[string]uint32{upD: 3, upQ: 4, upU: 5} {
		uplinkMembers(h, table)
		groupOf(h, table, 1, 1, port)
	}
	const green, yellow, red = 0, 1, 2
	tests := []struct {
		name   string
		dscp   uint8
		colors map[uint32]uint64
		want   uint32
	}{
		{"low delay, delay port green", dscpLowDelay, map[uint32]uint64{3: green}, 3},
		{"low delay, delay port yellow", dscpLowDelay, map[uint32]uint64{3: yellow}, 4},
		{"low delay, delay port red", dscpLowDelay, map[uint32]uint64{3: red}, 5},
		{"throughput, util port green", dscpThroughput, map[uint32]uint64{5: green}, 5},
		{"throughput, util port yellow", dscpThroughput, map[uint32]uint64{5: yellow}, 4},
		{"throughput, util port red", dscpThroughput, map[uint32]uint64{5: red}, 3},
		{"other class ignores colours", 0, map[uint32]uint64{3: red, 4: red, 5: red}, 4},
		{"other class, all green", 0, map[uint32]uint64{}, 4},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.t = t
			h.setRegister(in+"port_utilization.port_utilizations", 0, colors(tt.colors))
			// A new flow is a new flowlet.
			if got := h.sendTo(1, flow(tt.dscp, uint16(4000+i)), time.Second); got != tt.want {
				t.Fatalf("egress %d, want %d", got, tt.want)
			}
		})
	}
}

func TestFlowletStickiness(t *testing.T) {
	h := newHarness(t)
	leaf(h)
	for table, port := range map[string]uint32{upD: 3, upQ: 4, upU: 5} {
		uplinkMembers(h, table)
		groupOf(h, table, 1, 1, port)
	}
	start := 10 * time.Second
	f := flow(dscpLowDelay, 777)
	if got := h.sendTo(1, f, start); got != 3 {
		t.Fatalf("first packet on %d, want the low-delay port 3", got)
	}
	// The delay table now prefers port 5.
	h.group(p4v1.Update_MODIFY, selectorOf[upD], 1, 5)
	steps := []struct {
		at   time.Duration
		want uint32
		why  string
	}{
		{start + 10*time.Millisecond, 3, "10 ms gap: same flowlet keeps port 3"},
		{start + 50*time.Millisecond, 3, "exactly 40 ms gap (threshold, strict >): same flowlet"},
		{start + 90*time.Millisecond + time.Microsecond, 5, "40.001 ms gap: new flowlet, re-selected"},
		{start + 100*time.Millisecond, 5, "and it sticks"},
	}
	for _, s := range steps {
		if got := h.sendTo(1, f, s.at); got != s.want {
			t.Fatalf("%s: left on %d, want %d", s.why, got, s.want)
		}
	}
	// Other flows are not affected by this flow's flowlet.
	if got := h.sendTo(1, flow(dscpLowDelay, 778), start+20*time.Millisecond); got != 5 {
		t.Fatalf("a new flow left on %d, want 5", got)
	}
}

func TestFailoverSkipsFailedUplinks(t *testing.T) {
	h := newHarness(t)
	leaf(h)
	for table, port := range map[string]uint32{upD: 3, upQ: 3, upU: 5} {
		uplinkMembers(h, table)
		groupOf(h, table, 1, 1, port)
	}
	failed := func(ports ...uint) []byte {
		var v uint64
		for _, p := range ports {
			v |= 1 << p
		}
		return canonical(v)
	}
	if got := h.sendTo(1, flow(0, 1), time.Second); got != 3 {
		t.Fatalf("healthy: left on %d, want 3", got)
	}
	h.setRegister(in+"failure_detection.failed_ports", 0, failed(3))
	if got := h.sendTo(1, flow(0, 1), time.Second); got != 5 {
		t.Fatalf("port 3 failed: left on %d, want the healthy candidate 5", got)
	}
	// A sub-flow pinned to the failed port falls back to the routing groups.
	if got := h.sendTo(1, udpFrame(7, h1IP, remoteIP, 0, 9, 9, 100), time.Second); got != 5 {
		t.Fatalf("pinned to failed 3: left on %d, want 5", got)
	}
	// A flowlet on a port that fails is re-selected at once.
	h.setRegister(in+"failure_detection.failed_ports", 0, failed())
	lowDelay := flow(dscpLowDelay, 55)
	if got := h.sendTo(1, lowDelay, time.Second); got != 3 {
		t.Fatalf("low delay flowlet on %d, want 3", got)
	}
	h.setRegister(in+"failure_detection.failed_ports", 0, failed(3))
	if got := h.sendTo(1, lowDelay, time.Second+time.Millisecond); got != 5 {
		t.Fatalf("flowlet after its port failed: left on %d, want 5", got)
	}
	// Every candidate failed: resubmitted with new hashes, then dropped.
	h.setRegister(in+"failure_detection.failed_ports", 0, failed(3, 5))
	if got := h.sendTo(1, flow(0, 2), time.Second); got != 0 {
		t.Fatalf("all candidates failed: left on %d, want a drop", got)
	}
	// Downward traffic is not rerouted.
	if got := h.sendTo(1, udpFrame(0, h1IP, h2IP, 0, 1, 2, 100), time.Second); got != 2 {
		t.Fatalf("downward: left on %d, want 2", got)
	}
}

// TestTheRouterMacSaltsTheFlowHash: the same flow at two switches (each routes frames to its own
// router MAC, 02:aa:00:00 and its device id as the controllers make them) picks its uplink
// independently at each. With the 5-tuple alone both picked the same member index for every
// flow, and in a k=4 fat-tree ECMP reached two of the four core switches.
func TestTheRouterMacSaltsTheFlowHash(t *testing.T) {
	routerMACOf := func(deviceID uint64) uint64 { return 0x02aa00000000 | deviceID }
	ids := []uint64{1, 2, 5, 6, 13, 20}
	h := newHarness(t)
	leaf(h)
	for _, id := range ids {
		h.add(in+"my_station.my_station", []match{exact("hdr.ethernet.dst_addr", routerMACOf(id))}, 0, "NoAction")
	}
	for _, table := range []string{upD, upQ, upU} {
		uplinkMembers(h, table)
		groupOf(h, table, 1, 1, 3, 4)
	}
	const flows = 400
	choice := map[uint64][]uint32{}
	for _, id := range ids {
		for i := 0; i < flows; i++ {
			f := udpFrame(0, h1IP, remoteIP, 0, uint16(1024+i), 5001, 100)
			putMAC(f[0:], routerMACOf(id))
			port := h.sendTo(1, f, time.Second)
			if port != 3 && port != 4 {
				t.Fatalf("flow %d at device %d left on %d, want uplink 3 or 4", i, id, port)
			}
			choice[id] = append(choice[id], port)
		}
	}
	// Independent choices agree about half the time (binomial, sd 10 of 400).
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			same := 0
			for f := range choice[a] {
				if choice[a][f] == choice[b][f] {
					same++
				}
			}
			if same < flows*3/10 || same > flows*7/10 {
				t.Errorf("devices %d and %d chose the same uplink for %d of %d flows, want about half", a, b, same, flows)
			}
		}
	}
}
