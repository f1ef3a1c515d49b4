// Package target is the contract between p4switch's two halves:
//
//   - the P4 side (front end, interpreter, v1model externs, runtime state,
//     P4Info generation), which implements Pipeline; and
//   - the switch side (traffic manager, packet I/O, P4Runtime server), which
//     calls it.
//
// Runtime state is read and written in P4Runtime terms, so the server does not
// need to know how the pipeline stores tables, meters or registers.
package target

import (
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// Loader turns a SetForwardingPipelineConfig device config (the P4 source
// bundle, see the bundle format in docs/p4switch.md) into a runnable pipeline.
// cpuPort is the port number whose packets carry the @controller_header
// packet_out header and to which packet_in packets are sent (0 = no CPU port).
type Loader func(deviceConfig []byte, cpuPort uint32) (Pipeline, error)

// Pipeline is one loaded P4 program with its runtime state.
//
// Write and Read may be called concurrently with packet processing; the
// switch calls Ingress and Egress from one goroutine at a time.
type Pipeline interface {
	// P4Info describes the program as p4c would.
	P4Info() *p4configv1.P4Info

	// Write applies one P4Runtime update (tables, action profiles, counters,
	// meters, registers, PRE entries, digest entries). Errors are gRPC status
	// errors with the code the P4Runtime specification gives
	// (NOT_FOUND, ALREADY_EXISTS, INVALID_ARGUMENT, ...). A failed update
	// changes nothing.
	Write(update *p4v1.Update) error

	// Read emits every entity matching the (possibly wildcard) entity.
	Read(entity *p4v1.Entity, emit func(*p4v1.Entity) error) error

	// Ingress runs parser, verify checksum, ingress and the packet
	// replication engine for one arriving packet (new or recirculated).
	Ingress(a Arrival) IngressResult

	// Egress runs egress, compute checksum and deparser for a packet the
	// traffic manager dequeued, with the queue's metadata.
	Egress(q Queued, m QueueMeta) EgressResult
}

// Arrival is a packet entering the ingress pipeline.
type Arrival struct {
	Port uint32 // standard_metadata.ingress_port
	// Data is the frame, starting with the first header the parser
	// extracts. The pipeline may keep referring to it until the packet (and
	// every replica and clone of it) has left egress, so the caller must
	// not modify it before then; afterwards the caller reuses it, so
	// Output.Data and Recirculation.Data must not refer to it.
	Data []byte
	Now  time.Duration // switch clock, for ingress_global_timestamp (µs in P4)
	// Preserved is nil for a packet from a port; for a recirculated packet it
	// is Recirculation.Preserved (the preserved field list and instance type).
	Preserved any
}

// IngressResult is what leaves the ingress pipeline.
type IngressResult struct {
	Queued  []Queued // unicast, multicast replicas and I2E clones, in order
	Digests []Digest
}

// Queued is a packet handed to the traffic manager.
type Queued struct {
	EgressPort uint32 // standard_metadata.egress_port the queue belongs to
	Priority   uint8  // standard_metadata.priority (queue selection, 0..7)
	Length     int    // bytes the frame will occupy on the wire (for rate limiting)
	Packet     any    // the pipeline's in-flight state; opaque to the switch
}

// QueueMeta is what the traffic manager tells the egress pipeline.
type QueueMeta struct {
	EnqTimestamp time.Duration // when the packet was enqueued (switch clock)
	EnqQdepth    uint32        // packets in the queue when it was enqueued
	DeqTimedelta time.Duration // time spent in the queue
	DeqQdepth    uint32        // packets in the queue when it was dequeued
	Now          time.Duration // egress_global_timestamp
}

// EgressResult is what leaves the egress pipeline.
type EgressResult struct {
	// Out holds the deparsed frame, unless dropped. A frame to the CPU port
	// starts with the packet_in controller header; the server turns it into
	// a PacketIn using the P4Info's controller_packet_metadata.
	Out     *Output
	Queued  []Queued        // E2E clones, back into the traffic manager
	Recirc  []Recirculation // recirculated packets, back into Ingress
	Digests []Digest
}

// Output is a frame leaving a port.
type Output struct {
	Port uint32
	Data []byte
}

// Recirculation is a packet going back to ingress with preserved metadata.
type Recirculation struct {
	Data      []byte
	Preserved any
}

// Digest is one digest message; Data is the struct as P4Runtime encodes it.
type Digest struct {
	DigestID uint32
	Data     *p4v1.P4Data
}

// OutputRecycler is implemented by pipelines that reuse the buffers of
// Output.Data. Once a frame has been sent (or dropped on the way out), the
// switch may hand it back with RecycleOutput, from any goroutine, and does
// not touch it afterwards.
type OutputRecycler interface {
	RecycleOutput(data []byte)
}

// UndoWriter is implemented by pipelines that can take back a write, for
// P4Runtime's ROLLBACK_ON_ERROR and DATAPLANE_ATOMIC batches.
type UndoWriter interface {
	// WriteUndo applies update as Write does and, if it succeeds, returns
	// a function that restores the state from before the update. Undo
	// functions of one batch are called in reverse order of their writes.
	WriteUndo(update *p4v1.Update) (undo func() error, err error)
}

// IdleNotifier is implemented by pipelines that keep table idle timeouts.
type IdleNotifier interface {
	// IdleExpired returns the table entries whose idle timeout expired
	// since the last call; each expiry is reported once.
	IdleExpired() []*p4v1.TableEntry
}
