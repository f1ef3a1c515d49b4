// Package datapath is the shim's enforcement in the kernel: an HTB class per
// session-path (rate = ceil = the allocated rate) on the host's interface, an eBPF
// program at clsact egress that classifies packets into those classes and tags them
// with the path's VLAN id, and an eBPF program at clsact ingress that counts the
// bytes received per sender and path (Promenade Eq. 5).
package datapath

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/cilium/ebpf"
	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

// Mode selects what happens when a session-path's queue is full.
type Mode string

const (
	// Lossless: the leaf queues hold more than all sockets can have outstanding, so
	// a full queue never drops; senders are held back by TCP small queues and the
	// socket send buffer (zOVN §4.1 b: "Qdisc length = sum of all socket TX queues").
	Lossless Mode = "lossless"
	// Lossy: the leaf queues are small byte FIFOs that tail-drop, like a stock vSwitch.
	Lossy Mode = "lossy"
)

// Config of one host's datapath.
type Config struct {
	NetnsPath         string // network namespace of the interface ("" = the shim's own)
	Ifname            string
	Mode              Mode
	LossyQueueBytes   uint32        // bfifo limit per session-path in lossy mode
	LosslessQueuePkts uint32        // pfifo limit per session-path in lossless mode
	DefaultRateBps    uint64        // rate of the class for traffic outside any session
	Burst             time.Duration // HTB buffer of a class, as time at its rate (at least one GSO packet)
	// GSOMaxSegs caps the segments per GSO packet on the interface while the datapath is
	// open (0: leave it). The per-packet path split decides per packet: a 64 KB GSO packet
	// goes whole to one path and waits in that path's class, so a TCP flow split over
	// several paths arrives reordered (spurious retransmits, a fraction of its rate). With 1,
	// TCP hands the qdisc MSS-sized packets and the split is per frame (docs/host-shim.md).
	GSOMaxSegs int
	// EdgeWindow turns on edge windows (vFab's sending window w = r x T, §2.5 of the
	// digest; docs/host-shim.md "Edge windows"): each session-path class may send at
	// most its rate times EdgeWindow in one burst (the HTB buffer; at least one frame),
	// so the sessions toward one bottleneck put at most sum(r) x T = one BDP into it
	// at once, whatever their TCP windows. T should be the fabric's base round trip.
	// 0: off (a class's burst is Burst, at least one GSO packet). Needs GSOMaxSegs 1.
	EdgeWindow time.Duration
}

const (
	rootMajor      = 1
	defaultMinor   = 0xfffe
	firstMinor     = 1
	lastMinor      = 0x3fff
	weightScale    = 1 << 16 // per-path weights are rates scaled to this total
	htbQuantum     = 65536
	minBufferBytes = 65536 + 1600 // one GSO packet plus a frame
	minWindowBytes = 1600         // one full frame: the smallest edge window
)

type pathKey struct {
	session string
	path    int
}

// Datapath is the enforcement state of one interface. Its methods are safe for
// concurrent use.
type Datapath struct {
	cfg      Config
	ns       netns.NsHandle
	nh       *netlink.Handle
	link     netlink.Link
	sessions *ebpf.Map
	unpinned *ebpf.Map
	recv     *ebpf.Map
	egress   *ebpf.Program
	ingress  *ebpf.Program

	mu      sync.Mutex
	minors  map[pathKey]uint16
	free    []uint16
	next    uint16
	dsts    map[netip.Addr]string // destination -> session id in the BPF map
	current *ratetable.Table
	gsoSegs int // the interface's gso_max_segs before Open changed it (0: unchanged)
}

