// Package telemetry holds the records the shim publishes (schema 1, docs/kafka.md)
// and the producer that publishes them with a bounded buffer.
package telemetry

// Topics the shim writes; the shim on each host is the only writer of its records,
// keyed by host.
const (
	TopicPathBytes = "ff.shim.pathbytes.v1"
	TopicSessions  = "ff.shim.sessions.v1"
	TopicStats     = "ff.shim.stats.v1"
	TopicRLNC      = "ff.shim.rlnc.v1" // written by the rlnc command, not the shim: key host/session
	Schema         = 1
)

// PathBytes is Promenade's Algorithm 3 report: the receiver's local edge load table
// for one period T, PathBytes[<sender, receiver>][path] (Eq. 5).
type PathBytes struct {
	Schema        int              `json:"schema"`
	Host          string           `json:"host"` // the receiving host
	Seq           uint64           `json:"seq"`
	PeriodStartMs int64            `json:"period_start_ms"`
	PeriodMs      int64            `json:"period_ms"`
	Entries       []PathBytesEntry `json:"entries"`
}

// PathBytesEntry counts one session-path in one period.
type PathBytesEntry struct {
	Src          string  `json:"src"`
	Dst          string  `json:"dst"`
	Path         int     `json:"path"` // VLAN id it arrived with; 0 = untagged
	Packets      uint64  `json:"packets"`
	IPBytes      uint64  `json:"ip_bytes"`
	PayloadBytes uint64  `json:"payload_bytes"` // L4 payload, what the application receives
	RateBps      float64 `json:"rate_bps"`      // ip_bytes * 8 / T
}

// SessionState is Promenade's message (a) for Algorithm 2: a sender reports a
// session active or inactive.
type SessionState struct {
	Schema  int    `json:"schema"`
	Host    string `json:"host"` // the sending host
	Seq     uint64 `json:"seq"`
	TsMs    int64  `json:"ts_ms"`
	Session string `json:"session"`
	Tenant  string `json:"tenant,omitempty"` // absent for unpinned destinations (the shim does not know it)
	Src     string `json:"src"`
	Dst     string `json:"dst"`
	State   string `json:"state"`  // "active" | "inactive"
	Reason  string `json:"reason"` // "transition" | "refresh" | "removed"
	// Unpinned destinations only: what the host sent there in the last period
	// (Ethernet frames as the egress hook sees them), so that the monitor can tell
	// data from the acknowledgements of a TCP flow's reverse direction.
	Packets *uint64 `json:"packets,omitempty"`
	Bytes   *uint64 `json:"bytes,omitempty"`
}

// Stats is one host's achieved send rates and drop counters for one period.
type Stats struct {
	Schema       int        `json:"schema"`
	Host         string     `json:"host"`
	Seq          uint64     `json:"seq"`
	TsMs         int64      `json:"ts_ms"`
	PeriodMs     int64      `json:"period_ms"`
	Mode         string     `json:"mode"`
	RatesVersion uint64     `json:"rates_version"`
	Paths        []PathSent `json:"paths"`
	Drops        DropCounts `json:"drops"`
	Telemetry    Delivery   `json:"telemetry"`
}

// PathSent is one session-path at the sender.
type PathSent struct {
	Session      string  `json:"session"`
	Path         int     `json:"path"`
	AllocatedBps uint64  `json:"allocated_bps"`
	SentBytes    uint64  `json:"sent_bytes"` // cumulative, Ethernet frames
	SentRateBps  float64 `json:"sent_rate_bps"`
	QueueDrops   uint64  `json:"queue_drops"` // cumulative
	BacklogBytes uint64  `json:"backlog_bytes"`
}

// DropCounts are cumulative drops at each host point (zOVN Fig. 5), read from the
// host's network namespace.
type DropCounts struct {
	SocketSend  uint64 `json:"socket_send"`  // Udp SndbufErrors
	Qdisc       uint64 `json:"qdisc"`        // the shim's HTB qdisc (all classes)
	Veth        uint64 `json:"veth"`         // interface tx_dropped + rx_dropped
	SocketRecv  uint64 `json:"socket_recv"`  // Udp RcvbufErrors + TcpExt TCPRcvQDrop + TCPBacklogDrop + TCPZeroWindowDrop
	TCPRetrans  uint64 `json:"tcp_retrans"`  // Tcp RetransSegs (a consequence of drops, for reference)
	TCPTimeouts uint64 `json:"tcp_timeouts"` // TcpExt TCPTimeouts
}

