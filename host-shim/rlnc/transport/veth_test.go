package transport

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"
)

// TestTwoPathsOverVeth sends a byte stream from namespace A to namespace B through
// namespace S, where a two-path switch forwards by 802.1Q VID: path 1 after 2 ms,
// path 2 after 20 ms (the kernel has no netem, so the switch is a user-space relay over
// AF_PACKET sockets; it pops the tag like the last-hop switch of the contract). Real
// frames, real veths, real sockets. Run as root inside /work/isolated.
func TestTwoPathsOverVeth(t *testing.T) {
	rig := newVethRig(t, map[uint16]time.Duration{1: 2 * time.Millisecond, 2: 20 * time.Millisecond})
	sw, link, sc, rc := rig.sw, rig.link, rig.sc, rig.rc

	cfg := Config{Session: 42, Window: 8, Seed: 5}
	recv, err := NewReceiver(cfg, rc)
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	paths := []Path{{ID: 1, RateBps: 40e6}, {ID: 2, RateBps: 20e6}}
	snd, err := NewSender(cfg, paths, link, sc)
	if err != nil {
		t.Fatal(err)
	}
	data := randomBytes(9, 1_500_000)
	got := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(recv); got <- b }()
	if _, err := snd.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := snd.Close(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	var b []byte
	select {
	case b = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("receiver did not reach the end of the stream")
	}
	sw.stop()
	ss, rs := snd.Stats(), recv.Stats()
	t.Logf("sender: %+v", ss)
	t.Logf("receiver: %+v", rs)
	t.Logf("switch frames by VID (0 = untagged): %v", sw.frames())
	if !bytes.Equal(b, data) {
		t.Fatalf("received %d bytes that differ from the %d sent", len(b), len(data))
	}
	if rs.Inversions == 0 {
		t.Error("no coded packet arrived out of order: the paths did not reorder")
	}
	fr := sw.frames()
	// A veth may drop under load (the code repairs it), so the switch may see a little less.
	if fr[1] < ss.PathPackets[1]*9/10 || fr[2] < ss.PathPackets[2]*9/10 {
		t.Errorf("switch saw VID 1: %d, VID 2: %d frames; sender sent %v", fr[1], fr[2], ss.PathPackets)
	}
	if ratio := float64(fr[1]) / float64(fr[2]); ratio < 1.8 || ratio > 2.2 {
		t.Errorf("frames on VID 1 / VID 2 = %.3f, want 2 (rates 40:20 Mbit/s)", ratio)
	}
	if rs.PathPackets[1] == 0 || rs.PathPackets[2] == 0 || rs.Rejected != 0 {
		t.Errorf("receiver by path id: %v, rejected %d", rs.PathPackets, rs.Rejected)
	}
}

// vethRig is namespace A (the sender, socket sc, link) → namespace S (a relay that
// delays each VID by its own delay) → namespace B (the receiver's socket rc).
type vethRig struct {
	sw     *relay
	link   *TaggedLink
	sc, rc *net.UDPConn
}

