// Package sw is the switch glue (directory "switch"; switch is a Go
// keyword): ports → Ingress → traffic manager → Egress → ports or CPU.
//
// A single pipeline goroutine reads the ports (non-blocking, in turn), runs
// Ingress and Egress and owns the traffic manager, so the hot path takes no
// locks and no goroutine hand-off on receive. Frames are read straight into
// a reused slab whenever no packet waits in the traffic manager. After each
// port's batch the packets the traffic manager releases go through egress
// and to the writers at once, so that writing overlaps reading the next port. When every port is empty it
// sleeps; one waiter goroutine per port wakes it when a frame arrives. One
// goroutine writes each port (holding frames for the port's propagation
// delay); frames reach it in batches through a channel.
//
// Instead of Start, a Group (group_linux.go) can run switches whose ports
// are netio.Pollable: one goroutine waits in epoll on every port of all its
// switches, runs their pipelines in turn and writes frames itself (no waiter
// goroutines, no hand-off to a writer unless a frame must wait).
package sw

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fairfabric/fairfabric/p4switch/netio"
	"github.com/fairfabric/fairfabric/p4switch/target"
	"github.com/fairfabric/fairfabric/p4switch/tm"
)

// Config describes a switch's ports.
type Config struct {
	Ports   map[uint32]netio.Port    // data-plane ports by number
	Queues  map[uint32]tm.PortConfig // per port; ports missing here get DefaultConfig
	CPUPort uint32                   // 0 = none; packets to it go to OnPacketIn
	Seed    uint64                   // random loss sequence
	Log     *slog.Logger
	// PollSpin is how long the pipeline goroutine keeps polling empty
	// ports before it sleeps (0: it sleeps at once). A sleeping switch
	// needs a wake-up per frame; polling a little longer saves it when
	// frames come back to back, at the price of CPU time.
	PollSpin time.Duration
}

// Switch runs packets through the loaded pipeline.
type Switch struct {
	cfg   Config
	log   *slog.Logger
	tm    *tm.Manager
	start time.Time

	pipe    target.Pipeline       // owned by the pipeline goroutine
	recycle target.OutputRecycler // pipe's, if it recycles output buffers; owned likewise
	in      chan []arrival        // frames from the CPU (packet-out)
	rxPorts []rxPort              // polled by the pipeline goroutine, in port order
	rxReady chan struct{}         // a waiter saw a frame waiting
	control chan func()
	tx      map[uint32]*txPort
	stop    chan struct{}
	wg      sync.WaitGroup
	stopped atomic.Bool

	// wake interrupts the Group running the switch when it sleeps (nil
	// when Start runs it); called after a send on in or control, or Stop.
	wake func()

	onPacketIn atomic.Pointer[func([]byte, time.Time)]
	onDigest   atomic.Pointer[func([]target.Digest)]

	Counters Counters
}

// Counters are switch-wide packet counters.
type Counters struct {
	Received, NoPipeline, PacketIns, RecircDrops, TxQueueDrops atomic.Uint64
}

type arrival struct {
	port uint32
	data []byte
}

type txItem struct {
	data    []byte
	at      time.Duration         // release time (propagation delay)
	recycle target.OutputRecycler // takes data back once sent (nil: none)
}

// rxPort is a port as the pipeline goroutine reads it.
type rxPort struct {
	num  uint32
	port netio.Port
	arm  chan struct{} // tells the port's waiter to wait for the next frame
	dead bool          // the port failed; no longer polled
}

type txPort struct {
	port netio.Port
	ch   chan []txItem // batches from the pipeline goroutine to the writer
	free chan []txItem // emptied batches back to the pipeline goroutine
	sent atomic.Uint64

	pending []txItem // owned by the pipeline goroutine until flushed

	// In a Group, the pipeline's goroutine writes due frames itself
	// (direct) while no batch is with the writer (inflight 0), which keeps
	// the port's frames in order.
	direct   netio.Pollable
	inflight atomic.Int32
	frames   [][]byte // scratch for direct writes
}

// txDepth is how many batches may wait for their port's writer goroutine.
const txDepth = 1024

// maxRecirc bounds recirculated packets waiting in one loop iteration, so a
// program that recirculates forever cannot wedge the switch.
const maxRecirc = 1024

