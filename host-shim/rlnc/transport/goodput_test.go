package transport

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/coding"
)

// TestGoodputOverFourPaths is the measurement behind `./fairfabric bench rlnc`
// (RLNC_GOODPUT=1): one session over four paths of equal rate and one-way delays 0, 2, 5
// and 10 ms (Promenade's Table 2 setting, the promenade-rlnc experiment's paths) sends
// RLNC_GOODPUT_BYTES (default 6 MB) and reports, against the allocation,
//   - the sending rate: the coded datagrams' bytes on the fabric's links (frameBytes) per
//     second of sending, which the pacer holds to the allocation;
//   - the goodput: stream bytes per second until the receiver delivered the last byte,
//     which the headers bound at (symbol-2)/frameBytes(symbol+16+window) of the allocation.
func TestGoodputOverFourPaths(t *testing.T) {
	if os.Getenv("RLNC_GOODPUT") == "" {
		t.Skip("a measurement: RLNC_GOODPUT=1 (./fairfabric bench rlnc)")
	}
	total := 10e6
	if v := os.Getenv("RLNC_GOODPUT_BPS"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			t.Fatalf("RLNC_GOODPUT_BPS=%q: want a positive number", v)
		}
		total = f
	}
	size := 6_000_000
	if v := os.Getenv("RLNC_GOODPUT_BYTES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("RLNC_GOODPUT_BYTES=%q: want a positive integer", v)
		}
		size = n
	}
	delays := map[uint16]time.Duration{1: 0, 2: 2 * time.Millisecond, 3: 5 * time.Millisecond, 4: 10 * time.Millisecond}
	rig := newVethRig(t, delays)
	cfg := Config{Session: 7, SymbolSize: 1024, Window: 8, Seed: 3}
	recv, err := NewReceiver(cfg, rig.rc)
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	var paths []Path
	for id := uint16(1); id <= 4; id++ {
		paths = append(paths, Path{ID: id, RateBps: uint64(total / 4)})
	}
	data := randomBytes(11, size)
	got := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(recv); got <- b }()
	start := time.Now()
	snd, err := NewSender(cfg, paths, rig.link, rig.sc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snd.Write(data); err != nil {
		t.Fatal(err)
	}
	written := time.Since(start)
	if err := snd.Close(60 * time.Second); err != nil {
		t.Fatal(err)
	}
	b := <-got
	elapsed := time.Since(start)
	if !bytes.Equal(b, data) {
		t.Fatalf("received %d bytes that differ from the %d sent", len(b), len(data))
	}
	ss, rs := snd.Stats(), recv.Stats()
	var wire uint64
	for _, n := range ss.PathBytes {
		wire += n
	}
	wire += uint64(frameBytes(0, 1)) * (ss.NewPackets + ss.RepairPackets) // the headers, as the pacer counts
	sendRate := float64(wire*8) / elapsed.Seconds()
	goodput := float64(size*8) / elapsed.Seconds()
	bound := float64(cfg.SymbolSize-2) / float64(frameBytes(cfg.SymbolSize+coding.HeaderLen+cfg.Window, 1))
	t.Logf("allocation %.2f Mbit/s over 4 paths (one-way 0/2/5/10 ms), %d bytes: written in %.3f s, delivered in %.3f s",
		total/1e6, size, written.Seconds(), elapsed.Seconds())
	t.Logf("sending rate %.2f Mbit/s = %.3f of the allocation; goodput %.2f Mbit/s = %.3f of the allocation (header bound %.3f)",
		sendRate/1e6, sendRate/total, goodput/1e6, goodput/total, bound)
	t.Logf("sender: new %d, repair %d, acks %d, RTO %s; receiver: inversions %d, dependent %d",
		ss.NewPackets, ss.RepairPackets, ss.Acks, ss.RTO, rs.Inversions, rs.Dependent)
}
