package sw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/fairfabric/fairfabric/p4switch/netio"
	"github.com/fairfabric/fairfabric/p4switch/target"
)

// Group runs the pipelines of one or more switches on a few goroutines
// (workers) that wait in epoll on every port of those switches.
//
// Start's way costs several goroutine wake-ups per frame when a switch is
// idle between frames (as each hop of an emulated fabric is): a waiter
// goroutine per port parked in Go's netpoller, a channel to the pipeline
// goroutine, a channel to the port's writer goroutine, and re-arming every
// waiter afterwards. A Group's worker instead reads every ring, runs the
// pipeline and writes the frames with a non-blocking sendmmsg itself, then
// looks at every ring again before it sleeps. When one process hosts several
// switches of a fabric, a frame sent on a veth is usually in the next
// switch's ring when sendmmsg returns (the kernel delivers it in the same
// system call), so one wake-up can carry a frame across several hops.
//
// Every worker serves every switch: a worker runs a switch's round only if
// no other worker is running it (a try-lock per switch), so each switch's
// pipeline still runs on one goroutine at a time while several switches run
// in parallel. Each worker has its own epoll instance; the ports are added
// to all of them with EPOLLEXCLUSIVE, so a frame wakes one sleeping worker,
// not all of them.
//
// The writer goroutines remain for frames that must wait (propagation
// delay) or that the socket cannot take now; a port's frames go directly
// only while its writer holds none, so they stay in order.
type Group struct {
	epfds []int // one per worker

	mu      sync.Mutex // guards members' replacement, wakefd and closed
	members atomic.Pointer[[]*member]
	wakefd  int // eventfd: a switch has a call, a packet-out, or stops
	closed  bool

	workers sync.WaitGroup
}

// wakeTag marks the eventfd's epoll events (no event is looked at: every
// ring and every switch's calls are after any wake-up).
const wakeTag = -1

// NewGroup starts a group with workers goroutines (at least 1) and no
// switches; Add gives it switches.
func NewGroup(workers int) (*Group, error) {
	workers = max(workers, 1)
	wakefd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("eventfd: %v", err)
	}
	g := &Group{wakefd: wakefd}
	g.members.Store(&[]*member{})
	fail := func(err error) (*Group, error) {
		for _, fd := range g.epfds {
			unix.Close(fd)
		}
		unix.Close(wakefd)
		return nil, err
	}
	for i := 0; i < workers; i++ {
		epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
		if err != nil {
			return fail(fmt.Errorf("epoll_create1: %v", err))
		}
		g.epfds = append(g.epfds, epfd)
		// Not exclusive: a call or Stop wakes every worker. Edge-triggered,
		// and never read: each write is an edge that every worker's epoll
		// reports once (a worker resetting the counter by reading it would
		// hide the wake-up from the others). The counter cannot overflow in
		// practice (2^64 - 2 wake-ups).
		ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLET, Fd: wakeTag}
		if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, wakefd, &ev); err != nil {
			return fail(fmt.Errorf("epoll_ctl: %v", err))
		}
	}
	for i := range g.epfds {
		g.workers.Add(1)
		go g.work(i)
	}
	return g, nil
}

// Add starts switch s (made by New, not started) on the group. Every port
// of s must be netio.Pollable.
func (g *Group) Add(s *Switch) error {
	for _, r := range s.rxPorts {
		pp, ok := r.port.(netio.Pollable)
		if !ok || pp.Fd() < 0 {
			return fmt.Errorf("port %s cannot be polled by a group", r.port.Name())
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errors.New("group closed")
	}
	var added [][2]int // (epfd, fd)
	for _, r := range s.rxPorts {
		fd := r.port.(netio.Pollable).Fd()
		for _, epfd := range g.epfds {
			ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLEXCLUSIVE, Fd: int32(fd)}
			if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
				for _, a := range added {
					unix.EpollCtl(a[0], unix.EPOLL_CTL_DEL, a[1], nil)
				}
				return fmt.Errorf("epoll_ctl for %s: %v", r.port.Name(), err)
			}
			added = append(added, [2]int{epfd, fd})
		}
	}
	s.wake = g.wake
	for _, t := range s.tx {
		t.direct = t.port.(netio.Pollable)
	}
	s.wg.Add(1) // the group's share: done when the group lets go of s
	for i := range s.rxPorts {
		s.wg.Add(1)
		go s.writeLoop(s.tx[s.rxPorts[i].num])
	}
	m := &member{s: s, rx: newRxBuffers()}
	m.nextAt.Store(noDeparture)
	old := *g.members.Load()
	next := append(old[:len(old):len(old)], m)
	g.members.Store(&next)
	g.wakeLocked()
	return nil
}

// Close ends the group's workers once every switch it runs has stopped
// (call Stop on them first); Add fails after it.
func (g *Group) Close() {
	g.mu.Lock()
	g.closed = true
	g.wakeLocked()
	g.mu.Unlock()
	g.workers.Wait()
	g.mu.Lock()
	if g.wakefd >= 0 {
		unix.Close(g.wakefd)
		g.wakefd = -1
	}
	g.mu.Unlock()
}