// New makes a switch; Start runs it.
func New(cfg Config) (*Switch, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if _, clash := cfg.Ports[cfg.CPUPort]; clash && cfg.CPUPort != 0 {
		return nil, fmt.Errorf("port %d is both the CPU port and an interface", cfg.CPUPort)
	}
	queues := map[uint32]tm.PortConfig{}
	for num := range cfg.Ports {
		c, ok := cfg.Queues[num]
		if !ok {
			c = tm.DefaultConfig()
		}
		queues[num] = c
	}
	for num := range cfg.Queues {
		if _, ok := cfg.Ports[num]; !ok && num != cfg.CPUPort {
			return nil, fmt.Errorf("queue settings for port %d, which has no interface", num)
		}
	}
	if cfg.CPUPort != 0 {
		c, ok := cfg.Queues[cfg.CPUPort]
		if !ok {
			c = tm.DefaultConfig()
			c.Depth = 1024
		}
		queues[cfg.CPUPort] = c
	}
	m, err := tm.New(queues, cfg.Seed)
	if err != nil {
		return nil, err
	}
	s := &Switch{
		cfg: cfg, log: cfg.Log, tm: m, start: time.Now(),
		in: make(chan []arrival, 1024), control: make(chan func(), 1), rxReady: make(chan struct{}, 1),
		tx: map[uint32]*txPort{}, stop: make(chan struct{}),
	}
	for num, p := range cfg.Ports {
		s.tx[num] = &txPort{port: p, ch: make(chan []txItem, txDepth), free: make(chan []txItem, txDepth+1)}
		s.rxPorts = append(s.rxPorts, rxPort{num: num, port: p, arm: make(chan struct{}, 1)})
	}
	sort.Slice(s.rxPorts, func(i, j int) bool { return s.rxPorts[i].num < s.rxPorts[j].num })
	return s, nil
}

// TM is the traffic manager, for the admin interface.
func (s *Switch) TM() *tm.Manager { return s.tm }

// CPUPort is the configured CPU port number (0 = none).
func (s *Switch) CPUPort() uint32 { return s.cfg.CPUPort }

// Now is the switch clock.
func (s *Switch) Now() time.Duration { return time.Since(s.start) }

// OnPacketIn sets the function that receives frames the pipeline sends to
// the CPU port (still carrying the packet_in header) and when they were
// made: when they entered the CPU port's queue (for a clone, when the
// pipeline cloned the packet). It runs on the pipeline goroutine and must
// not block.
func (s *Switch) OnPacketIn(f func(frame []byte, made time.Time)) { s.onPacketIn.Store(&f) }

// OnDigest sets the function that receives digests; it must not block.
func (s *Switch) OnDigest(f func([]target.Digest)) { s.onDigest.Store(&f) }

// Start runs the port and pipeline goroutines.
func (s *Switch) Start() {
	s.wg.Add(1)
	go s.pipelineLoop()
	for i := range s.rxPorts {
		s.wg.Add(2)
		go s.waitLoop(&s.rxPorts[i])
		go s.writeLoop(s.tx[s.rxPorts[i].num])
	}
}

// Stop closes the ports and waits for every goroutine to end.
func (s *Switch) Stop() {
	if s.stopped.Swap(true) {
		return
	}
	close(s.stop)
	if s.wake != nil {
		s.wake()
	}
	for _, p := range s.cfg.Ports {
		p.Close()
	}
	s.wg.Wait()
}

// errStopped is returned by calls made after Stop.
var errStopped = errors.New("switch stopped")

// SetPipeline replaces the running pipeline (nil unloads it). Packets
// queued for the old pipeline are dropped.
func (s *Switch) SetPipeline(p target.Pipeline) error {
	return s.do(func() {
		s.tm.Flush()
		s.pipe = p
		s.recycle, _ = p.(target.OutputRecycler)
	})
}

// Atomically runs f while no packet is in the ingress or egress pipeline
// (on the pipeline goroutine); packets keep arriving and wait.
func (s *Switch) Atomically(f func()) error { return s.do(f) }

// do runs f on the pipeline goroutine and waits for it.
func (s *Switch) do(f func()) error {
	done := make(chan struct{})
	select {
	case s.control <- func() { f(); close(done) }:
	case <-s.stop:
		return errStopped
	}
	if s.wake != nil {
		s.wake()
	}
	select {
	case <-done:
		return nil
	case <-s.stop:
		// The loop may have stopped before it took f.
		select {
		case <-done:
			return nil
		case <-time.After(time.Second):
			return errStopped
		}
	}
}

