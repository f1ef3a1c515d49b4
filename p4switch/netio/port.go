// Package netio moves frames between p4switch and network interfaces:
// AF_PACKET sockets on Linux interfaces (a receive ring, batched sendmmsg) and
// in-memory ports for tests.
package netio

// Port is one switch port's packet interface.
//
// One goroutine reads and one goroutine writes at a time. ReadBatch blocks
// until at least one frame has arrived, copies up to len(bufs) frames into
// bufs (each of capacity MaxFrame) and stores their lengths in lens.
// TryReadBatch is ReadBatch without blocking (0 frames when none is
// waiting). WaitReadable blocks until a frame is waiting, without reading
// it; it may run concurrently with TryReadBatch, so that one goroutine can
// poll several ports while others wait for them (it may return early).
// WriteBatch sends every frame it is given (a frame that cannot be sent is
// dropped and counted, as a real port would). Close makes a blocked
// ReadBatch or WaitReadable return an error.
type Port interface {
	Name() string
	ReadBatch(bufs [][]byte, lens []int) (int, error)
	TryReadBatch(bufs [][]byte, lens []int) (int, error)
	WaitReadable() error
	WriteBatch(frames [][]byte) error
	Close() error
}

// MaxFrame is the largest frame a port delivers (jumbo frames included).
const MaxFrame = 10240

// Batch is the number of frames moved per system call.
const Batch = 64

// Pollable is a port that a switch's own event loop can wait on (package sw,
// StartGroup), instead of a goroutine per port parked in Go's netpoller.
//
// Fd is readable (level-triggered, as epoll's EPOLLIN reports it) while a
// frame waits. TryWriteBatch sends frames without blocking and returns how
// many it took (sent, or dropped and counted as WriteBatch would); it stops at
// the first frame the kernel cannot take now.
type Pollable interface {
	Port
	Fd() int
	TryWriteBatch(frames [][]byte) (int, error)
}