// Delivery describes the telemetry producer itself.
type Delivery struct {
	Produced  uint64 `json:"produced"` // records acknowledged by the broker
	Dropped   uint64 `json:"dropped"`  // records dropped (buffer full or delivery failed)
	Buffered  int64  `json:"buffered"` // records waiting now
	BufferCap int    `json:"buffer_cap"`
}

// RLNC is one period of an RLNC session as one end sees it (the rlnc command,
// docs/rlnc.md): Role "sender" carries Sender, "receiver" carries Receiver. Counts are
// the period's; rates are over PeriodMs.
type RLNC struct {
	Schema    int           `json:"schema"`
	Host      string        `json:"host"`
	Seq       uint64        `json:"seq"`
	TsMs      int64         `json:"ts_ms"`
	PeriodMs  int64         `json:"period_ms"`
	Role      string        `json:"role"`       // "sender" | "receiver"
	Session   string        `json:"session"`    // the rates table's session id (or the header id in decimal)
	SessionID uint32        `json:"session_id"` // the RLNC header's session id
	Src       string        `json:"src"`        // the sending end's IPv4 address
	Dst       string        `json:"dst"`        // the receiving end's IPv4 address
	Sender    *RLNCSender   `json:"sender,omitempty"`
	Receiver  *RLNCReceiver `json:"receiver,omitempty"`
	Telemetry Delivery      `json:"telemetry"`
}

// RLNCSender is the sender's period: what it sent on each path against the path's
// allocated rate, its repairs, and how far the receiver got.
type RLNCSender struct {
	Window        int            `json:"window"`   // coding window, packets
	Capacity      int            `json:"capacity"` // flow-control window, packets
	SymbolBytes   int            `json:"symbol_bytes"`
	Paths         []RLNCPathSent `json:"paths"`
	NewPackets    uint64         `json:"new_packets"`
	RepairPackets uint64         `json:"repair_packets"`
	Acks          uint64         `json:"acks"`
	DecodedBytes  uint64         `json:"decoded_bytes"` // stream bytes the receiver acknowledged as decoded
	GoodputBps    float64        `json:"goodput_bps"`   // decoded_bytes * 8 / period
	Sent          uint32         `json:"sent"`          // next new packet (cumulative, mod 2^32)
	Seen          uint32         `json:"seen"`          // the receiver's seen point
	Decoded       uint32         `json:"decoded"`       // the receiver's decoded point
	InFlight      uint32         `json:"in_flight"`     // sent - decoded: packets not yet decoded
	SRTTMs        float64        `json:"srtt_ms"`
	RTOMs         float64        `json:"rto_ms"`
}

// RLNCPathSent is one path at the sender. SentBps counts the frames as the fabric's links
// carry them, the unit of AllocatedBps (transport.FrameOverhead).
type RLNCPathSent struct {
	Path         int     `json:"path"` // VLAN id; 0 = unpinned
	AllocatedBps uint64  `json:"allocated_bps"`
	Packets      uint64  `json:"packets"` // coded packets, repairs included
	Bytes        uint64  `json:"bytes"`   // datagram bytes (RLNC header + payload)
	SentBps      float64 `json:"sent_bps"`
}

// RLNCReceiver is the receiver's period: how useful the arriving coded packets were and
// what reached the application.
type RLNCReceiver struct {
	Packets        uint64         `json:"packets"` // coded packets of the session
	Innovative     uint64         `json:"innovative"`
	Dependent      uint64         `json:"dependent"`
	Stale          uint64         `json:"stale"`
	Rejected       uint64         `json:"rejected"`
	Inversions     uint64         `json:"inversions"` // reorderings across paths
	DeliveredBytes uint64         `json:"delivered_bytes"`
	GoodputBps     float64        `json:"goodput_bps"` // delivered_bytes * 8 / period
	Paths          []RLNCPathRecv `json:"paths"`
}

// RLNCPathRecv is one path (the header's path id) at the receiver.
type RLNCPathRecv struct {
	Path    int     `json:"path"`
	Packets uint64  `json:"packets"`
	Bytes   uint64  `json:"bytes"` // datagram bytes
	RateBps float64 `json:"rate_bps"`
}