// newVethRig builds the rig; everything it made is removed when the test ends.
func newVethRig(t *testing.T, delays map[uint16]time.Duration) *vethRig {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root (network namespaces)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("needs iproute2")
	}
	tok := make([]byte, 3)
	_, _ = rand.Read(tok)
	name := "rl" + hex.EncodeToString(tok)
	nsA, nsS, nsB := name+"a", name+"s", name+"b"
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v: %s", args, err, out)
		}
	}
	for _, ns := range []string{nsA, nsS, nsB} {
		ip("netns", "add", ns)
		t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
		ip("-n", ns, "link", "set", "lo", "up")
	}
	a0, sa, sb, b0 := name+"a0", name+"sa", name+"sb", name+"b0"
	ip("link", "add", a0, "netns", nsA, "type", "veth", "peer", "name", sa, "netns", nsS)
	ip("link", "add", b0, "netns", nsB, "type", "veth", "peer", "name", sb, "netns", nsS)
	ip("-n", nsA, "addr", "add", "10.77.0.1/24", "dev", a0)
	ip("-n", nsB, "addr", "add", "10.77.0.2/24", "dev", b0)
	for _, x := range [][2]string{{nsA, a0}, {nsS, sa}, {nsS, sb}, {nsB, b0}} {
		ip("-n", x[0], "link", "set", x[1], "up")
	}

	sw := startRelay(t, nsS, sa, sb, delays)
	t.Cleanup(sw.stop)

	src := netip.MustParseAddrPort("10.77.0.1:7001")
	dst := netip.MustParseAddrPort("10.77.0.2:7000")
	var rc, sc *net.UDPConn
	var link *TaggedLink
	inNetns(t, nsB, func() error {
		var err error
		rc, err = net.ListenUDP("udp4", net.UDPAddrFromAddrPort(dst))
		if err == nil {
			err = rc.SetReadBuffer(4 << 20)
		}
		return err
	})
	t.Cleanup(func() { rc.Close() })
	inNetns(t, nsA, func() error {
		var err error
		if sc, err = net.ListenUDP("udp4", net.UDPAddrFromAddrPort(src)); err != nil {
			return err
		}
		link, err = NewTaggedLink(a0, src, dst, nil, sc)
		return err
	})
	t.Cleanup(func() { sc.Close() })
	t.Cleanup(func() { link.Close() })
	return &vethRig{sw: sw, link: link, sc: sc, rc: rc}
}

// inNetns runs f on a thread switched into namespace name (sockets made there stay there).
func inNetns(t *testing.T, name string, f func() error) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	orig, err := netns.Get()
	if err != nil {
		t.Fatal(err)
	}
	defer orig.Close()
	h, err := netns.GetFromName(name)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := netns.Set(h); err != nil {
		t.Fatal(err)
	}
	err = f()
	if e := netns.Set(orig); e != nil {
		t.Fatalf("back to the test's namespace: %v", e)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// relay is the test's two-path switch: frames from port in leave by port out after
// the delay of their VID (tag popped); frames from out go back to in at once.
type relay struct {
	in, out int // AF_PACKET sockets
	inIdx   int
	outIdx  int
	quit    atomic.Bool
	wg      sync.WaitGroup
	mu      sync.Mutex
	count   map[uint16]uint64
	once    sync.Once
}

func startRelay(t *testing.T, ns, in, out string, delay map[uint16]time.Duration) *relay {
	r := &relay{count: map[uint16]uint64{}}
	inNetns(t, ns, func() error {
		var err error
		if r.in, r.inIdx, err = packetSocket(in); err != nil {
			return err
		}
		r.out, r.outIdx, err = packetSocket(out)
		return err
	})
	type held struct {
		frame []byte
		due   time.Time
	}
	lines := map[uint16]chan held{}
	for vid := range delay {
		ch := make(chan held, 100000)
		lines[vid] = ch
		r.wg.Add(1)
		go func() { // one FIFO delay line per path
			defer r.wg.Done()
			for h := range ch {
				time.Sleep(time.Until(h.due))
				r.send(r.out, r.outIdx, h.frame)
			}
		}()
	}
	r.wg.Add(2)
	go func() {
		defer r.wg.Done()
		defer func() {
			for _, ch := range lines {
				close(ch)
			}
		}()
		r.pump(r.in, func(vid uint16, f []byte) {
			r.mu.Lock()
			r.count[vid]++
			r.mu.Unlock()
			if ch, ok := lines[vid]; ok {
				ch <- held{append([]byte(nil), f...), time.Now().Add(delay[vid])}
			} else if vid == 0 {
				r.send(r.out, r.outIdx, f)
			}
		})
	}()
	go func() {
		defer r.wg.Done()
		r.pump(r.out, func(_ uint16, f []byte) { r.send(r.in, r.inIdx, f) })
	}()
	return r
}

func packetSocket(dev string) (int, int, error) {
	ifi, err := net.InterfaceByName(dev)
	if err != nil {
		return 0, 0, err
	}
	proto := int(htons(unix.ETH_P_ALL))
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, proto)
	if err != nil {
		return 0, 0, err
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifi.Index}); err != nil {
		return 0, 0, err
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_AUXDATA, 1); err != nil {
		return 0, 0, err
	}
	tv := unix.NsecToTimeval((50 * time.Millisecond).Nanoseconds())
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		return 0, 0, err
	}
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, 8<<20)
	return fd, ifi.Index, nil
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// pump reads incoming frames from fd and hands them over with their VID, tag removed.
func (r *relay) pump(fd int, fn func(vid uint16, frame []byte)) {
	buf := make([]byte, 65536)
	oob := make([]byte, 256)
	for !r.quit.Load() {
		n, oobn, _, from, err := unix.Recvmsg(fd, buf, oob, 0)
		if err != nil {
			continue // timeout: check quit
		}
		if ll, ok := from.(*unix.SockaddrLinklayer); ok && ll.Pkttype == unix.PACKET_OUTGOING {
			continue
		}
		f := buf[:n]
		var vid uint16
		csumNotReady := false
		msgs, _ := unix.ParseSocketControlMessage(oob[:oobn])
		for _, m := range msgs {
			if m.Header.Level == unix.SOL_PACKET && m.Header.Type == unix.PACKET_AUXDATA && len(m.Data) >= int(unsafe.Sizeof(unix.TpacketAuxdata{})) {
				aux := (*unix.TpacketAuxdata)(unsafe.Pointer(&m.Data[0]))
				if aux.Status&unix.TP_STATUS_VLAN_VALID != 0 {
					vid = aux.Vlan_tci & 0x0fff
				}
				csumNotReady = aux.Status&unix.TP_STATUS_CSUMNOTREADY != 0
			}
		}
		if vid == 0 && len(f) >= 18 && binary.BigEndian.Uint16(f[12:]) == unix.ETH_P_8021Q { // tag still in the frame
			vid = binary.BigEndian.Uint16(f[14:]) & 0x0fff
			f = append(f[:12:12], f[16:]...)
		}
		if csumNotReady {
			fillUDPChecksum(f)
		}
		fn(vid, f)
	}
}

