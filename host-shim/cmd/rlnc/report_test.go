package main

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/transport"
	"github.com/fairfabric/fairfabric/host-shim/telemetry"
)

func senderStats(paths []transport.Path, packets, bytes map[uint16]uint64, news, repairs, acks, decodedBytes uint64, sent, seen, decoded uint32) transport.SenderStats {
	return transport.SenderStats{Paths: paths, PathPackets: packets, PathBytes: bytes, NewPackets: news,
		RepairPackets: repairs, Acks: acks, DecodedBytes: decodedBytes, Sent: sent, Seen: seen, Decoded: decoded,
		SRTT: 9500 * time.Microsecond, RTO: 20 * time.Millisecond}
}

func TestSenderPeriod(t *testing.T) {
	cfg := transport.Config{Window: 8, Capacity: 256, SymbolSize: 1024}
	two := []transport.Path{{ID: 1, RateBps: 30e6}, {ID: 2, RateBps: 10e6}}
	for _, c := range []struct {
		name        string
		prev, cur   transport.SenderStats
		period      time.Duration
		wantPaths   []telemetry.RLNCPathSent
		wantRepairs uint64
		wantGoodput float64
		wantFlight  uint32
	}{
		{
			name:   "first period: the counters are the period's",
			prev:   transport.SenderStats{},
			cur:    senderStats(two, map[uint16]uint64{1: 300, 2: 100}, map[uint16]uint64{1: 300 * 1040, 2: 100 * 1040}, 398, 2, 390, 380*1022, 398, 385, 380),
			period: time.Second,
			wantPaths: []telemetry.RLNCPathSent{
				{Path: 1, AllocatedBps: 30e6, Packets: 300, Bytes: 312000, SentBps: float64(300*(1040+66)) * 8},
				{Path: 2, AllocatedBps: 10e6, Packets: 100, Bytes: 104000, SentBps: float64(100*(1040+66)) * 8},
			},
			wantRepairs: 2, wantGoodput: 380 * 1022 * 8, wantFlight: 18,
		},
		{
			name:   "a later period of 500 ms: differences over the period",
			prev:   senderStats(two, map[uint16]uint64{1: 300, 2: 100}, map[uint16]uint64{1: 312000, 2: 104000}, 398, 2, 390, 380*1022, 398, 385, 380),
			cur:    senderStats(two, map[uint16]uint64{1: 450, 2: 150}, map[uint16]uint64{1: 468000, 2: 156000}, 598, 2, 590, 590*1022, 598, 590, 590),
			period: 500 * time.Millisecond,
			wantPaths: []telemetry.RLNCPathSent{
				{Path: 1, AllocatedBps: 30e6, Packets: 150, Bytes: 156000, SentBps: float64(150*(1040+66)) * 16},
				{Path: 2, AllocatedBps: 10e6, Packets: 50, Bytes: 52000, SentBps: float64(50*(1040+66)) * 16},
			},
			wantRepairs: 0, wantGoodput: 210 * 1022 * 16, wantFlight: 8,
		},
		{
			name: "new rates dropped path 2: it is listed with allocated 0 while it carried packets in the period",
			prev: senderStats(two, map[uint16]uint64{1: 300, 2: 100}, map[uint16]uint64{1: 312000, 2: 104000}, 400, 0, 0, 0, 400, 0, 0),
			cur: senderStats([]transport.Path{{ID: 1, RateBps: 40e6}}, map[uint16]uint64{1: 310, 2: 101},
				map[uint16]uint64{1: 322400, 2: 105040}, 411, 0, 0, 0, 411, 0, 0),
			period: time.Second,
			wantPaths: []telemetry.RLNCPathSent{
				{Path: 1, AllocatedBps: 40e6, Packets: 10, Bytes: 10400, SentBps: 10 * 1106 * 8},
				{Path: 2, AllocatedBps: 0, Packets: 1, Bytes: 1040, SentBps: 1106 * 8},
			},
			wantFlight: 411,
		},
		{
			name: "an unpinned path: no tag and no fabric header on the wire",
			cur: senderStats([]transport.Path{{ID: 0, RateBps: 1e6}}, map[uint16]uint64{0: 10},
				map[uint16]uint64{0: 10400}, 10, 0, 10, 10*1022, 10, 10, 10),
			period:      time.Second,
			wantPaths:   []telemetry.RLNCPathSent{{Path: 0, AllocatedBps: 1e6, Packets: 10, Bytes: 10400, SentBps: 10 * 1082 * 8}},
			wantGoodput: 10 * 1022 * 8,
		},
		{
			name:   "sequence numbers across the 2^32 wrap: in flight stays small",
			cur:    senderStats(two, map[uint16]uint64{}, map[uint16]uint64{}, 0, 0, 0, 0, 3, 0xfffffffe, 0xfffffffd),
			period: time.Second,
			wantPaths: []telemetry.RLNCPathSent{
				{Path: 1, AllocatedBps: 30e6}, {Path: 2, AllocatedBps: 10e6},
			},
			wantFlight: 6,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := senderPeriod(cfg, c.prev, c.cur, c.period)
			if len(got.Paths) != len(c.wantPaths) {
				t.Fatalf("paths %+v, want %+v", got.Paths, c.wantPaths)
			}
			for i, w := range c.wantPaths {
				g := got.Paths[i]
				if g.Path != w.Path || g.AllocatedBps != w.AllocatedBps || g.Packets != w.Packets || g.Bytes != w.Bytes || math.Abs(g.SentBps-w.SentBps) > 1e-6 {
					t.Errorf("path %d: %+v, want %+v", i, g, w)
				}
			}
			if got.RepairPackets != c.wantRepairs || math.Abs(got.GoodputBps-c.wantGoodput) > 1e-6 || got.InFlight != c.wantFlight {
				t.Errorf("repairs %d goodput %.0f in flight %d, want %d %.0f %d", got.RepairPackets, got.GoodputBps, got.InFlight,
					c.wantRepairs, c.wantGoodput, c.wantFlight)
			}
			if got.Window != 8 || got.Capacity != 256 || got.SymbolBytes != 1024 || got.SRTTMs != 9.5 || got.RTOMs != 20 {
				t.Errorf("configuration and timers: %+v", got)
			}
		})
	}
}

