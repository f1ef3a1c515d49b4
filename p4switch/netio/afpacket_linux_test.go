package netio

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// opens are the two ways to open a port: for Go's netpoller and for an
// event loop of the caller's (whose blocking calls poll with a timeout).
var opens = []struct {
	name string
	open func(string) (*AFPacket, error)
}{{"netpoller", OpenAFPacket}, {"pollable", OpenAFPacketPollable}}

// openPorts opens AF_PACKET ports on both ends of a veth pair, closed when the test ends.
func openPorts(t *testing.T, a, b string) (*AFPacket, *AFPacket) {
	return openPortsWith(t, OpenAFPacket, a, b)
}

func openPortsWith(t *testing.T, open func(string) (*AFPacket, error), a, b string) (*AFPacket, *AFPacket) {
	t.Helper()
	var ports [2]*AFPacket
	for i, name := range []string{a, b} {
		p, err := open(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		ports[i] = p
	}
	return ports[0], ports[1]
}

// vethPair creates a veth pair for the test and removes it afterwards.
func vethPair(t *testing.T) (string, string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("this test needs root (it creates a veth pair)")
	}
	a, b := fmt.Sprintf("prn%da", os.Getpid()%100000), fmt.Sprintf("prn%db", os.Getpid()%100000)
	run := func(args ...string) {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v\n%s", args, err, out)
		}
	}
	run("link", "add", a, "type", "veth", "peer", "name", b)
	t.Cleanup(func() { exec.Command("ip", "link", "del", a).Run() })
	run("link", "set", a, "up")
	run("link", "set", b, "up")
	for _, n := range []string{a, b} { // no IPv6 chatter on the test link
		os.WriteFile("/proc/sys/net/ipv6/conf/"+n+"/disable_ipv6", []byte("1"), 0o644)
	}
	return a, b
}

func frame(i int) []byte {
	f := make([]byte, 60)
	copy(f, []byte{0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x88, 0xb5})
	f[20] = byte(i)
	return f
}

// isTestFrame tells whether f carries the test's EtherType, after any VLAN tags.
func isTestFrame(f []byte) bool {
	off := 12
	for len(f) > off+1 && (f[off] == 0x81 && f[off+1] == 0x00 || f[off] == 0x88 && f[off+1] == 0xa8) {
		off += 4
	}
	return len(f) > off+1 && f[off] == 0x88 && f[off+1] == 0xb5
}

// readFrames reads until n frames of the test's EtherType arrived or 2s passed.
func readFrames(t *testing.T, p Port, n int) [][]byte {
	t.Helper()
	got := make(chan [][]byte, 1)
	go func() {
		var out [][]byte
		bufs := make([][]byte, Batch)
		for i := range bufs {
			bufs[i] = make([]byte, MaxFrame)
		}
		lens := make([]int, Batch)
		for len(out) < n {
			k, err := p.ReadBatch(bufs, lens)
			if err != nil {
				break
			}
			for i := 0; i < k; i++ {
				if f := bufs[i][:lens[i]]; isTestFrame(f) {
					out = append(out, append([]byte(nil), f...))
				}
			}
		}
		got <- out
	}()
	select {
	case out := <-got:
		return out
	case <-time.After(2 * time.Second):
		p.Close()
		return <-got
	}
}

func TestAFPacketBatchesAndIgnoresOwnFrames(t *testing.T) {
	for _, o := range opens {
		t.Run(o.name, func(t *testing.T) { testBatchesAndIgnoresOwnFrames(t, o.open) })
	}
}

func testBatchesAndIgnoresOwnFrames(t *testing.T, open func(string) (*AFPacket, error)) {
	a, b := vethPair(t)
	pa, err := open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer pa.Close()
	pb, err := open(b)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]byte
	for i := 0; i < 100; i++ { // more than one batch
		frames = append(frames, frame(i))
	}
	frames = append(frames, nil) // empty frames are skipped, not sent
	if err := pb.WriteBatch(frames); err != nil {
		t.Fatal(err)
	}
	got := readFrames(t, pa, 100)
	if len(got) != 100 {
		t.Fatalf("received %d frames, want 100", len(got))
	}
	for i, f := range got {
		if !bytes.Equal(f, frame(i)) {
			t.Fatalf("frame %d = %x, want %x", i, f, frame(i))
		}
	}
	// The sender must not read back its own transmissions.
	pb.WriteBatch([][]byte{frame(200)})
	go func() { time.Sleep(300 * time.Millisecond); pb.Close() }()
	if own := readFrames(t, pb, 1); len(own) != 0 {
		t.Fatalf("sender read back %d of its own frames", len(own))
	}
}

