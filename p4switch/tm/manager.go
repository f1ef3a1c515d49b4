package tm

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"sync/atomic"
	"time"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// Manager holds the egress queues of every port. Enqueue, Dequeue,
// Waiting, NextDeparture, Lose and Flush must be called from one goroutine (the
// switch's pipeline loop); Configure, Config and Stats may be called from any.
type Manager struct {
	ports map[uint32]*port
	order []uint32 // port numbers, for round-robin service
	list  []*port  // ports in the same order
	next  int      // index in order where the next Dequeue scan starts
	rng   *rand.Rand

	noPort atomic.Uint64 // packets for a port the switch does not have
}

type port struct {
	cfg      atomic.Pointer[PortConfig]
	queues   [Priorities]fifo
	waiting  int           // packets in all queues of the port
	bytes    int           // bytes (Length) in all queues of the port
	nextFree time.Duration // when the link finishes sending the last dequeued packet

	enqueued, dequeued, queueDrops, lossDrops atomic.Uint64
	// the most packets and bytes waiting at once since the last ResetPeak
	peakPackets, peakBytes atomic.Uint64
}

// Stats are one port's counters.
type Stats struct {
	Port       uint32 `json:"port"`
	Enqueued   uint64 `json:"enqueued"`
	Dequeued   uint64 `json:"dequeued"`
	QueueDrops uint64 `json:"queue_drops"` // queue full on arrival (or flushed)
	LossDrops  uint64 `json:"loss_drops"`  // random link loss
	// PeakPackets and PeakBytes: the most waiting in the port's queues at
	// once (all priorities) since the start or the last ResetPeak.
	PeakPackets uint64 `json:"peak_packets"`
	PeakBytes   uint64 `json:"peak_bytes"`
}

// New makes a manager for the given ports; seed fixes the loss sequence.
func New(configs map[uint32]PortConfig, seed uint64) (*Manager, error) {
	m := &Manager{ports: map[uint32]*port{}, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	for num, c := range configs {
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("port %d: %v", num, err)
		}
		p := &port{}
		c := c
		p.cfg.Store(&c)
		m.ports[num] = p
		m.order = append(m.order, num)
	}
	sort.Slice(m.order, func(i, j int) bool { return m.order[i] < m.order[j] })
	for _, num := range m.order {
		m.list = append(m.list, m.ports[num])
	}
	return m, nil
}

// Ports lists the port numbers in increasing order.
func (m *Manager) Ports() []uint32 { return append([]uint32(nil), m.order...) }

// Configure replaces a port's configuration at run time.
func (m *Manager) Configure(num uint32, c PortConfig) error {
	p, ok := m.ports[num]
	if !ok {
		return fmt.Errorf("no port %d", num)
	}
	if err := c.Validate(); err != nil {
		return err
	}
	p.cfg.Store(&c)
	return nil
}

// Config returns a port's configuration.
func (m *Manager) Config(num uint32) (PortConfig, bool) {
	p, ok := m.ports[num]
	if !ok {
		return PortConfig{}, false
	}
	return *p.cfg.Load(), true
}

// Stats returns a port's counters.
func (m *Manager) Stats(num uint32) (Stats, bool) {
	p, ok := m.ports[num]
	if !ok {
		return Stats{}, false
	}
	return Stats{Port: num, Enqueued: p.enqueued.Load(), Dequeued: p.dequeued.Load(),
		QueueDrops: p.queueDrops.Load(), LossDrops: p.lossDrops.Load(),
		PeakPackets: p.peakPackets.Load(), PeakBytes: p.peakBytes.Load()}, true
}

// ResetPeak starts a new peak measurement on port num and returns the
// counters with the peak that ended (the peak restarts from what waits now).
func (m *Manager) ResetPeak(num uint32) (Stats, bool) {
	st, ok := m.Stats(num)
	if ok {
		p := m.ports[num]
		p.peakPackets.Store(0)
		p.peakBytes.Store(0)
	}
	return st, ok
}