// InjectFromCPU sends a frame (starting with the packet_out header) into
// the ingress pipeline on the CPU port.
func (s *Switch) InjectFromCPU(frame []byte) error {
	if s.cfg.CPUPort == 0 {
		return errors.New("no CPU port configured")
	}
	select {
	case s.in <- []arrival{{port: s.cfg.CPUPort, data: frame}}:
		if s.wake != nil {
			s.wake()
		}
		return nil
	case <-s.stop:
		return errStopped
	}
}

// waitLoop wakes the pipeline goroutine when a frame is waiting on r, each
// time the pipeline goroutine arms it (after finding every port empty).
func (s *Switch) waitLoop(r *rxPort) {
	defer s.wg.Done()
	for {
		select {
		case <-r.arm:
		case <-s.stop:
			return
		}
		if err := r.port.WaitReadable(); err != nil {
			if !s.stopped.Load() {
				s.log.Error("port wait failed; port stops receiving", "port", r.num, "if", r.port.Name(), "err", err)
			}
			return
		}
		select {
		case s.rxReady <- struct{}{}:
		default: // the pipeline goroutine has a wake-up pending already
		}
	}
}

// rxBuffers are the pipeline goroutine's receive buffers.
//
// The pipeline refers to a frame until the packet leaves egress. When no
// packet waits in the traffic manager, nothing refers to earlier frames, so
// frames are read straight into the reusable slab (no copy, no allocation).
// Otherwise they are read into bufs and copied into a new slab of their
// exact size, which the garbage collector frees once they have left.
type rxBuffers struct {
	bufs [][]byte // MaxFrame each
	slab [][]byte // MaxFrame each, slices of one reusable allocation
	lens []int
}

func newRxBuffers() *rxBuffers {
	b := &rxBuffers{bufs: make([][]byte, netio.Batch), slab: make([][]byte, netio.Batch), lens: make([]int, netio.Batch)}
	slab := make([]byte, netio.Batch*netio.MaxFrame)
	for i := range b.bufs {
		b.bufs[i] = make([]byte, netio.MaxFrame)
		b.slab[i] = slab[i*netio.MaxFrame : (i+1)*netio.MaxFrame : (i+1)*netio.MaxFrame]
	}
	return b
}

// pollPort reads one batch from port r and runs ingress on it; it reports
// whether the port had frames.
func (s *Switch) pollPort(r *rxPort, rx *rxBuffers) bool {
	if r.dead {
		return false
	}
	direct := s.tm.Waiting() == 0
	bufs := rx.bufs
	if direct {
		bufs = rx.slab
	}
	n, err := r.port.TryReadBatch(bufs, rx.lens)
	if err != nil {
		r.dead = true
		if !s.stopped.Load() {
			s.log.Error("port read failed; port stops receiving", "port", r.num, "if", r.port.Name(), "err", err)
		}
		return false
	}
	if n == 0 {
		return false
	}
	s.Counters.Received.Add(uint64(n))
	if s.pipe == nil {
		s.Counters.NoPipeline.Add(uint64(n))
		return true
	}
	now := s.Now()
	if direct {
		for k := 0; k < n; k++ {
			l := rx.lens[k]
			s.ingress(target.Arrival{Port: r.num, Data: bufs[k][:l:l], Now: now})
		}
		return true
	}
	total := 0
	for k := 0; k < n; k++ {
		total += rx.lens[k]
	}
	slab, off := make([]byte, total), 0
	for k := 0; k < n; k++ {
		l := copy(slab[off:], bufs[k][:rx.lens[k]])
		s.ingress(target.Arrival{Port: r.num, Data: slab[off : off+l : off+l], Now: now})
		off += l
	}
	return true
}

// armWaiters asks every port's waiter to wake the pipeline goroutine at the
// next frame.
func (s *Switch) armWaiters() {
	for i := range s.rxPorts {
		select {
		case s.rxPorts[i].arm <- struct{}{}:
		default: // armed already
		}
	}
}

