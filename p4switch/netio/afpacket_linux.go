package netio

import (
	"fmt"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mmsghdr is struct mmsghdr from <sys/socket.h>.
type mmsghdr struct {
	hdr unix.Msghdr
	n   uint32
	_   [4]byte
}

// packetIgnoreOutgoing is PACKET_IGNORE_OUTGOING (Linux 4.20).
const packetIgnoreOutgoing = 23

// AFPacket is a port on a Linux interface through an AF_PACKET socket in
// promiscuous mode. Frames the host itself sends on the interface (including
// the switch's own transmissions) are not delivered back. Frames are
// received through a memory-mapped ring (no system call per batch) and sent
// in batches with sendmmsg.
//
// OpenAFPacket registers the socket with Go's netpoller (blocking calls park
// the goroutine). OpenAFPacketPollable leaves it out: its events would wake
// the runtime's netpoller at every frame received and every skb freed after
// a send, while the switch's own event loop waits on Fd (netio.Pollable).
type AFPacket struct {
	name string
	fd   int
	file *os.File        // nil for a pollable port
	conn syscall.RawConn // nil for a pollable port

	mu        sync.RWMutex // Close holds it to unmap the ring; readers share it
	closed    bool
	ring      *rxRing
	errChecks time.Time // when SO_ERROR was last read (link state)

	rxMsgs  []mmsghdr
	rxIovs  []unix.Iovec
	rxNames []unix.RawSockaddrLinklayer
	rxCtrl  []byte // one PACKET_AUXDATA control buffer per message

	txMsgs []mmsghdr
	txIovs []unix.Iovec

	txDrops   atomic.Uint64
	linkDowns atomic.Uint64
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// OpenAFPacket opens interface ifname, for goroutines that block on it.
func OpenAFPacket(ifname string) (*AFPacket, error) { return openAFPacket(ifname, false) }

// OpenAFPacketPollable opens interface ifname for an event loop of the
// caller's (Fd, TryReadBatch, TryWriteBatch); the blocking calls still work,
// polling with a timeout.
func OpenAFPacketPollable(ifname string) (*AFPacket, error) { return openAFPacket(ifname, true) }

func openAFPacket(ifname string, pollable bool) (*AFPacket, error) {
	iface, err := net.InterfaceByName(ifname)
	if err != nil {
		return nil, fmt.Errorf("interface %s: %v", ifname, err)
	}
	// Protocol 0: the socket receives nothing until it is bound to the
	// interface, so no frame of another interface slips in.
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("AF_PACKET socket for %s: %v", ifname, err)
	}
	var ring *rxRing
	fail := func(what string, err error) (*AFPacket, error) {
		if ring != nil {
			ring.close()
		}
		unix.Close(fd)
		return nil, fmt.Errorf("%s on %s: %v", what, ifname, err)
	}
	// Ignore our own (and the host's) outgoing frames before binding, so no
	// copy of a frame we send is ever read back.
	if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, packetIgnoreOutgoing, 1); err != nil {
		return fail("PACKET_IGNORE_OUTGOING", err)
	}
	if ring, err = newRxRing(fd); err != nil {
		return fail("receive ring", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: iface.Index}); err != nil {
		return fail("bind", err)
	}
	mreq := unix.PacketMreq{Ifindex: int32(iface.Index), Type: unix.PACKET_MR_PROMISC}
	if err := unix.SetsockoptPacketMreq(fd, unix.SOL_PACKET, unix.PACKET_ADD_MEMBERSHIP, &mreq); err != nil {
		return fail("promiscuous mode", err)
	}
	// Bigger socket buffers absorb bursts while the pipeline is busy (the
	// receive buffer holds frames too big for a ring slot); the FORCE
	// variants need CAP_NET_ADMIN, so fall back quietly.
	if unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, 8<<20) != nil {
		_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, 8<<20)
	}
	if unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUFFORCE, 4<<20) != nil {
		_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, 4<<20)
	}
	_ = unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_QDISC_BYPASS, 1)
	// The kernel moves a received frame's 802.1Q tag out of the frame into
	// the skb; PACKET_AUXDATA hands it back so ReadBatch can restore it.
	if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_AUXDATA, 1); err != nil {
		return fail("PACKET_AUXDATA", err)
	}

	p := &AFPacket{
		name: ifname, fd: fd, ring: ring,
		rxMsgs: make([]mmsghdr, Batch), rxIovs: make([]unix.Iovec, Batch),
		rxNames: make([]unix.RawSockaddrLinklayer, Batch),
		rxCtrl:  make([]byte, Batch*auxCtrlSpace),
		txMsgs:  make([]mmsghdr, Batch), txIovs: make([]unix.Iovec, Batch),
	}
	if !pollable {
		p.file = os.NewFile(uintptr(fd), "afpacket:"+ifname)
		conn, err := p.file.SyscallConn()
		if err != nil {
			ring.close()
			p.file.Close()
			return nil, err
		}
		p.conn = conn
	}
	return p, nil
}

