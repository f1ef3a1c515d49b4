package transport

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/coding"
)

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("rlnc: sender closed")

// SenderStats counts what the sender did, and where the session stands.
type SenderStats struct {
	NewPackets, RepairPackets, Acks, BadAcks uint64
	PathPackets                              map[uint16]uint64
	PathBytes                                map[uint16]uint64 // datagram bytes (RLNC header + payload)
	DecodedBytes                             uint64            // stream bytes the receiver acknowledged as decoded
	Sent, Seen, Decoded                      uint32            // next new packet; the receiver's seen and decoded points
	Paths                                    []Path            // the paths and allocated rates in force
	SRTT, RTO                                time.Duration
}

// Sender codes one session's byte stream. Write blocks while the receiver's decoder
// would overflow (flow control); coded packets leave paced at the paths' rates.
type Sender struct {
	cfg  Config
	link Link
	acks *net.UDPConn

	mu      sync.Mutex
	cond    *sync.Cond // flow control and Close wait on it
	enc     *coding.Encoder
	pacer   *pacer
	nextNew uint32 // next original packet to send for the first time
	ackSeen uint32 // the receiver's seen point, as last acknowledged
	ackDec  uint32 // the receiver's decoded point
	missing int
	sentAt  []time.Time // first send time by seq & (capacity-1)
	dataLen []uint16    // stream bytes in each packet, by seq & (capacity-1), until decoded
	seenAt  time.Time   // when ackSeen last moved
	repairs int         // repair packets still to send in the current round
	lastRep time.Time
	srtt    time.Duration
	rttvar  time.Duration
	closing bool
	stopped bool
	stats   SenderStats

	wake chan struct{}
	done chan struct{}
	wg   sync.WaitGroup
	sym  []byte
}

// NewSender starts a sender that sends through link, spreads over paths and reads the
// receiver's acknowledgements from acks (the socket whose address the datagrams carry
// as their source). Close stops it.
func NewSender(cfg Config, paths []Path, link Link, acks *net.UDPConn) (*Sender, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	if err := checkPaths(paths); err != nil {
		return nil, err
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	enc, err := coding.NewEncoder(cfg.SymbolSize, rand.New(rand.NewPCG(seed, uint64(cfg.Session))))
	if err != nil {
		return nil, err
	}
	s := &Sender{
		cfg: cfg, link: link, acks: acks, enc: enc,
		pacer:   newPacer(paths, cfg.Burst, time.Now()),
		sentAt:  make([]time.Time, cfg.Capacity),
		dataLen: make([]uint16, cfg.Capacity),
		srtt:    cfg.MinRTO / 2,
		seenAt:  time.Now(),
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		sym:     make([]byte, cfg.SymbolSize),
		stats:   SenderStats{PathPackets: map[uint16]uint64{}, PathBytes: map[uint16]uint64{}},
	}
	s.cond = sync.NewCond(&s.mu)
	s.wg.Add(2)
	go s.sendLoop()
	go s.ackLoop()
	return s, nil
}

// SetPaths replaces the paths and rates (a new rates table was applied).
func (s *Sender) SetPaths(paths []Path) error {
	if err := checkPaths(paths); err != nil {
		return err
	}
	s.mu.Lock()
	s.pacer = newPacer(paths, s.cfg.Burst, time.Now())
	s.mu.Unlock()
	return nil
}

// Write queues b for coding; it returns once every byte is in the coding buffer.
func (s *Sender) Write(b []byte) (int, error) {
	n := 0
	max := s.cfg.SymbolSize - 2
	for n < len(b) {
		chunk := b[n:min(len(b), n+max)]
		if err := s.push(chunk, false); err != nil {
			return n, err
		}
		n += len(chunk)
	}
	return n, nil
}

func (s *Sender) push(data []byte, fin bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.stopped && (s.closing && !fin || s.enc.End()-s.ackDec >= uint32(s.cfg.Capacity)) {
		if s.closing && !fin {
			return ErrClosed
		}
		s.cond.Wait()
	}
	if s.stopped {
		return ErrClosed
	}
	word := uint16(len(data))
	if fin {
		word |= finBit
	}
	binary.BigEndian.PutUint16(s.sym, word)
	copy(s.sym[2:], data)
	s.dataLen[s.enc.End()&uint32(s.cfg.Capacity-1)] = uint16(len(data)) // flow control keeps the slot until decoded
	if _, err := s.enc.Push(s.sym[:2+len(data)]); err != nil {
		return err
	}
	s.kick()
	return nil
}

func (s *Sender) kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Close sends the end of the stream and waits until the receiver has decoded
// everything, or timeout; then it stops the sender (the link and socket stay the
// caller's).
func (s *Sender) Close(timeout time.Duration) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return ErrClosed
	}
	s.mu.Unlock()
	// The timeout covers the end-of-stream push too: it may wait for flow control.
	t := time.AfterFunc(timeout, func() { s.mu.Lock(); s.stopped = true; s.cond.Broadcast(); s.mu.Unlock() })
	defer t.Stop()
	err := s.push(nil, true)
	s.mu.Lock()
	s.closing = true
	for err == nil && !s.stopped && s.ackDec != s.enc.End() {
		s.cond.Wait()
	}
	if s.ackDec != s.enc.End() {
		err = fmt.Errorf("rlnc: close: receiver decoded up to %d of %d after %s", s.ackDec, s.enc.End(), timeout)
	}
	s.stopped = true
	s.cond.Broadcast()
	s.mu.Unlock()
	close(s.done)
	_ = s.acks.SetReadDeadline(time.Now()) // unblocks the ack loop
	s.wg.Wait()
	return err
}

