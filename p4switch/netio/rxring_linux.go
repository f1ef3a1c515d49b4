package netio

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rxRing is a PACKET_RX_RING (TPACKET_V2) shared with the kernel: the kernel
// copies each received frame into the next free slot and marks it
// TP_STATUS_USER; the reader copies it out and hands the slot back
// (TP_STATUS_KERNEL). Reading a frame takes no system call. A frame larger
// than a slot also goes to the socket's receive queue (PACKET_COPY_THRESH)
// and its slot is marked TP_STATUS_COPY: the reader takes it from there.
type rxRing struct {
	mem       []byte
	frameSize int
	frames    int
	head      int // next slot to read
}

// Ring geometry: 2 KiB slots hold a 1500-byte MTU frame with its headers;
// 2048 slots (4 MiB of kernel memory per port) absorb about 25 ms of a
// 1 Gbit/s burst. Half that made iperf3 through the switch lose packets;
// the memory is pinned, and Mininet fabrics run many ports.
const (
	ringFrameSize = 2048
	ringBlockSize = 64 << 10
	ringFrames    = 2048
)

// sockaddrLLOffset is where the kernel puts a frame's struct sockaddr_ll:
// after the tpacket2_hdr, aligned to TPACKET_ALIGNMENT (16).
var sockaddrLLOffset = (int(unsafe.Sizeof(unix.Tpacket2Hdr{})) + 15) &^ 15

// pkttypeOffset is the offset of sll_pkttype in struct sockaddr_ll.
const pkttypeOffset = 10

// newRxRing sets up the ring on an AF_PACKET socket (before bind).
func newRxRing(fd int) (*rxRing, error) {
	if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_VERSION, unix.TPACKET_V2); err != nil {
		return nil, fmt.Errorf("PACKET_VERSION: %v", err)
	}
	// Frames that do not fit a slot are queued on the socket as well.
	if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_COPY_THRESH, 1); err != nil {
		return nil, fmt.Errorf("PACKET_COPY_THRESH: %v", err)
	}
	req := unix.TpacketReq{Block_size: ringBlockSize, Block_nr: ringFrames * ringFrameSize / ringBlockSize,
		Frame_size: ringFrameSize, Frame_nr: ringFrames}
	if err := unix.SetsockoptTpacketReq(fd, unix.SOL_PACKET, unix.PACKET_RX_RING, &req); err != nil {
		return nil, fmt.Errorf("PACKET_RX_RING: %v", err)
	}
	mem, err := unix.Mmap(fd, 0, ringFrames*ringFrameSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mmap of the receive ring: %v", err)
	}
	return &rxRing{mem: mem, frameSize: ringFrameSize, frames: ringFrames}, nil
}

// slot returns the header of slot i.
func (r *rxRing) slot(i int) *unix.Tpacket2Hdr {
	return (*unix.Tpacket2Hdr)(unsafe.Pointer(&r.mem[i*r.frameSize]))
}

func (r *rxRing) status(h *unix.Tpacket2Hdr) uint32 {
	return atomic.LoadUint32(&h.Status)
}

// ready reports whether the next slot holds a frame.
func (r *rxRing) ready() bool {
	return r.status(r.slot(r.head))&unix.TP_STATUS_USER != 0
}

// ringFrame is one received frame as the ring describes it.
type ringFrame struct {
	data     []byte // in the ring: valid until release
	outgoing bool   // sent by this host (PACKET_OUTGOING)
	copied   bool   // too big for the slot: read it from the socket queue
	cut      bool   // truncated and not copied (the socket queue was full)
	vlan     bool   // the kernel stripped an 802.1Q/802.1ad tag
	tpid     uint16
	tci      uint16
}

// next returns the frame in the next slot, if any; release hands it back.
func (r *rxRing) next() (ringFrame, bool) {
	h := r.slot(r.head)
	st := r.status(h)
	if st&unix.TP_STATUS_USER == 0 {
		return ringFrame{}, false
	}
	base := r.head * r.frameSize
	f := ringFrame{
		copied:   st&unix.TP_STATUS_COPY != 0,
		outgoing: r.mem[base+sockaddrLLOffset+pkttypeOffset] == unix.PACKET_OUTGOING,
	}
	if !f.copied {
		f.cut = h.Snaplen < h.Len
		start := base + int(h.Mac)
		f.data = r.mem[start : start+int(h.Snaplen) : start+int(h.Snaplen)]
	}
	if st&unix.TP_STATUS_VLAN_VALID != 0 {
		f.vlan, f.tpid, f.tci = true, unix.ETH_P_8021Q, h.Vlan_tci
		if st&unix.TP_STATUS_VLAN_TPID_VALID != 0 {
			f.tpid = h.Vlan_tpid
		}
	}
	return f, true
}

// release hands the slot of the frame last returned by next back to the kernel.
func (r *rxRing) release() {
	atomic.StoreUint32(&r.slot(r.head).Status, unix.TP_STATUS_KERNEL)
	r.head++
	if r.head == r.frames {
		r.head = 0
	}
}

func (r *rxRing) close() error { return unix.Munmap(r.mem) }
