// Package server is p4switch's P4Runtime v1 gRPC service. It keeps no
// forwarding state of its own: table, counter, meter, register and PRE
// state lives in the loaded target.Pipeline, read and written in P4Runtime
// terms. The server owns arbitration, pipeline (re)configuration, packet-in/
// out framing with the controller headers, and digest list batching.
package server

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// APIVersion is the P4Runtime version this server implements.
const APIVersion = "1.4.1"

// DefaultMaxBatch is the most updates one WriteRequest may carry.
const DefaultMaxBatch = 100_000

// Switch is what the server needs from the data plane.
type Switch interface {
	SetPipeline(target.Pipeline) error
	InjectFromCPU(frame []byte) error
	OnPacketIn(func(frame []byte, made time.Time))
	OnDigest(func([]target.Digest))
	CPUPort() uint32
}

// Options configure a Server.
type Options struct {
	DeviceID uint64
	Loader   target.Loader
	Switch   Switch
	Log      *slog.Logger
	MaxBatch int // 0 = DefaultMaxBatch
}

// Server implements p4v1.P4RuntimeServer.
type Server struct {
	p4v1.UnimplementedP4RuntimeServer

	opt     Options
	log     *slog.Logger
	cur     atomic.Pointer[loaded] // the committed pipeline, nil before the first
	cfgMu   sync.Mutex             // serialises pipeline configuration
	saved   *loaded                // VERIFY_AND_SAVE'd, waiting for COMMIT
	arb     *arbiter
	digests *digestEngine

	idleOnce  sync.Once
	closeOnce sync.Once
	closed    chan struct{}

	// PacketInDrops counts packet-ins that no primary client could take.
	PacketInDrops atomic.Uint64
	// Latencies are the switch's stages of the P4TE loop (packet-ins and
	// Write calls), for the loop benchmarks.
	Latencies LoopLatencies
}

// loaded is one verified pipeline with what the server derives from it.
type loaded struct {
	pipe         target.Pipeline
	p4info       *p4configv1.P4Info
	deviceConfig []byte
	cookie       *p4v1.ForwardingPipelineConfig_Cookie
	packetIn     *controllerHeader // nil if the program has none
	packetOut    *controllerHeader
}

// New makes a server and connects it to the switch's CPU port and digests.
func New(opt Options) *Server {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.MaxBatch == 0 {
		opt.MaxBatch = DefaultMaxBatch
	}
	s := &Server{opt: opt, log: opt.Log, closed: make(chan struct{})}
	s.arb = newArbiter(opt.DeviceID)
	s.digests = newDigestEngine(s.arb.sendToPrimaries)
	opt.Switch.OnPacketIn(s.packetIn)
	opt.Switch.OnDigest(s.digests.add)
	return s
}

// Register adds the service to a gRPC server.
func (s *Server) Register(g *grpc.Server) { p4v1.RegisterP4RuntimeServer(g, s) }

// LoadAndCommit loads a device config and makes it the running pipeline,
// as VERIFY_AND_COMMIT would (used by `p4switch run --p4`).
func (s *Server) LoadAndCommit(deviceConfig []byte) error {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	l, err := s.load(&p4v1.ForwardingPipelineConfig{P4DeviceConfig: deviceConfig})
	if err != nil {
		return err
	}
	return s.commit(l)
}

// P4Info is the running program's P4Info (nil if none).
func (s *Server) P4Info() *p4configv1.P4Info {
	if l := s.cur.Load(); l != nil {
		return l.p4info
	}
	return nil
}

func (s *Server) Capabilities(context.Context, *p4v1.CapabilitiesRequest) (*p4v1.CapabilitiesResponse, error) {
	return &p4v1.CapabilitiesResponse{P4RuntimeApiVersion: APIVersion}, nil
}

func (s *Server) checkDevice(id uint64) error {
	if id != s.opt.DeviceID {
		return status.Errorf(codes.NotFound, "device id %d not found (this switch is device %d)", id, s.opt.DeviceID)
	}
	return nil
}

// protect turns a panic in the pipeline into an INTERNAL error, so that no
// request can crash the switch.
func protect(err *error) {
	if r := recover(); r != nil {
		*err = status.Errorf(codes.Internal, "pipeline failed: %v", r)
	}
}

func errorf(c codes.Code, format string, args ...any) error {
	return status.Error(c, fmt.Sprintf(format, args...))
}