// Fd is the socket, readable while a frame waits in the ring (or the socket
// queue). Only for a port opened with OpenAFPacketPollable.
func (p *AFPacket) Fd() int { return p.fd }

// pollWait is how long a blocking call on a pollable port waits in poll(2)
// before it looks again whether the port was closed (closing a descriptor
// does not wake a poll on it).
const pollWait = 50 // ms

// noProgressWait is how long WriteBatch on a pollable port waits after a
// try that sent nothing.
const noProgressWait = time.Millisecond

// waitFd waits until the socket reports events (or pollWait passes); the
// caller holds no lock.
func (p *AFPacket) waitFd(events int16) {
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: events}}
	_, _ = unix.Poll(fds, pollWait)
}

func (p *AFPacket) Name() string { return p.name }

// TxDrops counts frames the kernel refused to send.
func (p *AFPacket) TxDrops() uint64 { return p.txDrops.Load() }

// LinkDowns counts the times the interface was reported down while receiving.
func (p *AFPacket) LinkDowns() uint64 { return p.linkDowns.Load() }

func (p *AFPacket) ReadBatch(bufs [][]byte, lens []int) (int, error) {
	for {
		n, err := p.TryReadBatch(bufs, lens)
		if n > 0 || err != nil {
			return n, err
		}
		if err := p.WaitReadable(); err != nil {
			return 0, err
		}
	}
}

// WaitReadable waits in the Go netpoller until a frame is waiting in the
// ring (or on the socket's queue).
func (p *AFPacket) WaitReadable() error {
	if p.conn == nil {
		for {
			p.mu.RLock()
			closed, ready := p.closed, !p.closed && p.ring.ready()
			p.mu.RUnlock()
			if closed {
				return ErrClosed
			}
			if ready {
				return nil
			}
			p.waitFd(unix.POLLIN)
		}
	}
	var b [1]byte
	return p.conn.Read(func(fd uintptr) bool {
		p.mu.RLock()
		defer p.mu.RUnlock()
		if p.closed || p.ring.ready() {
			return true
		}
		_, _, errno := unix.Syscall6(unix.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1, unix.MSG_PEEK|unix.MSG_DONTWAIT|unix.MSG_TRUNC, 0, 0)
		return errno != unix.EAGAIN
	})
}

// TryReadBatch reads the frames waiting, up to len(bufs), without blocking.
// It takes them from the ring and so needs no lock of the netpoller: it may
// run while another goroutine waits in WaitReadable.
func (p *AFPacket) TryReadBatch(bufs [][]byte, lens []int) (int, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return 0, ErrClosed
	}
	want := min(len(bufs), Batch)
	n := 0
	for n < want {
		f, ok := p.ring.next()
		if !ok {
			break
		}
		switch {
		case f.outgoing || f.cut:
		case f.copied:
			k, err := p.readQueued(bufs[n:n+1], lens[n:n+1])
			if err != nil {
				return n, err
			}
			n += k
		default:
			buf := bufs[n][:cap(bufs[n])]
			lens[n] = copy(buf[:len(buf)-vlanTagLen], f.data) // room to re-insert a tag
			if f.vlan {
				lens[n] = insertVLANTag(buf, lens[n], f.tpid, f.tci)
			}
			n++
		}
		p.ring.release()
	}
	if n == 0 {
		return 0, p.checkLink()
	}
	return n, nil
}

// linkCheckInterval spaces out the reads of the socket's error on an idle
// port (one system call each). At 1 ms they took 3.88% of the fat-tree
// switches' CPU (docs/p4switch.md); a link going down is noticed within 10 ms.
const linkCheckInterval = 10 * time.Millisecond

// checkLink reads (and so clears) the socket's pending error: ENETDOWN when
// the interface went down, which is counted and not fatal (the socket
// receives again once the link is back); any other error is returned.
func (p *AFPacket) checkLink() error {
	now := time.Now()
	if now.Sub(p.errChecks) < linkCheckInterval {
		return nil
	}
	p.errChecks = now
	errno, err := unix.GetsockoptInt(p.fd, unix.SOL_SOCKET, unix.SO_ERROR)
	switch {
	case err != nil:
		return fmt.Errorf("reading the socket error of %s: %v", p.name, err)
	case errno == int(unix.ENETDOWN):
		p.linkDowns.Add(1)
	case errno != 0:
		return fmt.Errorf("receiving on %s: %v", p.name, unix.Errno(errno))
	}
	return nil
}

