package server

import (
	"bytes"
	"testing"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/server/internal/fakepipe"
)

func TestLatenciesPercentiles(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	hundred := make([]time.Duration, 0, 100)
	for n := 100; n >= 1; n-- {
		hundred = append(hundred, ms(n))
	}
	for _, c := range []struct {
		name    string
		samples []time.Duration
		p       float64
		want    time.Duration
		summary string
	}{
		{"empty", nil, 50, 0, "n=0 p50=0.00 ms p99=0.00 ms max=0.00 ms"},
		{"one", []time.Duration{ms(3)}, 99, ms(3), "n=1 p50=3.00 ms p99=3.00 ms max=3.00 ms"},
		{"median of 1..100", hundred, 50, ms(50), "n=100 p50=50.00 ms p99=99.00 ms max=100.00 ms"},
		{"p99 of 1..100", hundred, 99, ms(99), ""},
		{"nearest rank rounds up", hundred, 0.5, ms(1), ""},
		{"max", []time.Duration{ms(2), ms(7), ms(1)}, 100, ms(7), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var l Latencies
			for _, d := range c.samples {
				l.Record(d)
			}
			if got := l.Percentile(c.p); got != c.want {
				t.Errorf("p%v = %v, want %v", c.p, got, c.want)
			}
			if c.summary != "" && l.Summary() != c.summary {
				t.Errorf("summary %q, want %q", l.Summary(), c.summary)
			}
		})
	}
}

func TestLoopLatenciesCountPacketInsAndWrites(t *testing.T) {
	h := newHarness(t, fakepipe.Loader)
	st := h.forwardingToB()
	if n := h.srv.Latencies.WriteHandled.Count(); n != 1 {
		t.Fatalf("%d Write calls timed, want 1", n)
	}
	miss := ethFrame([]byte{2, 0, 0, 0, 0, 0x0c}, macA, "unknown")
	h.send(3, miss)
	pin := next(st, func(m *p4v1.StreamMessageResponse) (*p4v1.PacketIn, bool) { return m.GetPacket(), m.GetPacket() != nil })
	if !bytes.Equal(pin.Payload, miss) {
		t.Fatalf("packet-in %v", pin)
	}
	if n := h.srv.Latencies.PacketInMade.Count(); n != 1 {
		t.Fatalf("%d packet-ins timed from the pipeline, want 1", n)
	}
	// The sender records after Send returns, which may be after the client has the message.
	deadline := time.Now().Add(5 * time.Second)
	for h.srv.Latencies.PacketInSent.Count() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d packet-ins timed to the stream, want 1", h.srv.Latencies.PacketInSent.Count())
		}
		time.Sleep(time.Millisecond)
	}
	if len(h.srv.Latencies.Lines()) != 3 {
		t.Fatalf("lines %q", h.srv.Latencies.Lines())
	}
}