func (s *Switch) writeLoop(t *txPort) {
	defer s.wg.Done()
	frames := make([][]byte, 0, netio.Batch)
	recyclers := make([]target.OutputRecycler, 0, netio.Batch)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	write := func() {
		if len(frames) == 0 {
			return
		}
		if err := t.port.WriteBatch(frames); err != nil && !s.stopped.Load() {
			s.log.Warn("port write failed", "if", t.port.Name(), "err", err)
		}
		t.sent.Add(uint64(len(frames)))
		for i, r := range recyclers {
			if r != nil {
				r.RecycleOutput(frames[i])
			}
		}
		clear(frames)
		clear(recyclers)
		frames, recyclers = frames[:0], recyclers[:0]
	}
	for {
		batch, ok := s.nextTxBatch(t)
		if !ok {
			return
		}
		now := s.Now()
		for _, it := range batch {
			if wait := it.at - now; wait > 0 { // propagation delay
				write()
				timer.Reset(wait)
				select {
				case <-timer.C:
				case <-s.stop:
					return
				}
				now = s.Now()
			}
			frames = append(frames, it.data)
			recyclers = append(recyclers, it.recycle)
			if len(frames) == netio.Batch {
				write()
			}
		}
		write()
		t.inflight.Add(-1)
		clear(batch)
		select {
		case t.free <- batch[:0]:
		default:
		}
	}
}

// nextTxBatch waits for the writer's next batch (polling for PollSpin
// first); false once the switch stops.
func (s *Switch) nextTxBatch(t *txPort) ([]txItem, bool) {
	if s.cfg.PollSpin > 0 {
		for deadline := time.Now().Add(s.cfg.PollSpin); time.Now().Before(deadline); {
			select {
			case batch := <-t.ch:
				return batch, true
			default:
			}
		}
	}
	select {
	case batch := <-t.ch:
		return batch, true
	case <-s.stop:
		return nil, false
	}
}

// flushTx hands every port's pending frames to its writer.
func (s *Switch) flushTx() {
	for _, t := range s.tx {
		if len(t.pending) == 0 {
			continue
		}
		if t.direct != nil && t.inflight.Load() == 0 && s.writeDirect(t) {
			continue
		}
		t.inflight.Add(1)
		select {
		case t.ch <- t.pending:
		default:
			t.inflight.Add(-1)
			s.Counters.TxQueueDrops.Add(uint64(len(t.pending)))
			clear(t.pending)
			t.pending = t.pending[:0]
			continue
		}
		select {
		case t.pending = <-t.free:
		default:
			t.pending = make([]txItem, 0, netio.Batch)
		}
	}
}

// writeDirect sends t's pending frames from the pipeline's goroutine if
// they are due (no propagation delay left) and reports whether all went;
// those the socket cannot take now stay pending, for the writer.
func (s *Switch) writeDirect(t *txPort) bool {
	now := s.Now()
	frames := t.frames[:0]
	for _, it := range t.pending {
		if it.at > now {
			return false
		}
		frames = append(frames, it.data)
	}
	n, err := t.direct.TryWriteBatch(frames)
	if err != nil {
		if !s.stopped.Load() {
			s.log.Warn("port write failed", "if", t.port.Name(), "err", err)
		}
		n = len(frames) // as the writer does: the frames are gone
	}
	t.sent.Add(uint64(n))
	for _, it := range t.pending[:n] {
		if it.recycle != nil {
			it.recycle.RecycleOutput(it.data)
		}
	}
	clear(frames)
	t.frames = frames[:0]
	left := copy(t.pending, t.pending[n:])
	clear(t.pending[left:])
	t.pending = t.pending[:left]
	return left == 0
}

// drain runs egress on every packet the traffic manager releases now and
// returns recirc with the packets egress recirculated appended.
func (s *Switch) drain(recirc []target.Recirculation) []target.Recirculation {
	now := s.Now()
	for {
		q, meta, ok := s.tm.Dequeue(now)
		if !ok {
			return recirc
		}
		if s.pipe == nil {
			continue
		}
		res := s.pipe.Egress(q, meta)
		s.handleEgress(res, now, meta.EnqTimestamp)
		for _, r := range res.Recirc {
			if len(recirc) >= maxRecirc {
				s.Counters.RecircDrops.Add(1)
				continue
			}
			recirc = append(recirc, r)
		}
	}
}