// readQueued reads frames from the socket's receive queue (those too big
// for a ring slot) with recvmmsg, without blocking.
func (p *AFPacket) readQueued(bufs [][]byte, lens []int) (int, error) {
	want := min(len(bufs), Batch)
	for i := 0; i < want; i++ {
		buf := bufs[i][:cap(bufs[i])]
		p.rxIovs[i].Base = &buf[0]
		p.rxIovs[i].SetLen(len(buf) - vlanTagLen) // room to re-insert a tag
		p.rxMsgs[i] = mmsghdr{}
		p.rxMsgs[i].hdr.Name = (*byte)(unsafe.Pointer(&p.rxNames[i]))
		p.rxMsgs[i].hdr.Namelen = uint32(unsafe.Sizeof(p.rxNames[i]))
		p.rxMsgs[i].hdr.Iov = &p.rxIovs[i]
		p.rxMsgs[i].hdr.SetIovlen(1)
		p.rxMsgs[i].hdr.Control = &p.rxCtrl[i*auxCtrlSpace]
		p.rxMsgs[i].hdr.SetControllen(auxCtrlSpace)
	}
	var got int
	var serr error
	err := p.control(func(fd uintptr) {
		for {
			r, _, errno := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&p.rxMsgs[0])), uintptr(want), unix.MSG_DONTWAIT, 0, 0)
			switch errno {
			case 0:
				got = int(r)
			case unix.EINTR:
				continue
			case unix.EAGAIN:
			case unix.ENETDOWN:
				p.linkDowns.Add(1)
			default:
				serr = errno
			}
			return
		}
	})
	runtime.KeepAlive(bufs)
	if err != nil {
		return 0, err
	}
	if serr != nil {
		return 0, fmt.Errorf("recvmmsg on %s: %v", p.name, serr)
	}
	// Keep only complete frames that arrived on the wire.
	n := 0
	for i := 0; i < got; i++ {
		m := &p.rxMsgs[i]
		if p.rxNames[i].Pkttype == unix.PACKET_OUTGOING || m.hdr.Flags&unix.MSG_TRUNC != 0 {
			continue
		}
		if n != i {
			bufs[n], bufs[i] = bufs[i], bufs[n]
		}
		lens[n] = int(m.n)
		if tpid, tci, ok := p.vlanTag(i); ok {
			lens[n] = insertVLANTag(bufs[n][:cap(bufs[n])], lens[n], tpid, tci)
		}
		n++
	}
	return n, nil
}

// control runs f on the socket: through the RawConn (which keeps the
// descriptor open meanwhile) or, for a pollable port, directly: its callers
// hold p.mu, so Close cannot close the descriptor under them.
func (p *AFPacket) control(f func(fd uintptr)) error {
	if p.conn == nil {
		f(uintptr(p.fd))
		return nil
	}
	return p.conn.Control(f)
}

// sizeofAuxdata is sizeof(struct tpacket_auxdata).
const sizeofAuxdata = int(unsafe.Sizeof(unix.TpacketAuxdata{}))

// auxCtrlSpace is the room for one PACKET_AUXDATA control message.
var auxCtrlSpace = unix.CmsgSpace(sizeofAuxdata)

// vlanTagLen is the length of an 802.1Q tag (TPID and TCI).
const vlanTagLen = 4

// vlanTag returns the VLAN tag the kernel stripped from received message i,
// if any, from its PACKET_AUXDATA control message.
func (p *AFPacket) vlanTag(i int) (tpid, tci uint16, ok bool) {
	m := &p.rxMsgs[i]
	if m.hdr.Controllen < uint64(unix.CmsgLen(sizeofAuxdata)) {
		return 0, 0, false
	}
	ctrl := p.rxCtrl[i*auxCtrlSpace : (i+1)*auxCtrlSpace]
	h := (*unix.Cmsghdr)(unsafe.Pointer(&ctrl[0]))
	if h.Level != unix.SOL_PACKET || h.Type != unix.PACKET_AUXDATA {
		return 0, 0, false
	}
	aux := (*unix.TpacketAuxdata)(unsafe.Pointer(&ctrl[unix.CmsgLen(0)]))
	if aux.Status&unix.TP_STATUS_VLAN_VALID == 0 {
		return 0, 0, false
	}
	tpid = unix.ETH_P_8021Q
	if aux.Status&unix.TP_STATUS_VLAN_TPID_VALID != 0 {
		tpid = aux.Vlan_tpid
	}
	return tpid, aux.Vlan_tci, true
}