// Open installs the HTB root, the default class and the eBPF programs on the interface.
func Open(cfg Config) (*Datapath, error) {
	switch cfg.Mode {
	case Lossless, Lossy:
	default:
		return nil, fmt.Errorf("mode %q is not %q or %q", cfg.Mode, Lossless, Lossy)
	}
	if cfg.LossyQueueBytes == 0 {
		cfg.LossyQueueBytes = 64 * 1514
	}
	if cfg.LosslessQueuePkts == 0 {
		cfg.LosslessQueuePkts = 100000
	}
	if cfg.EdgeWindow < 0 || cfg.EdgeWindow > 10*time.Second {
		return nil, fmt.Errorf("edge window %v out of range 0..10s", cfg.EdgeWindow)
	}
	if cfg.EdgeWindow > 0 && cfg.GSOMaxSegs != 1 {
		return nil, fmt.Errorf("edge windows need gso_max_segs 1 (a window may be smaller than a GSO packet), not %d", cfg.GSOMaxSegs)
	}
	if cfg.Burst == 0 {
		cfg.Burst = 2 * time.Millisecond
	}
	if cfg.DefaultRateBps == 0 {
		cfg.DefaultRateBps = 10e9
	}
	d := &Datapath{cfg: cfg, minors: map[pathKey]uint16{}, next: firstMinor, dsts: map[netip.Addr]string{}}
	var err error
	if cfg.NetnsPath == "" {
		d.ns, err = netns.Get()
	} else {
		d.ns, err = netns.GetFromPath(cfg.NetnsPath)
	}
	if err != nil {
		return nil, fmt.Errorf("network namespace %q: %w", cfg.NetnsPath, err)
	}
	ok := false
	defer func() {
		if !ok {
			d.Close()
		}
	}()
	if d.nh, err = netlink.NewHandleAt(d.ns); err != nil {
		return nil, fmt.Errorf("netlink in namespace: %w", err)
	}
	if d.link, err = d.nh.LinkByName(cfg.Ifname); err != nil {
		return nil, fmt.Errorf("interface %q: %w", cfg.Ifname, err)
	}
	if cfg.GSOMaxSegs > 0 && int(d.link.Attrs().GSOMaxSegs) != cfg.GSOMaxSegs {
		old := int(d.link.Attrs().GSOMaxSegs)
		if err = d.nh.LinkSetGSOMaxSegs(d.link, cfg.GSOMaxSegs); err != nil {
			return nil, fmt.Errorf("gso_max_segs %d on %s: %w", cfg.GSOMaxSegs, cfg.Ifname, err)
		}
		d.gsoSegs = old
	}
	if err = d.installQdiscs(); err != nil {
		return nil, err
	}
	if d.sessions, err = newSessionsMap(); err != nil {
		return nil, fmt.Errorf("sessions map: %w", err)
	}
	if d.unpinned, err = newUnpinnedMap(); err != nil {
		return nil, fmt.Errorf("unpinned counters map: %w", err)
	}
	if d.recv, err = newRecvMap(); err != nil {
		return nil, fmt.Errorf("receive counters map: %w", err)
	}
	if d.egress, err = egressProgram(d.sessions, d.unpinned); err != nil {
		return nil, fmt.Errorf("loading the egress program: %w", err)
	}
	if d.ingress, err = ingressProgram(d.recv); err != nil {
		return nil, fmt.Errorf("loading the ingress program: %w", err)
	}
	if err = d.attach(netlink.HANDLE_MIN_EGRESS, d.egress, "ff_egress"); err != nil {
		return nil, err
	}
	if err = d.attach(netlink.HANDLE_MIN_INGRESS, d.ingress, "ff_ingress"); err != nil {
		return nil, err
	}
	ok = true
	return d, nil
}

func (d *Datapath) ifindex() int { return d.link.Attrs().Index }

func (d *Datapath) installQdiscs() error {
	if err := d.removeLeftovers(); err != nil {
		return err
	}
	root := netlink.NewHtb(netlink.QdiscAttrs{LinkIndex: d.ifindex(), Handle: netlink.MakeHandle(rootMajor, 0), Parent: netlink.HANDLE_ROOT})
	root.Defcls = defaultMinor
	if err := d.nh.QdiscReplace(root); err != nil {
		return fmt.Errorf("HTB root qdisc on %s: %w", d.cfg.Ifname, err)
	}
	if err := d.setClass(defaultMinor, d.cfg.DefaultRateBps, classBuffer(d.cfg.DefaultRateBps, d.cfg.Burst, 0)); err != nil {
		return fmt.Errorf("default class: %w", err)
	}
	clsact := &netlink.Clsact{QdiscAttrs: netlink.QdiscAttrs{LinkIndex: d.ifindex(), Handle: netlink.MakeHandle(0xffff, 0), Parent: netlink.HANDLE_CLSACT}}
	if err := d.nh.QdiscReplace(clsact); err != nil {
		return fmt.Errorf("clsact qdisc on %s: %w", d.cfg.Ifname, err)
	}
	return nil
}

func (d *Datapath) attach(parent uint32, prog *ebpf.Program, name string) error {
	f := &netlink.BpfFilter{
		FilterAttrs:  netlink.FilterAttrs{LinkIndex: d.ifindex(), Parent: parent, Handle: netlink.MakeHandle(0, 1), Protocol: unix.ETH_P_ALL, Priority: 1},
		Fd:           prog.FD(),
		Name:         name,
		DirectAction: true,
	}
	if err := d.nh.FilterReplace(f); err != nil {
		return fmt.Errorf("attaching %s on %s: %w", name, d.cfg.Ifname, err)
	}
	return nil
}

