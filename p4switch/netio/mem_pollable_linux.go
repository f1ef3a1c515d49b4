package netio

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// PollablePipe is Pipe with ports that are Pollable: each has an eventfd,
// readable while frames wait, so tests can run a switch's event loop
// (package sw, StartGroup) without network interfaces.
func PollablePipe(nameA, nameB string, depth int) (*MemPort, *MemPort, error) {
	a, b := Pipe(nameA, nameB, depth)
	for _, p := range []*MemPort{a, b} {
		fd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
		if err != nil {
			a.Close()
			b.Close()
			return nil, nil, err
		}
		p.efd = fd
	}
	return a, b, nil
}

// Fd is the port's eventfd (-1 for a port made by Pipe).
func (p *MemPort) Fd() int {
	p.efdMu.RLock()
	defer p.efdMu.RUnlock()
	return p.efd
}

// TryWriteBatch is WriteBatch (which never blocks on a MemPort).
func (p *MemPort) TryWriteBatch(frames [][]byte) (int, error) {
	return len(frames), p.WriteBatch(frames)
}

func (p *MemPort) efdSignal() {
	p.efdMu.RLock()
	defer p.efdMu.RUnlock()
	if p.efd >= 0 {
		var one [8]byte
		binary.NativeEndian.PutUint64(one[:], 1)
		_, _ = unix.Write(p.efd, one[:])
	}
}

func (p *MemPort) efdReset() {
	p.efdMu.RLock()
	defer p.efdMu.RUnlock()
	if p.efd >= 0 {
		var buf [8]byte
		_, _ = unix.Read(p.efd, buf[:])
	}
}

func closeEventFd(fd int) { unix.Close(fd) }
