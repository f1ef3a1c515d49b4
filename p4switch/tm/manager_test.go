package tm

import (
	"testing"
	"time"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

func pkt(port uint32, prio uint8, length int, tag int) target.Queued {
	return target.Queued{EgressPort: port, Priority: prio, Length: length, Packet: tag}
}

func newManager(t *testing.T, cfg PortConfig) *Manager {
	t.Helper()
	m, err := New(map[uint32]PortConfig{1: cfg, 2: cfg}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRateSpacesDepartures(t *testing.T) {
	// 1500-byte frames at 12 Mbit/s leave one per millisecond.
	m := newManager(t, PortConfig{RateBps: 12_000_000, Depth: 10})
	for i := 0; i < 3; i++ {
		if !m.Enqueue(pkt(1, 0, 1500, i), 0) {
			t.Fatal("enqueue refused")
		}
	}
	steps := []struct {
		now     time.Duration
		wantTag int // -1: nothing may leave yet
	}{
		{0, 0}, {0, -1}, {999 * time.Microsecond, -1}, {time.Millisecond, 1},
		{1500 * time.Microsecond, -1}, {5 * time.Millisecond, 2}, {6 * time.Millisecond, -1},
	}
	for _, s := range steps {
		q, meta, ok := m.Dequeue(s.now)
		switch {
		case s.wantTag < 0 && ok:
			t.Fatalf("at %v: packet %v left early", s.now, q.Packet)
		case s.wantTag >= 0 && (!ok || q.Packet != s.wantTag):
			t.Fatalf("at %v: got %v,%v want packet %d", s.now, q.Packet, ok, s.wantTag)
		case ok && meta.DeqTimedelta != s.now:
			t.Fatalf("deq_timedelta %v, want %v", meta.DeqTimedelta, s.now)
		}
	}
}

func TestLateWakeupKeepsLongRunRate(t *testing.T) {
	// Polled only every 10 ms, a backlog still leaves at 1 packet/ms overall.
	m := newManager(t, PortConfig{RateBps: 12_000_000, Depth: 1000})
	for i := 0; i < 100; i++ {
		m.Enqueue(pkt(1, 0, 1500, i), 0)
	}
	sent := 0
	for now := time.Duration(0); now <= 50*time.Millisecond; now += 10 * time.Millisecond {
		for {
			if _, _, ok := m.Dequeue(now); !ok {
				break
			}
			sent++
		}
	}
	if sent != 51 { // departures at 0,1,...,50 ms
		t.Fatalf("sent %d packets in 50ms, want 51", sent)
	}
}

func TestDepthDropsAndQueueMeta(t *testing.T) {
	m := newManager(t, PortConfig{Depth: 2})
	results := []bool{m.Enqueue(pkt(1, 0, 100, 0), 5), m.Enqueue(pkt(1, 0, 100, 1), 6), m.Enqueue(pkt(1, 0, 100, 2), 7)}
	if results[0] != true || results[1] != true || results[2] != false {
		t.Fatalf("enqueue results %v, want [true true false]", results)
	}
	if m.Enqueue(pkt(9, 0, 100, 3), 7) {
		t.Fatal("enqueue to a missing port succeeded")
	}
	_, meta, _ := m.Dequeue(10)
	want := target.QueueMeta{EnqTimestamp: 5, EnqQdepth: 0, DeqTimedelta: 5, DeqQdepth: 1, Now: 10}
	if meta != want {
		t.Fatalf("meta %+v, want %+v", meta, want)
	}
	_, meta, _ = m.Dequeue(10)
	if meta.EnqQdepth != 1 || meta.DeqQdepth != 0 {
		t.Fatalf("second meta %+v", meta)
	}
	st, _ := m.Stats(1)
	if st.Enqueued != 2 || st.Dequeued != 2 || st.QueueDrops != 1 || m.NoPortDrops() != 1 {
		t.Fatalf("stats %+v noport %d", st, m.NoPortDrops())
	}
}

func TestStrictPriorityAndRoundRobin(t *testing.T) {
	m := newManager(t, PortConfig{Depth: 10})
	m.Enqueue(pkt(1, 0, 100, 10), 0)
	m.Enqueue(pkt(1, 7, 100, 17), 0)
	m.Enqueue(pkt(2, 0, 100, 20), 0)
	m.Enqueue(pkt(1, 3, 100, 13), 0)
	var got []any
	for {
		q, _, ok := m.Dequeue(1)
		if !ok {
			break
		}
		got = append(got, q.Packet)
	}
	want := []any{17, 20, 13, 10}
	if len(got) != len(want) {
		t.Fatalf("got %v want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v want %v", got, want)
		}
	}
}

func TestLossRateAndRuntimeConfigure(t *testing.T) {
	m := newManager(t, DefaultConfig())
	for i := 0; i < 1000; i++ {
		if m.Lose(1) {
			t.Fatal("lost a frame with loss=0")
		}
	}
	c, _ := m.Config(1)
	if err := c.Apply("loss=25%", "rate=1G", "delay=2ms", "depth=100"); err != nil {
		t.Fatal(err)
	}
	if err := m.Configure(1, c); err != nil {
		t.Fatal(err)
	}
	lost := 0
	for i := 0; i < 10000; i++ {
		if m.Lose(1) {
			lost++
		}
	}
	if lost < 2200 || lost > 2800 {
		t.Fatalf("lost %d of 10000 at 25%%", lost)
	}
	st, _ := m.Stats(1)
	if st.LossDrops != uint64(lost) || m.Delay(1) != 2*time.Millisecond {
		t.Fatalf("stats %+v delay %v", st, m.Delay(1))
	}
	if got, _ := m.Config(1); got.RateBps != 1_000_000_000 || got.Depth != 100 {
		t.Fatalf("config %v", got)
	}
}

func TestApplyRejectsBadSettings(t *testing.T) {
	for _, s := range []string{"rate=fast", "depth=0", "delay=-1ms", "loss=2", "loss=x", "color=red", "rate"} {
		c := DefaultConfig()
		if err := c.Apply(s); err == nil {
			t.Errorf("Apply(%q) accepted", s)
		}
		if c != DefaultConfig() {
			t.Errorf("Apply(%q) changed the config to %v", s, c)
		}
	}
}

func TestFlushDropsEverything(t *testing.T) {
	m := newManager(t, DefaultConfig())
	m.Enqueue(pkt(1, 0, 100, 0), 0)
	m.Enqueue(pkt(2, 5, 100, 1), 0)
	m.Flush()
	if _, _, ok := m.Dequeue(1); ok {
		t.Fatal("packet left after flush")
	}
	if _, ok := m.NextDeparture(); ok {
		t.Fatal("NextDeparture after flush")
	}
}
