package interp

import (
	"math/rand"
	"time"
)

// State is one packet in flight through the pipeline.
type State struct {
	S   []uint64
	Pkt []byte // the packet as received (parser input)
	// Length is what counters and meters count, in bytes: the whole packet
	// as it entered the ingress pipeline (BMv2's packet length register).
	// Reset sets it to len(Pkt); egress, whose Pkt is only the unparsed
	// payload, sets it to the packet's length.
	Length int
	Off    int // parser cursor in bits
	Out    bitWriter
	Now    time.Duration
	P      *Program

	// Requests made by v1model externs during ingress/egress.
	Clones     []CloneRequest
	Resubmit   int // field list index + 1; 0 = none
	Recirc     int // field list index + 1; 0 = none
	Digests    []DigestMessage
	Truncate   int // bytes; 0 = none
	Drop       bool
	Failure    string // assert failure
	exit       bool   // exit signalled inside an expression
	meterColor uint64 // colour of the direct meter of the last table hit
	parserErr  uint64 // error code raised in the parser (0 = none)
	subReject  bool   // a sub-parser rejected
	Log        func(string)
	Rand       *rand.Rand
	ret        []uint64 // scratch
}

// CloneRequest is a clone() or clone_preserving_field_list() call.
type CloneRequest struct {
	E2E       bool
	Session   uint32
	FieldList int // -1 = none
}

// DigestMessage is one digest() call.
type DigestMessage struct {
	Type   *DigestType
	Values []uint64 // the struct's slots
}

// NewState allocates a packet state for p.
func (p *Program) NewState() *State {
	return &State{S: make([]uint64, p.Slots), P: p, Rand: rand.New(rand.NewSource(1))}
}

// PoisonScratch makes Reset fill the slots it does not clear (see
// Program.Zeroed) with a garbage pattern instead of leaving the previous
// packet's values, so that tests catch a slot read before it is written.
// Tests set it before any pipeline runs.
var PoisonScratch = false

// poison is what PoisonScratch writes: a value a zero-initialised run
// would not produce.
const poison = 0x5a5a5a5a5a5a5a5a

// Reset prepares st for a new packet.
func (st *State) Reset(pkt []byte, now time.Duration) {
	zeroed := st.P.Zeroed
	if zeroed == 0 { // a Program not made by Compile
		zeroed = len(st.S)
	}
	clear(st.S[:zeroed])
	if PoisonScratch {
		for i := zeroed; i < len(st.S); i++ {
			st.S[i] = poison
		}
	}
	st.Pkt, st.Off, st.Now, st.Length = pkt, 0, now, len(pkt)
	st.Out.buf, st.Out.bits = st.Out.buf[:0], 0
	st.Clones, st.Digests = st.Clones[:0], st.Digests[:0]
	st.Resubmit, st.Recirc, st.Truncate, st.Drop, st.Failure = 0, 0, 0, false, ""
	st.subReject, st.exit = false, false
	for _, f := range st.P.constInits {
		f(st)
	}
}

// Emitted returns the deparsed headers.
func (st *State) Emitted() []byte { return st.Out.buf }

// Payload returns the part of the packet the parser did not consume.
func (st *State) Payload() []byte {
	i := (st.Off + 7) / 8
	if i > len(st.Pkt) {
		return nil
	}
	return st.Pkt[i:]
}

// ClearExit forgets an exit signalled by the previous block.
func (st *State) ClearExit() { st.exit = false }