// Stats returns a copy of the counters.
func (s *Sender) Stats() SenderStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.PathPackets, st.PathBytes = map[uint16]uint64{}, map[uint16]uint64{}
	for k, v := range s.stats.PathPackets {
		st.PathPackets[k] = v
	}
	for k, v := range s.stats.PathBytes {
		st.PathBytes[k] = v
	}
	st.Sent, st.Seen, st.Decoded = s.nextNew, s.ackSeen, s.ackDec
	st.Paths = append([]Path(nil), s.pacer.paths...)
	st.SRTT, st.RTO = s.srtt, s.rto()
	return st
}

func (s *Sender) rto() time.Duration {
	return min(s.cfg.MaxRTO, max(s.cfg.MinRTO, s.srtt+4*s.rttvar))
}

// sendLoop sends a coded packet whenever there is a new original packet or a repair
// is due, on the path the pacer picks, when the pacer allows.
func (s *Sender) sendLoop() {
	defer s.wg.Done()
	var p coding.Packet
	var buf []byte
	timer := time.NewTimer(time.Hour)
	idle := true // nothing was waiting to be sent before this packet
	for {
		s.mu.Lock()
		if s.stopped {
			s.mu.Unlock()
			return
		}
		now := time.Now()
		s.planRepairs(now)
		isNew := s.nextNew != s.enc.End()
		if s.repairs == 0 && !isNew {
			idle = true
			wait := 50 * time.Millisecond
			if s.ackSeen != s.nextNew {
				wait = max(time.Millisecond, s.stallSince().Add(s.rto()).Sub(now))
			}
			s.mu.Unlock()
			timer.Reset(wait)
			select {
			case <-s.wake:
			case <-timer.C:
			case <-s.done:
				return
			}
			continue
		}
		idx, wait := s.pacer.pick(now)
		if wait > 0 {
			s.mu.Unlock()
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-s.done:
				return
			}
			continue
		}
		path := s.pacer.paths[idx].ID
		var err error
		if s.repairs > 0 { // repairs first: they unblock the receiver
			start := s.ackSeen
			err = s.enc.Encode(start, min(s.cfg.Window, int(s.nextNew-start)), &p)
			s.repairs--
			s.stats.RepairPackets++
			s.lastRep = now
		} else {
			j := s.nextNew
			start := s.ackSeen
			if int32(j+1-uint32(s.cfg.Window)-start) > 0 {
				start = j + 1 - uint32(s.cfg.Window)
			}
			err = s.enc.Encode(start, int(j+1-start), &p)
			s.sentAt[j&uint32(s.cfg.Capacity-1)] = now
			s.nextNew++
			s.stats.NewPackets++
		}
		if err != nil { // an invariant broke: never expected
			s.mu.Unlock()
			panic(err)
		}
		p.PathID, p.Session = path, s.cfg.Session
		buf, _ = p.AppendTo(buf[:0])
		s.pacer.sent(idx, frameBytes(len(buf), path), now, !idle)
		idle = false
		s.stats.PathPackets[path]++
		s.stats.PathBytes[path] += uint64(len(buf))
		s.mu.Unlock()
		_ = s.link.Send(path, buf) // a lost datagram is a loss the code repairs
	}
}

