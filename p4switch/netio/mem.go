package netio

import (
	"errors"
	"sync"
)

// ErrClosed is returned by ports that have been closed.
var ErrClosed = errors.New("port closed")

// MemPort is an in-memory port, one end of a Pipe (like a veth pair).
type MemPort struct {
	name   string
	rx     chan []byte
	peer   *MemPort
	closed chan struct{}
	once   sync.Once
	ready  chan struct{} // signalled when a frame arrives

	efdMu sync.RWMutex // Close holds it to close efd
	efd   int          // eventfd readable while frames wait (PollablePipe); -1: none
}

// Pipe makes two connected in-memory ports: frames written to one are read
// from the other. Each direction buffers up to depth frames; more are dropped.
func Pipe(nameA, nameB string, depth int) (*MemPort, *MemPort) {
	a := &MemPort{name: nameA, rx: make(chan []byte, depth), closed: make(chan struct{}), ready: make(chan struct{}, 1), efd: -1}
	b := &MemPort{name: nameB, rx: make(chan []byte, depth), closed: make(chan struct{}), ready: make(chan struct{}, 1), efd: -1}
	a.peer, b.peer = b, a
	return a, b
}

func (p *MemPort) Name() string { return p.name }

func (p *MemPort) ReadBatch(bufs [][]byte, lens []int) (int, error) {
	n := 0
	select {
	case f := <-p.rx:
		lens[n] = copy(bufs[n][:cap(bufs[n])], f)
		n++
	case <-p.closed:
		return 0, ErrClosed
	}
	for n < len(bufs) {
		select {
		case f := <-p.rx:
			lens[n] = copy(bufs[n][:cap(bufs[n])], f)
			n++
		default:
			return n, nil
		}
	}
	return n, nil
}

func (p *MemPort) TryReadBatch(bufs [][]byte, lens []int) (int, error) {
	select {
	case <-p.closed:
		return 0, ErrClosed
	default:
	}
	// Reset the readiness before taking frames: a frame that arrives after
	// the take sets it again, so none is left waiting unannounced.
	p.efdReset()
	defer func() {
		if len(p.rx) > 0 {
			p.efdSignal()
		}
	}()
	n := 0
	for n < len(bufs) {
		select {
		case f := <-p.rx:
			lens[n] = copy(bufs[n][:cap(bufs[n])], f)
			n++
		default:
			return n, nil
		}
	}
	return n, nil
}

func (p *MemPort) WaitReadable() error {
	for len(p.rx) == 0 {
		select {
		case <-p.ready:
		case <-p.closed:
			return ErrClosed
		}
	}
	return nil
}

func (p *MemPort) WriteBatch(frames [][]byte) error {
	for _, f := range frames {
		select {
		case <-p.closed:
			return ErrClosed
		default:
		}
		select {
		case p.peer.rx <- append([]byte(nil), f...):
			select {
			case p.peer.ready <- struct{}{}:
			default:
			}
			p.peer.efdSignal()
		default: // peer's buffer full: the frame is lost
		}
	}
	return nil
}

func (p *MemPort) Close() error {
	p.once.Do(func() {
		close(p.closed)
		p.efdMu.Lock()
		if p.efd >= 0 {
			closeEventFd(p.efd)
			p.efd = -1
		}
		p.efdMu.Unlock()
	})
	return nil
}
