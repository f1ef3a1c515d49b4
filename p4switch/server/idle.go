package server

import (
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// idleScanInterval is how often table idle timeouts are checked; a
// notification comes at most this late.
const idleScanInterval = 20 * time.Millisecond

// startIdleScan starts the idle-timeout scanner, once: the first write of an
// entry with an idle timeout does it, so servers without such entries run
// no timer.
func (s *Server) startIdleScan() {
	s.idleOnce.Do(func() { go s.idleScan() })
}

// idleScan sends an IdleTimeoutNotification to the primaries whenever
// entries of the running pipeline expire.
func (s *Server) idleScan() {
	tick := time.NewTicker(idleScanInterval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-s.closed:
			return
		}
		l := s.cur.Load()
		if l == nil {
			continue
		}
		n, ok := l.pipe.(target.IdleNotifier)
		if !ok {
			continue
		}
		if expired := n.IdleExpired(); len(expired) > 0 {
			s.arb.sendToPrimaries(&p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_IdleTimeoutNotification{
				IdleTimeoutNotification: &p4v1.IdleTimeoutNotification{TableEntry: expired, Timestamp: time.Now().UnixNano()}}})
		}
	}
}

// Close stops the server's background work (the idle-timeout scanner).
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closed) })
}