func (s *Switch) pipelineLoop() {
	defer s.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var recirc []target.Recirculation
	rx := newRxBuffers()
	busy := false               // the last round read frames
	var idleSince time.Duration // when the ports were found empty (0: they were not)
	for {
		recirc = s.drain(recirc)
		if busy {
			// Busy ports must not starve packet-outs, control calls or Stop.
			// Control calls run here, when every packet that can leave the
			// traffic manager has left egress: a DATAPLANE_ATOMIC batch
			// then falls between packets (except those held by a rate limit).
			busy = false
			select {
			case batch := <-s.in:
				s.fromCPU(batch)
			case f := <-s.control:
				f()
			case <-s.stop:
				return
			default:
			}
		}
		if len(recirc) > 0 {
			rs := recirc
			recirc = nil
			for _, r := range rs {
				if s.pipe != nil {
					s.ingress(target.Arrival{Port: 0, Data: r.Data, Now: s.Now(), Preserved: r.Preserved})
				}
			}
			continue
		}
		got := false
		for i := range s.rxPorts {
			if s.pollPort(&s.rxPorts[i], rx) {
				// Egress and hand the frames over port by port, so that
				// the writers start while the next port is read.
				got = true
				recirc = s.drain(recirc)
				s.flushTx()
			}
		}
		s.flushTx() // what the first drain released
		if got {
			busy = true
			idleSince = 0
			continue
		}
		if s.cfg.PollSpin > 0 {
			if now := s.Now(); idleSince == 0 {
				idleSince = now
				continue
			} else if now-idleSince < s.cfg.PollSpin {
				continue
			}
			idleSince = 0
		}
		var wake <-chan time.Time
		if at, ok := s.tm.NextDeparture(); ok {
			if wait := at - s.Now(); wait <= 0 {
				continue
			} else {
				timer.Reset(wait)
				wake = timer.C
			}
		}
		s.armWaiters()
		select {
		case <-s.rxReady:
		case batch := <-s.in:
			s.fromCPU(batch)
		case f := <-s.control:
			f()
		case <-wake:
			wake = nil
		case <-s.stop:
			return
		}
		if wake != nil {
			timer.Stop() // Go ≥1.23: no stale tick is left in timer.C
		}
	}
}

// fromCPU runs ingress on packet-outs.
func (s *Switch) fromCPU(batch []arrival) {
	s.Counters.Received.Add(uint64(len(batch)))
	if s.pipe == nil {
		s.Counters.NoPipeline.Add(uint64(len(batch)))
		return
	}
	now := s.Now()
	for _, a := range batch {
		s.ingress(target.Arrival{Port: a.port, Data: a.data, Now: now})
	}
}

func (s *Switch) ingress(a target.Arrival) {
	res := s.pipe.Ingress(a)
	for _, q := range res.Queued {
		s.tm.Enqueue(q, a.Now)
	}
	s.digests(res.Digests)
}

func (s *Switch) handleEgress(res target.EgressResult, now, enqueued time.Duration) {
	for _, q := range res.Queued {
		s.tm.Enqueue(q, now)
	}
	s.digests(res.Digests)
	out := res.Out
	if out == nil || len(out.Data) == 0 {
		return
	}
	if out.Port == s.cfg.CPUPort && s.cfg.CPUPort != 0 {
		s.Counters.PacketIns.Add(1)
		if f := s.onPacketIn.Load(); f != nil {
			(*f)(out.Data, s.start.Add(enqueued))
		}
		return
	}
	t, ok := s.tx[out.Port]
	if !ok || s.tm.Lose(out.Port) {
		if s.recycle != nil {
			s.recycle.RecycleOutput(out.Data)
		}
		return
	}
	t.pending = append(t.pending, txItem{data: out.Data, at: now + s.tm.Delay(out.Port), recycle: s.recycle})
	if len(t.pending) >= netio.Batch {
		s.flushTx()
	}
}

func (s *Switch) digests(ds []target.Digest) {
	if len(ds) == 0 {
		return
	}
	if f := s.onDigest.Load(); f != nil {
		(*f)(ds)
	}
}

// Sent counts frames handed to port num's interface.
func (s *Switch) Sent(num uint32) uint64 {
	if t, ok := s.tx[num]; ok {
		return t.sent.Load()
	}
	return 0
}