// setClass creates or changes the HTB class 1:minor to a hard limit of rateBps and
// gives a new class its leaf FIFO.
func (d *Datapath) setClass(minor uint16, rateBps uint64, buffer uint32) error {
	handle := netlink.MakeHandle(rootMajor, minor)
	class := netlink.NewHtbClass(
		netlink.ClassAttrs{LinkIndex: d.ifindex(), Parent: netlink.MakeHandle(rootMajor, 0), Handle: handle},
		netlink.HtbClassAttrs{Rate: rateBps, Ceil: rateBps, Buffer: buffer, Cbuffer: buffer, Quantum: htbQuantum},
	)
	existed, err := d.classExists(handle)
	if err != nil {
		return err
	}
	if err := d.nh.ClassReplace(class); err != nil {
		return fmt.Errorf("HTB class %s at %d bit/s: %w", netlink.HandleStr(handle), rateBps, err)
	}
	if existed {
		return nil
	}
	kind, limit := "pfifo", d.cfg.LosslessQueuePkts
	if d.cfg.Mode == Lossy {
		kind, limit = "bfifo", d.cfg.LossyQueueBytes
	}
	if err := addFifo(d.ns, d.ifindex(), handle, kind, limit); err != nil {
		return fmt.Errorf("%s under %s: %w", kind, netlink.HandleStr(handle), err)
	}
	return nil
}

func (d *Datapath) classExists(handle uint32) (bool, error) {
	classes, err := d.nh.ClassList(d.link, netlink.MakeHandle(rootMajor, 0))
	if err != nil {
		return false, fmt.Errorf("listing classes: %w", err)
	}
	for _, c := range classes {
		if c.Attrs().Handle == handle {
			return true, nil
		}
	}
	return false, nil
}

func (d *Datapath) minorFor(k pathKey) (uint16, error) {
	if m, ok := d.minors[k]; ok {
		return m, nil
	}
	var m uint16
	switch {
	case len(d.free) > 0:
		m, d.free = d.free[len(d.free)-1], d.free[:len(d.free)-1]
	case d.next <= lastMinor:
		m = d.next
		d.next++
	default:
		return 0, errors.New("no HTB class ids left")
	}
	d.minors[k] = m
	return m, nil
}

// Apply puts a validated table in force: classes first (so that the program never
// points at a missing class), then the sessions map, then removes what the table
// no longer has. On error the previous table's rates stay on every path the error
// did not reach; the caller reports the error and keeps the old version in force.
func (d *Datapath) Apply(t *ratetable.Table) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	want := map[pathKey]bool{}
	values := map[netip.Addr]sessionValue{}
	for _, s := range t.Sessions {
		v := sessionValue{NPaths: uint32(len(s.Paths))}
		if s.Split == ratetable.SplitFlow {
			v.Split = 1
		}
		total := s.TotalBps()
		var cum uint32
		for i, p := range s.Paths {
			k := pathKey{s.ID, p.ID}
			want[k] = true
			m, err := d.minorFor(k)
			if err != nil {
				return err
			}
			if err := d.setClass(m, classRate(p), classBuffer(classRate(p), d.cfg.Burst, d.cfg.EdgeWindow)); err != nil {
				return err
			}
			w := uint32(p.RateBps * weightScale / total)
			if w == 0 {
				w = 1
			}
			cum += w
			v.Cum[i], v.ClassID[i], v.VID[i], v.Mult[i] = cum, netlink.MakeHandle(rootMajor, m), uint32(p.ID), (1<<24)/w
		}
		v.Total = cum
		for i := len(s.Paths); i < 4; i++ {
			v.Cum[i], v.ClassID[i], v.VID[i], v.Mult[i], v.VT[i] = 0xffffffff, v.ClassID[i-1], v.VID[i-1], 0, ^uint64(0)
		}
		values[s.DstAddr()] = v
	}
	for dst, v := range values {
		if err := d.sessions.Put(dst.As4(), v.marshal()); err != nil {
			return fmt.Errorf("sessions map entry %s: %w", dst, err)
		}
	}
	newDsts := map[netip.Addr]string{}
	for _, s := range t.Sessions {
		newDsts[s.DstAddr()] = s.ID
	}
	for dst := range d.dsts {
		if _, keep := newDsts[dst]; !keep {
			if err := d.sessions.Delete(dst.As4()); err != nil && !errors.Is(err, ebpf.ErrKeyNotExist) {
				return fmt.Errorf("removing sessions map entry %s: %w", dst, err)
			}
		}
	}
	d.dsts = newDsts
	for k, m := range d.minors {
		if want[k] {
			continue
		}
		class := &netlink.HtbClass{ClassAttrs: netlink.ClassAttrs{LinkIndex: d.ifindex(), Parent: netlink.MakeHandle(rootMajor, 0), Handle: netlink.MakeHandle(rootMajor, m)}}
		if err := d.nh.ClassDel(class); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("removing class %s: %w", netlink.HandleStr(class.Handle), err)
		}
		delete(d.minors, k)
		d.free = append(d.free, m)
	}
	d.current = t
	return nil
}