// fillUDPChecksum completes the checksum of an untagged IPv4/UDP frame that a sender
// left to offload (veth passes such frames on unchecksummed; a relay must finish them).
func fillUDPChecksum(f []byte) {
	if len(f) < 14+20+8 || binary.BigEndian.Uint16(f[12:]) != unix.ETH_P_IP || f[14+9] != unix.IPPROTO_UDP {
		return
	}
	ihl := int(f[14]&0x0f) * 4
	udp := f[14+ihl:]
	l := int(binary.BigEndian.Uint16(udp[4:]))
	if l < 8 || l > len(udp) {
		return
	}
	src, dst := f[14+12:14+16], f[14+16:14+20]
	pseudo := uint32(binary.BigEndian.Uint16(src)) + uint32(binary.BigEndian.Uint16(src[2:])) +
		uint32(binary.BigEndian.Uint16(dst)) + uint32(binary.BigEndian.Uint16(dst[2:])) + unix.IPPROTO_UDP + uint32(l)
	udp[6], udp[7] = 0, 0
	c := checksum(udp[:l], pseudo)
	if c == 0 {
		c = 0xffff
	}
	binary.BigEndian.PutUint16(udp[6:], c)
}

func (r *relay) send(fd, idx int, f []byte) {
	_ = unix.Sendto(fd, f, 0, &unix.SockaddrLinklayer{Ifindex: idx, Halen: 6})
}

func (r *relay) frames() map[uint16]uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := map[uint16]uint64{}
	for k, v := range r.count {
		c[k] = v
	}
	return c
}

func (r *relay) stop() {
	r.once.Do(func() {
		r.quit.Store(true)
		r.wg.Wait()
		unix.Close(r.in)
		unix.Close(r.out)
	})
}