func TestOpenMissingInterface(t *testing.T) {
	if _, err := OpenAFPacket("prnosuchif0"); err == nil {
		t.Fatal("opened a missing interface")
	}
}

// tagged returns frame(i) with VLAN tags (tpid, tci pairs) after the MAC addresses.
func tagged(i int, tags ...uint16) []byte {
	f := frame(i)
	var tagBytes []byte
	for k := 0; k+1 < len(tags); k += 2 {
		tagBytes = append(tagBytes, byte(tags[k]>>8), byte(tags[k]), byte(tags[k+1]>>8), byte(tags[k+1]))
	}
	return append(append(append([]byte(nil), f[:12]...), tagBytes...), f[12:]...)
}

// The kernel strips the outer VLAN tag of a received frame into the packet's
// metadata; the port must put it back so the pipeline sees the frame as sent.
func TestAFPacketKeepsVLANTags(t *testing.T) {
	a, b := vethPair(t)
	pa, pb := openPorts(t, a, b)
	frames := [][]byte{
		tagged(1, 0x8100, 42),             // 802.1Q, VID 42
		frame(2),                          // untagged stays untagged
		tagged(3, 0x8100, 0xe000|4094),    // PCP 7, VID 4094
		tagged(4, 0x88a8, 100, 0x8100, 7), // QinQ: 802.1ad outer, 802.1Q inner
		tagged(5, 0x8100, 0),              // priority tag (VID 0)
	}
	if err := pb.WriteBatch(frames); err != nil {
		t.Fatal(err)
	}
	got := readFrames(t, pa, len(frames))
	if len(got) != len(frames) {
		t.Fatalf("received %d frames, want %d", len(got), len(frames))
	}
	for i, f := range got {
		if !bytes.Equal(f, frames[i]) {
			t.Errorf("frame %d = %x, want %x", i, f, frames[i])
		}
	}
}

// One goroutine can wait for a port while another polls it without blocking.
func TestAFPacketWaitAndTryRead(t *testing.T) {
	for _, o := range opens {
		t.Run(o.name, func(t *testing.T) { testWaitAndTryRead(t, o.open) })
	}
}