func TestReceiverPeriod(t *testing.T) {
	stats := func(inn, dep, stale uint64, packets, bytes map[uint16]uint64) transport.ReceiverStats {
		return transport.ReceiverStats{Innovative: inn, Dependent: dep, Stale: stale, PathPackets: packets, PathBytes: bytes}
	}
	for _, c := range []struct {
		name                     string
		prev, cur                transport.ReceiverStats
		delivered                uint64
		period                   time.Duration
		wantPackets, wantInnov   uint64
		wantDependent, wantStale uint64
		wantGoodput              float64
		wantPaths                []telemetry.RLNCPathRecv
	}{
		{
			name: "first period", cur: stats(390, 8, 2, map[uint16]uint64{1: 300, 2: 100}, map[uint16]uint64{1: 312000, 2: 104000}),
			delivered: 390 * 1022, period: time.Second,
			wantPackets: 400, wantInnov: 390, wantDependent: 8, wantStale: 2, wantGoodput: 390 * 1022 * 8,
			wantPaths: []telemetry.RLNCPathRecv{{Path: 1, Packets: 300, Bytes: 312000, RateBps: 312000 * 8}, {Path: 2, Packets: 100, Bytes: 104000, RateBps: 104000 * 8}},
		},
		{
			name:      "a path silent in the period is left out",
			prev:      stats(390, 8, 2, map[uint16]uint64{1: 300, 2: 100}, map[uint16]uint64{1: 312000, 2: 104000}),
			cur:       stats(400, 8, 2, map[uint16]uint64{1: 310, 2: 100}, map[uint16]uint64{1: 322400, 2: 104000}),
			delivered: 0, period: 250 * time.Millisecond,
			wantPackets: 10, wantInnov: 10, wantPaths: []telemetry.RLNCPathRecv{{Path: 1, Packets: 10, Bytes: 10400, RateBps: 10400 * 32}},
		},
		{
			name: "nothing arrived", prev: stats(1, 0, 0, map[uint16]uint64{1: 1}, map[uint16]uint64{1: 1040}),
			cur: stats(1, 0, 0, map[uint16]uint64{1: 1}, map[uint16]uint64{1: 1040}), period: time.Second,
			wantPaths: []telemetry.RLNCPathRecv{},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := receiverPeriod(c.prev, c.cur, c.delivered, c.period)
			if got.Packets != c.wantPackets || got.Innovative != c.wantInnov || got.Dependent != c.wantDependent ||
				got.Stale != c.wantStale || math.Abs(got.GoodputBps-c.wantGoodput) > 1e-6 || got.DeliveredBytes != c.delivered {
				t.Errorf("%+v", got)
			}
			if len(got.Paths) != len(c.wantPaths) {
				t.Fatalf("paths %+v, want %+v", got.Paths, c.wantPaths)
			}
			for i := range c.wantPaths {
				if got.Paths[i] != c.wantPaths[i] {
					t.Errorf("path %d: %+v, want %+v", i, got.Paths[i], c.wantPaths[i])
				}
			}
		})
	}
}

