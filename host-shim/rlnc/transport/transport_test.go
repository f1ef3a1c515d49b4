package transport

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/coding"
)

// shakyLink wraps a link: each path delays its datagrams by its own amount, and a
// seeded fraction of datagrams is dropped. It exercises the protocol without a fabric.
type shakyLink struct {
	Link
	delay map[uint16]time.Duration
	loss  float64
	mu    sync.Mutex
	rng   *rand.Rand
	wg    sync.WaitGroup
}

func (l *shakyLink) Send(path uint16, b []byte) error {
	l.mu.Lock()
	drop := l.rng.Float64() < l.loss
	l.mu.Unlock()
	if drop {
		return nil
	}
	c := append([]byte(nil), b...)
	l.wg.Add(1)
	time.AfterFunc(l.delay[path], func() { defer l.wg.Done(); _ = l.Link.Send(path, c) })
	return nil
}

func udp(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetReadBuffer(4 << 20)
	return c
}

func randomBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// transfer sends data through a sender on link and returns what the receiver read.
func transfer(t *testing.T, cfg Config, paths []Path, wrap func(Link) Link, data []byte) ([]byte, SenderStats, ReceiverStats) {
	t.Helper()
	rc, sc := udp(t), udp(t)
	recv, err := NewReceiver(cfg, rc)
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	link := wrap(NewUDPLink(sc, rc.LocalAddr().(*net.UDPAddr).AddrPort()))
	snd, err := NewSender(cfg, paths, link, sc)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, err := io.ReadAll(recv)
		if err != nil {
			t.Error(err)
		}
		got <- b
	}()
	for off := 0; off < len(data); off += 3000 { // writes of uneven size
		if _, err := snd.Write(data[off:min(len(data), off+3000)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := snd.Close(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		return b, snd.Stats(), recv.Stats()
	case <-time.After(20 * time.Second):
		t.Fatal("receiver did not reach the end of the stream")
	}
	return nil, SenderStats{}, ReceiverStats{}
}

func TestStreamOverLoopback(t *testing.T) {
	data := randomBytes(1, 300_000)
	got, ss, rs := transfer(t, Config{Session: 7, Seed: 1}, []Path{{ID: 0, RateBps: 200e6}}, func(l Link) Link { return l }, data)
	if !bytes.Equal(got, data) {
		t.Fatalf("received %d bytes, differ from the %d sent", len(got), len(data))
	}
	if rs.OtherSession != 0 || rs.Rejected != 0 || ss.BadAcks != 0 {
		t.Fatalf("unexpected rejections: sender %+v receiver %+v", ss, rs)
	}
	// the figures ff.shim.rlnc.v1 reports: the stream bytes decoded (the end-of-stream
	// packet carries none), both points at the end, the peer the receiver heard
	if ss.DecodedBytes != uint64(len(data)) || ss.Decoded != ss.Sent || ss.Seen != ss.Sent || ss.Sent != uint32(ss.NewPackets) {
		t.Errorf("sender figures: decoded %d bytes of %d, points sent %d seen %d decoded %d", ss.DecodedBytes, len(data), ss.Sent, ss.Seen, ss.Decoded)
	}
	if len(ss.Paths) != 1 || ss.Paths[0].RateBps != 200e6 || !rs.Peer.IsValid() {
		t.Errorf("paths in force %v, receiver's peer %v", ss.Paths, rs.Peer)
	}
}

// TestStreamThroughReorderingAndLoss: two paths with 1 and 15 ms of delay, rates 2:1,
// 5% loss. The stream arrives exact and in order; packets were reordered, repairs were
// needed, and the paths carried new packets 2:1.
func TestStreamThroughReorderingAndLoss(t *testing.T) {
	data := randomBytes(2, 400_000)
	var sl *shakyLink
	wrap := func(l Link) Link {
		sl = &shakyLink{Link: l, delay: map[uint16]time.Duration{1: time.Millisecond, 2: 15 * time.Millisecond}, loss: 0.05, rng: rand.New(rand.NewPCG(3, 3))}
		return sl
	}
	got, ss, rs := transfer(t, Config{Session: 9, Seed: 2, Window: 8}, []Path{{ID: 1, RateBps: 40e6}, {ID: 2, RateBps: 20e6}}, wrap, data)
	sl.wg.Wait()
	if !bytes.Equal(got, data) {
		t.Fatalf("received %d bytes, differ from the %d sent", len(got), len(data))
	}
	if rs.Inversions == 0 {
		t.Error("no packet arrived out of order: the test did not reorder")
	}
	if ss.RepairPackets == 0 {
		t.Error("5% loss needed no repair packet")
	}
	ratio := float64(ss.PathBytes[1]) / float64(ss.PathBytes[2])
	if ratio < 1.9 || ratio > 2.1 {
		t.Errorf("path bytes %v: ratio %.3f, want 2 (rates 40:20 Mbit/s)", ss.PathBytes, ratio)
	}
	t.Logf("sender %+v", ss)
	t.Logf("receiver %+v", rs)
}

// outageLink drops every datagram while down.
type outageLink struct {
	Link
	down atomic.Bool
}

func (l *outageLink) Send(path uint16, b []byte) error {
	if l.down.Load() {
		return nil
	}
	return l.Link.Send(path, b)
}

// TestStreamSurvivesOutages: the fabric drops everything five times, for 100 to 500 ms.
// The stream arrives whole and the repair timeout is back near the loopback's round trip:
// packets that were seen through a repair give no RTT sample (Karn), and the timeout has a
// ceiling. Before both, the RTO grew to seconds and the sender sat idle (a stall).
func TestStreamSurvivesOutages(t *testing.T) {
	data := randomBytes(5, 3_000_000)
	wrap := func(l Link) Link {
		ol := &outageLink{Link: l}
		go func() {
			for i := 1; i <= 5; i++ {
				time.Sleep(150 * time.Millisecond)
				ol.down.Store(true)
				time.Sleep(time.Duration(100*i) * time.Millisecond)
				ol.down.Store(false)
			}
		}()
		return ol
	}
	got, ss, _ := transfer(t, Config{Session: 11, Seed: 5}, []Path{{ID: 1, RateBps: 40e6}, {ID: 2, RateBps: 20e6}}, wrap, data)
	if !bytes.Equal(got, data) {
		t.Fatalf("received %d bytes, differ from the %d sent", len(got), len(data))
	}
	if ss.RepairPackets == 0 {
		t.Error("the outages needed no repair packet")
	}
	if ss.RTO > 100*time.Millisecond {
		t.Errorf("RTO %s after the outages, want near the loopback's round trip", ss.RTO)
	}
}

func TestConfigAndPathsRejected(t *testing.T) {
	c := udp(t)
	link := NewUDPLink(c, netip.MustParseAddrPort("127.0.0.1:9"))
	ok := []Path{{ID: 1, RateBps: 1e6}}
	for name, tc := range map[string]struct {
		cfg   Config
		paths []Path
	}{
		"window 17":        {Config{Window: 17}, ok},
		"capacity 100":     {Config{Capacity: 100}, ok},
		"symbol 2":         {Config{SymbolSize: 2}, ok},
		"no paths":         {Config{}, nil},
		"5 paths":          {Config{}, []Path{{1, 1e6}, {2, 1e6}, {3, 1e6}, {4, 1e6}, {5, 1e6}}},
		"duplicate path":   {Config{}, []Path{{1, 1e6}, {1, 1e6}}},
		"path 0 with more": {Config{}, []Path{{0, 1e6}, {1, 1e6}}},
		"vid 4095":         {Config{}, []Path{{4095, 1e6}}},
		"rate 0":           {Config{}, []Path{{1, 0}}},
		"max rto < min":    {Config{MinRTO: time.Second, MaxRTO: time.Millisecond}, ok},
	} {
		if s, err := NewSender(tc.cfg, tc.paths, link, c); err == nil {
			s.Close(time.Second)
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestPacerSplitsInProportion(t *testing.T) {
	now := time.Unix(0, 0)
	p := newPacer([]Path{{1, 30e6}, {2, 10e6}, {3, 20e6}}, 0, now)
	count := map[uint16]int{}
	for i := 0; i < 6000; i++ {
		idx, wait := p.pick(now)
		now = now.Add(wait)
		p.sent(idx, 1000, now, true)
		count[p.paths[idx].ID]++
	}
	if count[1] < 2990 || count[1] > 3010 || count[2] < 990 || count[2] > 1010 || count[3] < 1990 || count[3] > 2010 {
		t.Fatalf("split %v, want 3000/1000/2000", count)
	}
	// 6000 packets of 1000 bytes at 60 Mbit/s take 0.8 s.
	if d := now.Sub(time.Unix(0, 0)); d < 790*time.Millisecond || d > 810*time.Millisecond {
		t.Fatalf("paced to %s, want 800ms", d)
	}
}

// TestFrameBytesCountTheFabricFrame: the pacer charges what the links carry, in the
// allocation's unit (a 1500-byte IP packet is 1538 bytes on a fabric link when pinned).
func TestFrameBytesCountTheFabricFrame(t *testing.T) {
	for _, c := range []struct {
		datagram int
		path     uint16
		want     int
	}{
		{1472, 1, 1538}, // a full packet, pinned: Ethernet + 802.1Q + fabric header
		{1472, 0, 1514}, // unpinned: no tag, and the plain network it is meant for has no fabric header
		{1058, 4, 1124}, // a 1 KB symbol's coded datagram (window 8)
	} {
		if got := frameBytes(c.datagram, c.path); got != c.want {
			t.Errorf("frameBytes(%d, path %d) = %d, want %d", c.datagram, c.path, got, c.want)
		}
	}
}

// TestPacerKeepsDebtWhileBacklogged: every wake-up is 3 ms late (a loaded machine);
// a backlogged sender still averages its rate, while after an idle spell a path saves
// only one burst.
func TestPacerKeepsDebtWhileBacklogged(t *testing.T) {
	const late = 3 * time.Millisecond
	for _, c := range []struct {
		backlogged bool
		min, max   time.Duration
	}{
		{true, 770 * time.Millisecond, 815 * time.Millisecond}, // 0.8 s (less the last burst), as if on time
		{false, 1000 * time.Millisecond, 5 * time.Second},      // credit lost at every late wake-up
	} {
		now := time.Unix(0, 0)
		p := newPacer([]Path{{1, 40e6}, {2, 20e6}}, time.Millisecond, now)
		for i := 0; i < 6000; i++ {
			idx, wait := p.pick(now)
			if wait > 0 {
				now = now.Add(wait + late)
			}
			p.sent(idx, 1000, now, c.backlogged)
		}
		if d := now.Sub(time.Unix(0, 0)); d < c.min || d > c.max {
			t.Errorf("backlogged=%v: 6000 packets took %s, want %s..%s", c.backlogged, d, c.min, c.max)
		}
	}
	// Idle: a session that sat unused for 100 s may still run only 1 ms ahead.
	p := newPacer([]Path{{1, 8e6}}, time.Millisecond, time.Unix(0, 0))
	now := time.Unix(100, 0)
	p.sent(0, 1000, now, false) // 1 ms of serialisation at 8 Mbit/s
	if _, wait := p.pick(now); wait != 0 {
		t.Fatalf("second packet waits %s, want 0 (within the burst)", wait)
	}
	p.sent(0, 1000, now, true)
	p.sent(0, 1000, now, true)
	if _, wait := p.pick(now); wait != time.Millisecond {
		t.Fatalf("fourth packet waits %s, want 1ms (2 ms sent, 1 ms burst)", wait)
	}
}

// TestCloseGivesUpWithoutReceiver: nobody acknowledges, flow control fills, and Close
// still returns (with an error) after its timeout.
func TestCloseGivesUpWithoutReceiver(t *testing.T) {
	c := udp(t)
	s, err := NewSender(Config{Session: 1, Capacity: 16}, []Path{{ID: 0, RateBps: 100e6}}, NewUDPLink(c, netip.MustParseAddrPort("127.0.0.1:9")), c)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.Write(make([]byte, 16*1022)); done <- err }() // exactly fills the window
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := s.Close(200 * time.Millisecond); err == nil {
		t.Fatal("Close reported success with no receiver")
	}
	if _, err := s.Write([]byte("x")); err != ErrClosed {
		t.Fatalf("write after close: %v", err)
	}
}

// TestReceiverSurvivesJunkAndOtherSessions: malformed datagrams, other versions and
// another session's packets arrive amid the stream; they are counted, not
// acknowledged, and the stream is unaffected.
func TestReceiverSurvivesJunkAndOtherSessions(t *testing.T) {
	rc, sc, jc := udp(t), udp(t), udp(t)
	cfg := Config{Session: 11, Seed: 4}
	recv, err := NewReceiver(cfg, rc)
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	dst := rc.LocalAddr().(*net.UDPAddr)
	other, _ := (&coding.Packet{Session: 12, Coeffs: []byte{1}, Payload: make([]byte, 1024)}).AppendTo(nil)
	v2 := append([]byte(nil), other...)
	v2[0] = 2
	junk := [][]byte{{}, {1}, {1, 1, 0}, []byte("not an rlnc packet at all"), other, v2, make([]byte, 1040)}
	for _, j := range junk {
		if _, err := jc.WriteToUDP(j, dst); err != nil {
			t.Fatal(err)
		}
	}
	data := randomBytes(5, 100_000)
	snd, err := NewSender(cfg, []Path{{ID: 0, RateBps: 100e6}}, NewUDPLink(sc, dst.AddrPort()), sc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snd.Write(data); err != nil {
		t.Fatal(err)
	}
	for _, j := range junk {
		_, _ = jc.WriteToUDP(j, dst)
	}
	if err := snd.Close(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(recv)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("stream damaged by junk: %d bytes, err %v", len(got), err)
	}
	st := recv.Stats()
	if st.OtherSession != 2 || st.Rejected != 2*uint64(len(junk)-1) {
		t.Errorf("counted other-session %d (want 2), rejected %d (want %d)", st.OtherSession, st.Rejected, 2*(len(junk)-1))
	}
	_ = jc.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, _, err := jc.ReadFromUDP(make([]byte, 100)); err == nil {
		t.Errorf("junk was acknowledged (%d bytes back)", n)
	}
}