func testWaitAndTryRead(t *testing.T, open func(string) (*AFPacket, error)) {
	a, b := vethPair(t)
	pa, pb := openPortsWith(t, open, a, b)
	bufs, lens := [][]byte{make([]byte, MaxFrame)}, []int{0}
	// tryTest reads until it finds a test frame or the port is empty.
	tryTest := func() []byte {
		for {
			n, err := pa.TryReadBatch(bufs, lens)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				return nil
			}
			if f := bufs[0][:lens[0]]; isTestFrame(f) {
				return append([]byte(nil), f...)
			}
		}
	}
	if f := tryTest(); f != nil {
		t.Fatalf("read %x from an idle port", f)
	}
	woke := make(chan error, 1)
	go func() { woke <- pa.WaitReadable() }()
	// The waiter holds the port's read lock; polling must not block on it.
	if f := tryTest(); f != nil {
		t.Fatalf("read %x from an idle port", f)
	}
	if err := pb.WriteBatch([][]byte{frame(9)}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-woke:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("WaitReadable did not return when a frame arrived")
	}
	if f := tryTest(); !bytes.Equal(f, frame(9)) {
		t.Fatalf("read %x, want %x", f, frame(9))
	}
	// Close ends a wait (stray frames may end one earlier: wait again).
	go func() {
		for {
			if err := pa.WaitReadable(); err != nil {
				woke <- err
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	time.Sleep(50 * time.Millisecond)
	pa.Close()
	select {
	case <-woke:
	case <-time.After(2 * time.Second):
		t.Fatal("Close did not end WaitReadable")
	}
}

// A link that goes down and comes back up keeps its port: the socket reports
// ENETDOWN once, which is not a reason to stop receiving.
func TestAFPacketSurvivesLinkDownAndUp(t *testing.T) {
	for _, o := range opens {
		t.Run(o.name, func(t *testing.T) { testSurvivesLinkDownAndUp(t, o.open) })
	}
}

func testSurvivesLinkDownAndUp(t *testing.T, open func(string) (*AFPacket, error)) {
	a, b := vethPair(t)
	pa, pb := openPortsWith(t, open, a, b)
	if err := exec.Command("ip", "link", "set", a, "down").Run(); err != nil {
		t.Fatal(err)
	}
	// A write on the down side neither fails nor hangs past the outage (the
	// kernel drops the frame, or refuses it with ENOBUFS until the link is
	// back; then WriteBatch retries every millisecond instead of spinning).
	wrote := make(chan error, 1)
	if pa.conn == nil {
		go func() { wrote <- pa.WriteBatch([][]byte{frame(8)}) }()
	}
	bufs, lens := [][]byte{make([]byte, MaxFrame)}, []int{0}
	if _, err := pa.TryReadBatch(bufs, lens); err != nil {
		t.Fatalf("read on a link that went down: %v", err)
	}
	if pa.LinkDowns() == 0 {
		t.Fatal("the link going down was not noticed")
	}
	for _, n := range []string{a, b} {
		if err := exec.Command("ip", "link", "set", n, "up").Run(); err != nil {
			t.Fatal(err)
		}
	}
	// Wait for carrier, then frames flow again.
	deadline := time.Now().Add(5 * time.Second)
	for {
		if out, _ := os.ReadFile("/sys/class/net/" + a + "/carrier"); bytes.HasPrefix(out, []byte("1")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no carrier after the link came back up")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := pb.WriteBatch([][]byte{frame(7)}); err != nil {
		t.Fatal(err)
	}
	if got := readFrames(t, pa, 1); len(got) != 1 || !bytes.Equal(got[0], frame(7)) {
		t.Fatalf("after the link came back up: got %d frames", len(got))
	}
	if pa.conn == nil {
		select {
		case err := <-wrote:
			if err != nil {
				t.Fatalf("the write held over the outage: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the write held over the outage did not finish after the link came back")
		}
	}
}

// Frames too big for a receive-ring slot (jumbo frames) arrive whole and in
// order among normal ones.
func TestAFPacketJumboFrames(t *testing.T) {
	a, b := vethPair(t)
	for _, n := range []string{a, b} {
		if out, err := exec.Command("ip", "link", "set", n, "mtu", "9000").CombinedOutput(); err != nil {
			t.Fatalf("mtu: %v %s", err, out)
		}
	}
	pa, pb := openPorts(t, a, b)
	var frames [][]byte
	for i := 0; i < 6; i++ {
		f := frame(i)
		if i%2 == 1 {
			f = append(f, make([]byte, 8000)...)
			f[len(f)-1] = byte(i)
		}
		frames = append(frames, f)
	}
	if err := pb.WriteBatch(frames); err != nil {
		t.Fatal(err)
	}
	got := readFrames(t, pa, len(frames))
	if len(got) != len(frames) {
		t.Fatalf("received %d frames, want %d", len(got), len(frames))
	}
	for i := range frames {
		if !bytes.Equal(got[i], frames[i]) {
			t.Fatalf("frame %d: %d bytes, want %d", i, len(got[i]), len(frames[i]))
		}
	}
}

// A pollable port's descriptor is readable exactly while a frame waits in
// its ring (what a switch's epoll loop relies on), and TryWriteBatch sends
// without blocking.
func TestAFPacketPollableFd(t *testing.T) {
	a, b := vethPair(t)
	pa, pb := openPortsWith(t, OpenAFPacketPollable, a, b)
	readable := func() bool {
		fds := []unix.PollFd{{Fd: int32(pa.Fd()), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		if err != nil {
			t.Fatal(err)
		}
		return n == 1 && fds[0].Revents&unix.POLLIN != 0
	}
	bufs, lens := make([][]byte, Batch), make([]int, Batch)
	for i := range bufs {
		bufs[i] = make([]byte, MaxFrame)
	}
	drain := func() (test int) {
		for {
			n, err := pa.TryReadBatch(bufs, lens)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				return test
			}
			for i := 0; i < n; i++ {
				if isTestFrame(bufs[i][:lens[i]]) {
					test++
				}
			}
		}
	}
	drain()
	if readable() {
		t.Fatal("readable with an empty ring")
	}
	frames := [][]byte{frame(1), nil, frame(2), frame(3)}
	if n, err := pb.TryWriteBatch(frames); err != nil || n != len(frames) {
		t.Fatalf("TryWriteBatch took %d of %d frames, err %v", n, len(frames), err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for !readable() {
		if time.Now().After(deadline) {
			t.Fatal("not readable after frames arrived")
		}
		time.Sleep(time.Millisecond)
	}
	if got := drain(); got != 3 {
		t.Fatalf("read %d test frames, want 3", got)
	}
	if readable() {
		t.Fatal("still readable after the ring was read")
	}
	pa.Close()
	if _, err := pa.TryWriteBatch([][]byte{frame(4)}); err != ErrClosed {
		t.Fatalf("TryWriteBatch on a closed port: %v", err)
	}
}
