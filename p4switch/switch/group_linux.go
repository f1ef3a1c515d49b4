package sw

import (
	"encoding/binary"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/fairfabric/fairfabric/p4switch/netio"
	"github.com/fairfabric/fairfabric/p4switch/target"
)

// Group runs the pipelines of one or more switches on one goroutine that
// waits in its own epoll instance on every port of those switches.
//
// Start's way costs several goroutine wake-ups per frame when a switch is
// idle between frames (as each hop of an emulated fabric is): a waiter
// goroutine per port parked in Go's netpoller, a channel to the pipeline
// goroutine, a channel to the port's writer goroutine, and re-arming every
// waiter afterwards. A Group's goroutine instead reads every ring, runs the
// pipeline and writes the frames with a non-blocking sendmmsg itself, then
// looks at every ring again before it sleeps. When one process hosts several
// switches of a fabric, a frame sent on a veth is usually in the next
// switch's ring when sendmmsg returns (the kernel delivers it in the same
// system call), so one wake-up can carry a frame across several hops.
//
// The writer goroutines remain for frames that must wait (propagation
// delay) or that the socket cannot take now; a port's frames go directly
// only while its writer holds none, so they stay in order.
type Group struct {
	epfd int

	mu     sync.Mutex // guards wakefd against Close
	wakefd int        // eventfd: a switch has a call, a packet-out, or stops
	closed bool

	add  chan *Switch
	done chan struct{}
}

// wakeTag marks the eventfd's epoll events (port events carry no tag: every
// ring is looked at after any wake-up).
const wakeTag = -1

// NewGroup starts an empty group; Add gives it switches.
func NewGroup() (*Group, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %v", err)
	}
	wakefd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(epfd)
		return nil, fmt.Errorf("eventfd: %v", err)
	}
	ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: wakeTag}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, wakefd, &ev); err != nil {
		unix.Close(epfd)
		unix.Close(wakefd)
		return nil, fmt.Errorf("epoll_ctl: %v", err)
	}
	g := &Group{epfd: epfd, wakefd: wakefd, add: make(chan *Switch, 64), done: make(chan struct{})}
	go g.run()
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
	for i, r := range s.rxPorts {
		ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(r.port.(netio.Pollable).Fd())}
		if err := unix.EpollCtl(g.epfd, unix.EPOLL_CTL_ADD, int(ev.Fd), &ev); err != nil {
			for _, done := range s.rxPorts[:i] {
				unix.EpollCtl(g.epfd, unix.EPOLL_CTL_DEL, done.port.(netio.Pollable).Fd(), nil)
			}
			return fmt.Errorf("epoll_ctl for %s: %v", r.port.Name(), err)
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
	g.add <- s
	g.wake()
	return nil
}

// Close ends the group's goroutine once every switch it runs has stopped
// (call Stop on them first).
func (g *Group) Close() {
	g.mu.Lock()
	if !g.closed {
		g.closed = true
		close(g.add)
	}
	g.mu.Unlock()
	g.wake()
	<-g.done
}

// wake interrupts the group's epoll wait.
func (g *Group) wake() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.wakefd < 0 {
		return
	}
	var one [8]byte
	binary.NativeEndian.PutUint64(one[:], 1)
	_, _ = unix.Write(g.wakefd, one[:])
}

// member is a switch the group runs, with its pipeline goroutine's state.
type member struct {
	s      *Switch
	rx     *rxBuffers
	recirc []target.Recirculation
}

func (g *Group) run() {
	defer close(g.done)
	var members []*member
	events := make([]unix.EpollEvent, 64)
	adding := true
	for {
		if adding {
			for more := true; more; {
				select {
				case s, ok := <-g.add:
					if !ok {
						adding = false
						more = false
						break
					}
					members = append(members, &member{s: s, rx: newRxBuffers()})
				default:
					more = false
				}
			}
		}
		worked := false
		for i := 0; i < len(members); {
			m := members[i]
			w, stopped := m.round()
			if stopped {
				members = append(members[:i], members[i+1:]...)
				m.s.wg.Done()
				continue
			}
			worked = worked || w
			i++
		}
		if !adding && len(members) == 0 {
			g.mu.Lock()
			unix.Close(g.wakefd)
			g.wakefd = -1
			g.mu.Unlock()
			unix.Close(g.epfd)
			return
		}
		if worked {
			continue
		}
		// Every ring is empty: sleep until a frame, a call or the next
		// departure from a traffic manager (ns resolution: epoll_pwait2).
		timeout := time.Duration(-1)
		for _, m := range members {
			if at, ok := m.s.tm.NextDeparture(); ok {
				d := max(at-m.s.Now(), 0) // due already: no sleep (-1 would mean none)
				if timeout < 0 || d < timeout {
					timeout = d
				}
			}
		}
		if timeout == 0 || (timeout > 0 && timeout < time.Microsecond) {
			continue
		}
		n := epollWait(g.epfd, events, timeout)
		for _, ev := range events[:n] {
			if ev.Fd == wakeTag {
				g.mu.Lock()
				var buf [8]byte
				_, _ = unix.Read(g.wakefd, buf[:])
				g.mu.Unlock()
			}
		}
	}
}

// round is one turn of the switch's pipeline work: egress of what the
// traffic manager releases, a waiting packet-out batch or control call,
// recirculated packets, and one batch from every port. It reports whether
// there was work other than egress, and whether the switch stopped.
func (m *member) round() (worked, stopped bool) {
	s := m.s
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