// insertVLANTag puts the tag (tpid, tci) after the MAC addresses of the
// n-byte frame in buf (which has room for it) and returns the new length.
func insertVLANTag(buf []byte, n int, tpid, tci uint16) int {
	if n < 12 {
		return n
	}
	copy(buf[12+vlanTagLen:n+vlanTagLen], buf[12:n])
	buf[12], buf[13] = byte(tpid>>8), byte(tpid)
	buf[14], buf[15] = byte(tci>>8), byte(tci)
	return n + vlanTagLen
}

// WriteBatch sends every frame, waiting while the socket's send buffer is full.
func (p *AFPacket) WriteBatch(frames [][]byte) error {
	for len(frames) > 0 {
		if p.conn == nil {
			n, err := p.TryWriteBatch(frames)
			if err != nil {
				return err
			}
			if frames = frames[n:]; len(frames) > 0 {
				p.waitFd(unix.POLLOUT)
				if n == 0 {
					// ENOBUFS (the interface is down or has no carrier)
					// leaves the socket writable, so poll returns at once:
					// do not spin for the whole outage.
					time.Sleep(noProgressWait)
				}
			}
			continue
		}
		k, used := p.prepareTx(frames)
		sent := 0
		err := p.conn.Write(func(fd uintptr) bool {
			var full bool
			sent, full = p.sendmmsg(fd, sent, k)
			return !full
		})
		runtime.KeepAlive(frames)
		if err != nil {
			return err
		}
		frames = frames[used:]
	}
	return nil
}

// TryWriteBatch sends frames until the socket's send buffer is full and
// returns how many it took (empty frames and frames the kernel refuses count
// as taken; the refused ones as TxDrops). It never blocks.
func (p *AFPacket) TryWriteBatch(frames [][]byte) (int, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		return 0, ErrClosed
	}
	taken := 0
	for taken < len(frames) {
		k, used := p.prepareTx(frames[taken:])
		var sent int
		var full bool
		err := p.control(func(fd uintptr) { sent, full = p.sendmmsg(fd, 0, k) })
		runtime.KeepAlive(frames)
		if err != nil {
			return taken, err
		}
		if full {
			// The messages sent map to frames[taken:taken+used] minus the
			// empty ones skipped by prepareTx.
			return taken + p.framesOf(frames[taken:taken+used], sent), nil
		}
		taken += used
	}
	return taken, nil
}

// prepareTx fills the send messages with up to Batch non-empty frames and
// returns how many messages (k) and how many frames (used) that took.
func (p *AFPacket) prepareTx(frames [][]byte) (k, used int) {
	for ; used < len(frames) && k < Batch; used++ {
		f := frames[used]
		if len(f) == 0 {
			continue
		}
		p.txIovs[k].Base = &f[0]
		p.txIovs[k].SetLen(len(f))
		p.txMsgs[k] = mmsghdr{}
		p.txMsgs[k].hdr.Iov = &p.txIovs[k]
		p.txMsgs[k].hdr.SetIovlen(1)
		k++
	}
	return k, used
}

// framesOf returns how many of frames the first msgs messages cover (an
// empty frame has no message; it counts as taken with those before it).
func (p *AFPacket) framesOf(frames [][]byte, msgs int) int {
	n := 0
	for ; n < len(frames); n++ {
		if len(frames[n]) == 0 {
			continue
		}
		if msgs == 0 {
			break
		}
		msgs--
	}
	return n
}

// sendmmsg sends messages from..k-1 prepared by prepareTx and returns how far
// it got, and whether it stopped because the socket's send buffer is full.
func (p *AFPacket) sendmmsg(fd uintptr, from, k int) (sent int, full bool) {
	sent = from
	for sent < k {
		r, _, errno := unix.Syscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&p.txMsgs[sent])), uintptr(k-sent), unix.MSG_DONTWAIT, 0, 0)
		switch {
		case errno == unix.EAGAIN || errno == unix.ENOBUFS:
			return sent, true
		case errno == unix.EINTR:
			continue
		case errno != 0:
			// This frame cannot be sent (too big, interface down): drop it.
			p.txDrops.Add(1)
			sent++
		default:
			sent += int(r)
		}
	}
	return sent, false
}

// Close unmaps the ring (once no read is using it) and closes the socket.
func (p *AFPacket) Close() error {
	p.mu.Lock()
	first := !p.closed
	if first {
		p.closed = true
		p.ring.close()
	}
	p.mu.Unlock()
	if p.file == nil {
		if !first {
			return nil // the descriptor number may belong to someone else by now
		}
		return unix.Close(p.fd)
	}
	return p.file.Close()
}