// The record as the monitor reads it: one role's object, the other absent, and the
// fields docs/kafka.md names.
func TestRecordJSON(t *testing.T) {
	rec := telemetry.RLNC{Schema: 1, Host: "h1", Seq: 1, TsMs: 1763770001000, PeriodMs: 1000, Role: "sender",
		Session: "s1", SessionID: SessionID("s1"), Src: "10.0.0.1", Dst: "10.0.0.2",
		Sender: senderPeriod(transport.Config{Window: 8, Capacity: 256, SymbolSize: 1024}, transport.SenderStats{},
			senderStats([]transport.Path{{ID: 1, RateBps: 1e6}}, map[uint16]uint64{}, map[uint16]uint64{}, 0, 0, 0, 0, 0, 0, 0), time.Second)}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if _, ok := m["receiver"]; ok {
		t.Errorf("a sender's record has a receiver object: %s", b)
	}
	s, _ := m["sender"].(map[string]any)
	for _, f := range []string{"window", "paths", "repair_packets", "goodput_bps", "in_flight", "srtt_ms", "rto_ms"} {
		if _, ok := s[f]; !ok {
			t.Errorf("sender.%s missing: %s", f, b)
		}
	}
	for _, f := range []string{"schema", "host", "seq", "ts_ms", "period_ms", "role", "session", "session_id", "src", "dst", "telemetry"} {
		if _, ok := m[f]; !ok {
			t.Errorf("%s missing: %s", f, b)
		}
	}
}

// A broker that is down: the reporter publishes without waiting, and closing it costs at
// most the flush second and the producer's grace, whatever was buffered.
func TestReporterWithoutBrokerNeverWaits(t *testing.T) {
	calls := 0
	r, err := startReporter([]string{"127.0.0.1:1"}, sessionEnds{host: "h1", sessionID: 42}, 5*time.Millisecond,
		func(time.Duration) (telemetry.RLNC, bool) {
			calls++
			return telemetry.RLNC{Role: "sender", Sender: &telemetry.RLNCSender{}}, true
		})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	d := r.close()
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("close took %s", took)
	}
	if calls < 5 || d.Produced != 0 || d.Dropped+uint64(d.Buffered) != uint64(calls) {
		t.Errorf("%d records built, delivery %+v", calls, d)
	}
}
