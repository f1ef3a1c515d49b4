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
type AFPacket struct {
	name string
	fd   int
	file *os.File
	conn syscall.RawConn

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

// OpenAFPacket opens interface ifname.
func OpenAFPacket(ifname string) (*AFPacket, error) {
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

	file := os.NewFile(uintptr(fd), "afpacket:"+ifname)
	conn, err := file.SyscallConn()
	if err != nil {
		ring.close()
		file.Close()
		return nil, err
	}
	p := &AFPacket{
		name: ifname, fd: fd, file: file, conn: conn, ring: ring,
		rxMsgs: make([]mmsghdr, Batch), rxIovs: make([]unix.Iovec, Batch),
		rxNames: make([]unix.RawSockaddrLinklayer, Batch),
		rxCtrl:  make([]byte, Batch*auxCtrlSpace),
		txMsgs:  make([]mmsghdr, Batch), txIovs: make([]unix.Iovec, Batch),
	}
	return p, nil
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
	err := p.conn.Control(func(fd uintptr) {
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

func (p *AFPacket) WriteBatch(frames [][]byte) error {
	for len(frames) > 0 {
		k, used := 0, 0
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
		sent := 0
		err := p.conn.Write(func(fd uintptr) bool {
			for sent < k {
				r, _, errno := unix.Syscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&p.txMsgs[sent])), uintptr(k-sent), unix.MSG_DONTWAIT, 0, 0)
				switch {
				case errno == unix.EAGAIN || errno == unix.ENOBUFS:
					return false
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
			return true
		})
		runtime.KeepAlive(frames)
		if err != nil {
			return err
		}
		frames = frames[used:]
	}
	return nil
}

// Close unmaps the ring (once no read is using it) and closes the socket.
func (p *AFPacket) Close() error {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		p.ring.close()
	}
	p.mu.Unlock()
	return p.file.Close()
}