// wake interrupts the workers' epoll waits.
func (g *Group) wake() {
	g.mu.Lock()
	g.wakeLocked()
	g.mu.Unlock()
}

func (g *Group) wakeLocked() {
	if g.wakefd < 0 {
		return
	}
	var one [8]byte
	binary.NativeEndian.PutUint64(one[:], 1)
	_, _ = unix.Write(g.wakefd, one[:])
}

// remove lets go of a stopped switch (its worker holds it, for good).
func (g *Group) remove(m *member) {
	g.mu.Lock()
	old := *g.members.Load()
	kept := make([]*member, 0, len(old))
	for _, o := range old {
		if o != m {
			kept = append(kept, o)
		}
	}
	g.members.Store(&kept)
	if g.closed && len(kept) == 0 {
		g.wakeLocked() // workers asleep would not see that they are done
	}
	g.mu.Unlock()
	m.s.wg.Done()
}

// member is a switch the group runs, with its pipeline's state.
type member struct {
	s      *Switch
	busy   atomic.Bool // a worker runs the switch's round
	rx     *rxBuffers
	recirc []target.Recirculation
	// nextAt is when the traffic manager next releases a packet (Unix ns;
	// noDeparture: none waits), for workers deciding how long to sleep.
	nextAt atomic.Int64
}

const noDeparture = math.MaxInt64

func (g *Group) work(worker int) {
	defer g.workers.Done()
	epfd := g.epfds[worker]
	defer unix.Close(epfd)
	events := make([]unix.EpollEvent, 64)
	for turn := worker; ; turn++ {
		members := *g.members.Load()
		worked := false
		for k := range members {
			// Workers start at different switches, to collide less.
			m := members[(turn+k)%len(members)]
			if !m.busy.CompareAndSwap(false, true) {
				continue // another worker runs it
			}
			w, stopped := m.round()
			if stopped {
				g.remove(m) // busy stays set: no worker touches m again
				continue
			}
			m.busy.Store(false)
			worked = worked || w
		}
		if worked {
			continue
		}
		g.mu.Lock()
		done := g.closed && len(*g.members.Load()) == 0
		g.mu.Unlock()
		if done {
			return
		}
		// Every ring was empty: sleep until a frame, a call or the next
		// departure from a traffic manager (ns resolution: epoll_pwait2).
		timeout := time.Duration(-1)
		now := time.Now().UnixNano()
		for _, m := range members {
			if at := m.nextAt.Load(); at != noDeparture {
				d := time.Duration(max(at-now, 0)) // due already: no sleep (-1 would mean none)
				if timeout < 0 || d < timeout {
					timeout = d
				}
			}
		}
		if timeout >= 0 && timeout < time.Microsecond {
			continue
		}
		epollWait(epfd, events, timeout)
	}
}

// round is one turn of the switch's pipeline work: egress of what the
// traffic manager releases, a waiting packet-out batch or control call,
// recirculated packets, and one batch from every port. It reports whether
// there was work other than egress, and whether the switch stopped.
func (m *member) round() (worked, stopped bool) {
	s := m.s
	defer func() {
		if at, ok := s.tm.NextDeparture(); ok {
			m.nextAt.Store(s.start.Add(at).UnixNano())
		} else {
			m.nextAt.Store(noDeparture)
		}
	}()
	m.recirc = s.drain(m.recirc)
	s.flushTx()
	select {
	case <-s.stop:
		return false, true
	case batch := <-s.in:
		s.fromCPU(batch)
		worked = true
	case f := <-s.control:
		// Every packet that can leave the traffic manager has left egress:
		// a DATAPLANE_ATOMIC batch falls between packets.
		f()
		worked = true
	default:
	}
	if len(m.recirc) > 0 {
		rs := m.recirc
		m.recirc = nil
		for _, r := range rs {
			if s.pipe != nil {
				s.ingress(target.Arrival{Port: 0, Data: r.Data, Now: s.Now(), Preserved: r.Preserved})
			}
		}
		return true, false
	}
	for i := range s.rxPorts {
		if s.pollPort(&s.rxPorts[i], m.rx) {
			worked = true
			m.recirc = s.drain(m.recirc)
			s.flushTx()
		}
	}
	return worked, false
}

// epollWait waits up to timeout (< 0: no limit) and returns the number of
// events; an interrupted or failed wait returns 0 (the caller looks at
// every port anyway).
func epollWait(epfd int, events []unix.EpollEvent, timeout time.Duration) int {
	var ts *unix.Timespec
	if timeout >= 0 {
		t := unix.NsecToTimespec(int64(timeout))
		ts = &t
	}
	r, _, errno := unix.Syscall6(unix.SYS_EPOLL_PWAIT2, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])),
		uintptr(len(events)), uintptr(unsafe.Pointer(ts)), 0, 0)
	if errno != 0 {
		if errno == unix.ENOSYS { // before Linux 5.11: ms resolution, rounded up
			ms := -1
			if timeout >= 0 {
				ms = int((timeout + time.Millisecond - 1) / time.Millisecond)
			}
			n, _ := unix.EpollWait(epfd, events, ms)
			return max(n, 0)
		}
		return 0
	}
	return int(r)
}