// classRate is the HTB rate that keeps a path's allocated rate within every link it crosses.
// HTB counts the frame as it leaves the host (1514 bytes for a full frame). Past the qdisc the
// frame grows: the VLAN tag of a pinned path (4 bytes, pushed by the egress program as
// metadata) and, on every fabric link, the pipeline's fabric header (20 bytes, fabric.p4
// fabric_t: AQ ids, virtual delay, timestamp). The allocation counts frames as the host sends
// them, so a session at its full rate on a fabric link its allocation fills would overrun it
// by 24 bytes a frame: the switch queues along the path then hold a standing queue, the TCP
// flows become window-limited behind it and the largest one falls 5-10 % short (measured,
// docs/controller.md "Fair shares in Mininet"). So a pinned path's class runs at
// rate x 1514/1538: what the fabric links carry is at most the allocation. An unpinned path
// (id 0) keeps its rate exactly: it is what a shim on a plain network (no fabric header) is
// given, and ECMP mode's totals (docs/controller.md "Routing modes") take it as it is.
func classRate(p ratetable.Path) uint64 {
	if p.ID == 0 {
		return p.RateBps
	}
	return p.RateBps * fullFrame / (fullFrame + vlanTagLen + fabricHeaderLen)
}

const (
	fullFrame       = 1514 // Ethernet frame of a full 1500-byte packet, without FCS
	vlanTagLen      = 4
	fabricHeaderLen = 20 // pipeconfs/p4/include/header.p4 fabric_t, on fabric links only
)

// PathStats are the counters of one session-path's class.
type PathStats struct {
	Session string
	Path    int
	Bytes   uint64 // sent (dequeued) bytes, including the Ethernet header
	Packets uint64 // sent packets (a GSO packet counts once)
	Drops   uint64 // drops in the class's queue
	Backlog uint64 // bytes queued now
}

// QdiscStats are the counters of the whole HTB qdisc (all classes).
type QdiscStats struct {
	Bytes, Packets, Drops, Overlimits, Backlog uint64
}

// Stats reads the per session-path class counters and the qdisc totals.
func (d *Datapath) Stats() ([]PathStats, QdiscStats, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	byMinor := map[uint16]pathKey{}
	for k, m := range d.minors {
		byMinor[m] = k
	}
	classes, err := d.nh.ClassList(d.link, netlink.MakeHandle(rootMajor, 0))
	if err != nil {
		return nil, QdiscStats{}, fmt.Errorf("listing classes: %w", err)
	}
	var out []PathStats
	for _, c := range classes {
		k, ok := byMinor[uint16(c.Attrs().Handle&0xffff)]
		st := c.Attrs().Statistics
		if !ok || st == nil || st.Basic == nil || st.Queue == nil {
			continue
		}
		out = append(out, PathStats{Session: k.session, Path: k.path, Bytes: st.Basic.Bytes, Packets: uint64(st.Basic.Packets), Drops: uint64(st.Queue.Drops), Backlog: uint64(st.Queue.Backlog)})
	}
	var qs QdiscStats
	qdiscs, err := d.nh.QdiscList(d.link)
	if err != nil {
		return nil, QdiscStats{}, fmt.Errorf("listing qdiscs: %w", err)
	}
	for _, q := range qdiscs {
		a := q.Attrs()
		if a.Handle == netlink.MakeHandle(rootMajor, 0) && a.Statistics != nil && a.Statistics.Basic != nil && a.Statistics.Queue != nil {
			qs = QdiscStats{Bytes: a.Statistics.Basic.Bytes, Packets: uint64(a.Statistics.Basic.Packets), Drops: uint64(a.Statistics.Queue.Drops), Overlimits: uint64(a.Statistics.Queue.Overlimits), Backlog: uint64(a.Statistics.Queue.Backlog)}
		}
	}
	return out, qs, nil
}

