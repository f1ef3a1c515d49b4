package sw

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/fairfabric/fairfabric/p4switch/netio"
	"github.com/fairfabric/fairfabric/p4switch/tm"
)

// Three switches in a line on one group, as a fabric-mode process runs them:
// frames cross all three hops in order (the middle link rate-limited, so the
// group also sleeps until traffic-manager departures), a packet-out enters
// the first switch's pipeline, control calls run, and one switch stops while
// the others keep forwarding; with one worker and with several (which share
// the switches).
func TestGroupRunsSwitchesInALine(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) { testGroupLine(t, workers) })
	}
}

func testGroupLine(t *testing.T, workers int) {
	g, err := NewGroup(workers)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	hostA, s1p1 := pollablePipe(t, 1024)
	s1p2, s2p1 := pollablePipe(t, 1024)
	s2p2, s3p1 := pollablePipe(t, 1024)
	s3p2, hostB := pollablePipe(t, 1024)
	mk := func(p1, p2 *netio.MemPort, rate uint64) *Switch {
		s, err := New(Config{Ports: map[uint32]netio.Port{1: p1, 2: p2}, CPUPort: 255,
			Queues: map[uint32]tm.PortConfig{2: {Depth: 1024, RateBps: rate}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Add(s); err != nil {
			t.Fatal(err)
		}
		if err := s.SetPipeline(crossPipe{}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s1 := mk(s1p1, s1p2, 0)
	s2 := mk(s2p1, s2p2, 5_000_000)
	s3 := mk(s3p1, s3p2, 0)
	defer s1.Stop()
	defer s2.Stop()

	read := func(p *netio.MemPort) []byte {
		t.Helper()
		got := make(chan []byte, 1)
		go func() {
			bufs, lens := [][]byte{make([]byte, netio.MaxFrame)}, []int{0}
			if n, err := p.ReadBatch(bufs, lens); err == nil && n == 1 {
				got <- bufs[0][:lens[0]]
			}
		}()
		select {
		case f := <-got:
			return f
		case <-time.After(5 * time.Second):
			t.Fatal("no frame arrived")
			return nil
		}
	}
	const n = 100
	for i := 0; i < n; i++ {
		hostA.WriteBatch([][]byte{[]byte(fmt.Sprintf("frame %03d %s", i, bytes.Repeat([]byte{'x'}, 500)))})
	}
	for i := 0; i < n; i++ {
		if got := read(hostB); !bytes.HasPrefix(got, []byte(fmt.Sprintf("frame %03d ", i))) {
			t.Fatalf("frame %d: got %.12q", i, got)
		}
	}
	// Port 255 is the CPU port: crossPipe sends its frames to port 3-255,
	// which does not exist, so count the packet-out at ingress instead.
	before := s1.Counters.Received.Load()
	if err := s1.InjectFromCPU([]byte("packet-out")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); s1.Counters.Received.Load() == before; {
		if time.Now().After(deadline) {
			t.Fatal("the packet-out never reached ingress")
		}
		time.Sleep(time.Millisecond)
	}
	ran := false
	if err := s2.Atomically(func() { ran = true }); err != nil || !ran {
		t.Fatalf("Atomically: ran %v, err %v", ran, err)
	}
	// s3 stops: s1 and s2 keep running on the group.
	s3.Stop()
	sent := s2.Sent(2)
	hostA.WriteBatch([][]byte{[]byte("after s3 stopped")})
	for deadline := time.Now().Add(5 * time.Second); s2.Sent(2) == sent; {
		if time.Now().After(deadline) {
			t.Fatal("s2 stopped forwarding when s3 stopped")
		}
		time.Sleep(time.Millisecond)
	}
	if err := s3.Atomically(func() {}); err == nil {
		t.Fatal("Atomically on a stopped switch succeeded")
	}
}
