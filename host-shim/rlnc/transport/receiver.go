package transport

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"sync"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/coding"
)

// ReceiverStats counts what the receiver saw. Inversions counts coded packets that
// arrived after a packet whose window started later: the reordering the paths caused.
type ReceiverStats struct {
	Packets, Innovative, Dependent, Stale, Rejected, OtherSession, Inversions uint64
	Delivered                                                                 uint64 // original packets
	PathPackets                                                               map[uint16]uint64
	PathBytes                                                                 map[uint16]uint64 // datagram bytes by the header's path id (Promenade Eq. 5)
	Peer                                                                      netip.AddrPort    // source of the session's latest datagram (the sender)
}

// Receiver decodes one session arriving on a UDP socket and delivers its byte stream
// in order through Read. It acknowledges every datagram to its source address.
type Receiver struct {
	cfg  Config
	conn *net.UDPConn

	mu       sync.Mutex
	cond     *sync.Cond
	dec      *coding.Decoder
	ready    []byte // decoded, not yet read
	eof      bool
	err      error
	maxStart uint32
	started  bool
	stats    ReceiverStats
	done     chan struct{}
	wg       sync.WaitGroup
}

// maxReady bounds decoded bytes waiting for Read; beyond it the receiver stops
// reading the socket, the decoder stops advancing and flow control holds the sender.
const maxReady = 4 << 20

// NewReceiver starts receiving on conn.
func NewReceiver(cfg Config, conn *net.UDPConn) (*Receiver, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	dec, err := coding.NewDecoder(cfg.SymbolSize, cfg.Capacity)
	if err != nil {
		return nil, err
	}
	r := &Receiver{cfg: cfg, conn: conn, dec: dec, done: make(chan struct{}),
		stats: ReceiverStats{PathPackets: map[uint16]uint64{}, PathBytes: map[uint16]uint64{}}}
	r.cond = sync.NewCond(&r.mu)
	r.wg.Add(1)
	go r.loop()
	return r, nil
}

// Read returns decoded stream bytes in order; io.EOF after the sender's end of stream.
func (r *Receiver) Read(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.ready) == 0 && !r.eof && r.err == nil {
		r.cond.Wait()
	}
	if len(r.ready) > 0 {
		n := copy(b, r.ready)
		r.ready = r.ready[n:]
		r.cond.Broadcast()
		return n, nil
	}
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

// Stats returns a copy of the counters.
func (r *Receiver) Stats() ReceiverStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.stats
	st.PathPackets, st.PathBytes = map[uint16]uint64{}, map[uint16]uint64{}
	for k, v := range r.stats.PathPackets {
		st.PathPackets[k] = v
	}
	for k, v := range r.stats.PathBytes {
		st.PathBytes[k] = v
	}
	return st
}

// Close stops the receiver; pending Reads return io.ErrClosedPipe. The socket stays
// the caller's, but its read deadline is set to unblock the loop.
func (r *Receiver) Close() error {
	close(r.done)
	r.mu.Lock()
	if r.err == nil && !r.eof {
		r.err = io.ErrClosedPipe
	}
	r.cond.Broadcast()
	r.mu.Unlock()
	_ = r.conn.SetReadDeadline(aLongTimeAgo)
	r.wg.Wait()
	return nil
}

func (r *Receiver) loop() {
	defer r.wg.Done()
	buf := make([]byte, 65536)
	var ack []byte
	for {
		n, from, err := r.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			select {
			case <-r.done:
				return
			default:
			}
			continue
		}
		r.mu.Lock()
		a, ok := r.handle(buf[:n])
		if ok {
			r.stats.Peer = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
		}
		for len(r.ready) > maxReady && r.err == nil {
			r.cond.Wait()
		}
		r.mu.Unlock()
		if ok {
			ack = a.AppendTo(ack[:0])
			_, _ = r.conn.WriteToUDPAddrPort(ack, netip.AddrPortFrom(from.Addr().Unmap(), from.Port()))
		}
	}
}

// handle decodes one datagram (under mu) and returns the acknowledgement to send.
func (r *Receiver) handle(b []byte) (coding.Ack, bool) {
	r.stats.Packets++
	p, err := coding.ParsePacket(b)
	if err != nil {
		r.stats.Rejected++
		return coding.Ack{}, false
	}
	if p.Session != r.cfg.Session {
		r.stats.OtherSession++
		return coding.Ack{}, false
	}
	r.stats.PathPackets[p.PathID]++
	r.stats.PathBytes[p.PathID] += uint64(len(b))
	if r.started && int32(p.Start-r.maxStart) < 0 {
		r.stats.Inversions++
	}
	if !r.started || int32(p.Start-r.maxStart) > 0 {
		r.maxStart, r.started = p.Start, true
	}
	innov, err := r.dec.Add(&p, r.deliver)
	switch {
	case errors.Is(err, coding.ErrStale):
		r.stats.Stale++
	case err != nil:
		r.stats.Rejected++
	case innov:
		r.stats.Innovative++
	default:
		r.stats.Dependent++
	}
	r.cond.Broadcast()
	return coding.Ack{PathID: p.PathID, Session: r.cfg.Session, Seen: r.dec.Seen(), Decoded: r.dec.Decoded(),
		Missing: uint16(min(r.dec.Missing(), 0xffff))}, true
}

func (r *Receiver) deliver(_ uint32, sym []byte) {
	r.stats.Delivered++
	if r.eof || r.err != nil {
		return
	}
	word := binary.BigEndian.Uint16(sym)
	n := int(word &^ finBit)
	if n > len(sym)-2 {
		r.err = fmt.Errorf("rlnc: decoded packet says %d bytes, symbol holds %d", n, len(sym)-2)
		return
	}
	r.ready = append(r.ready, sym[2:2+n]...)
	if word&finBit != 0 {
		r.eof = true
	}
}