// RecvKey identifies a received sub-flow: the sending and the receiving address (the
// packet's destination: the host's or one of its VMs') and the path (VLAN id; 0 =
// untagged).
type RecvKey struct {
	Src  netip.Addr
	Dst  netip.Addr
	Path int
}

// RecvCounters are cumulative counts since the datapath was opened.
type RecvCounters struct {
	Packets, IPBytes, PayloadBytes uint64
}

// Received reads the ingress counters.
func (d *Datapath) Received() (map[RecvKey]RecvCounters, error) {
	out := map[RecvKey]RecvCounters{}
	var k [recvKeySize]byte
	var v [recvValueSize]byte
	it := d.recv.Iterate()
	for it.Next(&k, &v) {
		key := RecvKey{Src: netip.AddrFrom4([4]byte(k[0:4])), Dst: netip.AddrFrom4([4]byte(k[4:8])), Path: int(binary.LittleEndian.Uint32(k[8:12]))}
		le := binary.LittleEndian
		out[key] = RecvCounters{Packets: le.Uint64(v[0:]), IPBytes: le.Uint64(v[8:]), PayloadBytes: le.Uint64(v[16:])}
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("reading receive counters: %w", err)
	}
	return out, nil
}

// SentCounters are cumulative counts of what the host sent to one destination
// outside any session, since the datapath was opened (or since the destination was
// last evicted from the LRU map).
type SentCounters struct {
	Packets, Bytes uint64 // Bytes: Ethernet frames as the egress hook sees them
}

// Unpinned reads the egress counters of destinations without a session.
func (d *Datapath) Unpinned() (map[netip.Addr]SentCounters, error) {
	out := map[netip.Addr]SentCounters{}
	var k [4]byte
	var v [unpinnedValueSize]byte
	it := d.unpinned.Iterate()
	for it.Next(&k, &v) {
		le := binary.LittleEndian
		out[netip.AddrFrom4(k)] = SentCounters{Packets: le.Uint64(v[0:]), Bytes: le.Uint64(v[8:])}
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("reading unpinned counters: %w", err)
	}
	return out, nil
}

// LinkStats are the interface's own counters (veth drops land here).
func (d *Datapath) LinkStats() (*netlink.LinkStatistics, error) {
	l, err := d.nh.LinkByName(d.cfg.Ifname)
	if err != nil {
		return nil, err
	}
	return l.Attrs().Statistics, nil
}

// Current is the table in force (nil before the first).
func (d *Datapath) Current() *ratetable.Table {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.current
}

// Close removes what Open installed and releases the programs.
func (d *Datapath) Close() {
	if d.nh != nil && d.link != nil {
		_ = d.nh.QdiscDel(&netlink.Clsact{QdiscAttrs: netlink.QdiscAttrs{LinkIndex: d.ifindex(), Handle: netlink.MakeHandle(0xffff, 0), Parent: netlink.HANDLE_CLSACT}})
		_ = d.nh.QdiscDel(netlink.NewHtb(netlink.QdiscAttrs{LinkIndex: d.ifindex(), Handle: netlink.MakeHandle(rootMajor, 0), Parent: netlink.HANDLE_ROOT}))
		if d.gsoSegs > 0 {
			_ = d.nh.LinkSetGSOMaxSegs(d.link, d.gsoSegs)
		}
	}
	for _, c := range []interface{ Close() error }{d.egress, d.ingress, d.sessions, d.unpinned, d.recv} {
		if c != nil && !isNil(c) {
			_ = c.Close()
		}
	}
	if d.nh != nil {
		d.nh.Close()
	}
	if d.ns.IsOpen() {
		_ = d.ns.Close()
	}
}

func isNil(c interface{ Close() error }) bool {
	switch v := c.(type) {
	case *ebpf.Program:
		return v == nil
	case *ebpf.Map:
		return v == nil
	}
	return false
}

// classBuffer is the HTB buffer (the burst a class may send at once) of a class
// at rateBps: rate x window with edge windows on (at least one frame), else
// rate x burst (at least one GSO packet and a frame).
func classBuffer(rateBps uint64, burst, window time.Duration) uint32 {
	if window > 0 {
		return uint32(max(float64(rateBps)/8*window.Seconds(), minWindowBytes))
	}
	return uint32(max(float64(rateBps)/8*burst.Seconds(), minBufferBytes))
}