// NoPortDrops counts packets sent to a port number the switch does not have.
func (m *Manager) NoPortDrops() uint64 { return m.noPort.Load() }

// Enqueue puts a packet in its port's queue at time now. It reports false
// (and counts the drop) if the port does not exist or the queue is full.
func (m *Manager) Enqueue(pkt target.Queued, now time.Duration) bool {
	p, ok := m.ports[pkt.EgressPort]
	if !ok {
		m.noPort.Add(1)
		return false
	}
	prio := min(int(pkt.Priority), Priorities-1)
	q := &p.queues[prio]
	if q.len() >= p.cfg.Load().Depth {
		p.queueDrops.Add(1)
		return false
	}
	q.push(entry{pkt: pkt, enq: now, enqDepth: uint32(q.len())})
	p.waiting++
	p.bytes += pkt.Length
	p.enqueued.Add(1)
	if uint64(p.waiting) > p.peakPackets.Load() {
		p.peakPackets.Store(uint64(p.waiting))
	}
	if uint64(p.bytes) > p.peakBytes.Load() {
		p.peakBytes.Store(uint64(p.bytes))
	}
	return true
}

// Dequeue takes the next packet whose port's link is free at time now,
// serving ports round-robin and priorities strictly (highest first).
func (m *Manager) Dequeue(now time.Duration) (target.Queued, target.QueueMeta, bool) {
	for i := range m.list {
		idx := (m.next + i) % len(m.list)
		p := m.list[idx]
		if p.waiting == 0 || p.nextFree > now {
			continue
		}
		for prio := Priorities - 1; prio >= 0; prio-- {
			q := &p.queues[prio]
			if q.len() == 0 {
				continue
			}
			e := q.pop()
			p.waiting--
			p.bytes -= e.pkt.Length
			p.dequeued.Add(1)
			if rate := p.cfg.Load().RateBps; rate > 0 {
				// Service starts when the link is free or the packet arrived,
				// whichever is later; late wake-ups keep the long-run rate.
				start := max(p.nextFree, e.enq)
				p.nextFree = start + time.Duration(uint64(e.pkt.Length)*8*uint64(time.Second)/rate)
			}
			m.next = (idx + 1) % len(m.list)
			return e.pkt, target.QueueMeta{
				EnqTimestamp: e.enq,
				EnqQdepth:    e.enqDepth,
				DeqTimedelta: now - e.enq,
				DeqQdepth:    uint32(q.len()),
				Now:          now,
			}, true
		}
	}
	return target.Queued{}, target.QueueMeta{}, false
}

// Waiting is the number of packets in all queues.
func (m *Manager) Waiting() int {
	n := 0
	for _, p := range m.list {
		n += p.waiting
	}
	return n
}

// NextDeparture is the earliest time a waiting packet may be dequeued.
func (m *Manager) NextDeparture() (time.Duration, bool) {
	var at time.Duration
	found := false
	for _, p := range m.list {
		if p.waiting > 0 && (!found || p.nextFree < at) {
			at, found = p.nextFree, true
		}
	}
	return at, found
}

// Lose decides whether a frame leaving port num is lost on the wire, and
// counts it if so.
func (m *Manager) Lose(num uint32) bool {
	p, ok := m.ports[num]
	if !ok {
		return false
	}
	loss := p.cfg.Load().Loss
	if loss > 0 && m.rng.Float64() < loss {
		p.lossDrops.Add(1)
		return true
	}
	return false
}

// Delay is the propagation delay of port num.
func (m *Manager) Delay(num uint32) time.Duration {
	if p, ok := m.ports[num]; ok {
		return p.cfg.Load().Delay
	}
	return 0
}

// Flush drops every waiting packet (used when the pipeline is replaced,
// since queued packets carry the old pipeline's state).
func (m *Manager) Flush() {
	for _, p := range m.ports {
		for i := range p.queues {
			p.queueDrops.Add(uint64(p.queues[i].len()))
			p.queues[i].clear()
		}
		p.waiting = 0
		p.bytes = 0
	}
}