// frameBytes is what a coded datagram of n bytes occupies on the fabric's links, the unit the
// allocation counts (docs/guarantees.md): IPv4, UDP and Ethernet headers and, on a pinned path,
// the 802.1Q tag and the pipeline's fabric header (as the shim's classRate). Pacing the datagram
// alone overran each path's links by 3.5 %: standing queues built along the paths until the
// flow-control window limited the sender (76-82 % of the allocation in promenade-rlnc).
func frameBytes(n int, path uint16) int {
	return n + FrameOverhead(path)
}

// FrameOverhead is what a datagram on path occupies on the fabric's links beyond its own
// bytes (frameBytes): the unit of the allocated rates, so sent and allocated compare.
func FrameOverhead(path uint16) int {
	n := 28 + 14
	if path != 0 {
		n += 4 + 20 // pipeconfs/p4/include/header.p4 fabric_t, on fabric links
	}
	return n
}

// stallSince is when the oldest unseen packet started waiting.
func (s *Sender) stallSince() time.Time {
	t := s.sentAt[s.ackSeen&uint32(s.cfg.Capacity-1)]
	if t.Before(s.seenAt) {
		t = s.seenAt
	}
	return t
}

// planRepairs starts a repair round when the receiver's seen point has not moved for
// an RTO since the oldest unseen packet was sent: as many coded packets over the
// window from the seen point as the receiver says it misses (1..window).
func (s *Sender) planRepairs(now time.Time) {
	if s.repairs > 0 || s.ackSeen == s.nextNew {
		return
	}
	rto := s.rto()
	if now.Sub(s.stallSince()) < rto || now.Sub(s.lastRep) < rto {
		return
	}
	s.repairs = min(max(s.missing, 1), s.cfg.Window, int(s.nextNew-s.ackSeen))
}

func (s *Sender) ackLoop() {
	defer s.wg.Done()
	buf := make([]byte, 2048)
	for {
		n, err := s.acks.Read(buf)
		if err != nil {
			select {
			case <-s.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			time.Sleep(time.Millisecond)
			continue
		}
		a, err := coding.ParseAck(buf[:n])
		s.mu.Lock()
		if err != nil || a.Session != s.cfg.Session || int32(a.Seen-s.nextNew) > 0 {
			s.stats.BadAcks++
			s.mu.Unlock()
			continue
		}
		s.stats.Acks++
		now := time.Now()
		if int32(a.Seen-s.ackSeen) > 0 {
			// Karn: a packet sent before the last repair round may have been seen through a
			// repair, so its delay says nothing about the round trip (and across an outage it
			// would inflate the RTO to seconds).
			if sent := s.sentAt[(a.Seen-1)&uint32(s.cfg.Capacity-1)]; sent.After(s.lastRep) {
				sample := now.Sub(sent)
				d := s.srtt - sample
				if d < 0 {
					d = -d
				}
				s.rttvar = (3*s.rttvar + d) / 4
				s.srtt = (7*s.srtt + sample) / 8
			}
			s.ackSeen, s.seenAt = a.Seen, now
			s.enc.Release(a.Seen)
			s.repairs = 0
		}
		if int32(a.Decoded-s.ackDec) > 0 {
			for j := s.ackDec; j != a.Decoded; j++ {
				s.stats.DecodedBytes += uint64(s.dataLen[j&uint32(s.cfg.Capacity-1)])
			}
			s.ackDec = a.Decoded
			s.cond.Broadcast()
		}
		if a.Seen == s.ackSeen {
			s.missing = int(a.Missing)
		}
		s.mu.Unlock()
		s.kick()
	}
}
