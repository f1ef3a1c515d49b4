package tm

import (
	"time"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// entry is one packet waiting in a FIFO.
type entry struct {
	pkt      target.Queued
	enq      time.Duration
	enqDepth uint32
}

// fifo is a growable ring buffer; its capacity limit is enforced by the caller.
type fifo struct {
	buf        []entry
	head, size int
}

func (f *fifo) len() int { return f.size }

func (f *fifo) push(e entry) {
	if f.size == len(f.buf) {
		n := make([]entry, max(16, 2*len(f.buf)))
		for i := 0; i < f.size; i++ {
			n[i] = f.buf[(f.head+i)%len(f.buf)]
		}
		f.buf, f.head = n, 0
	}
	f.buf[(f.head+f.size)%len(f.buf)] = e
	f.size++
}

func (f *fifo) pop() entry {
	e := f.buf[f.head]
	f.buf[f.head] = entry{} // let the packet be collected
	f.head = (f.head + 1) % len(f.buf)
	f.size--
	return e
}

func (f *fifo) clear() {
	for f.size > 0 {
		f.pop()
	}
}
