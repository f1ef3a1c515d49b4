package server

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
)

// maxLatencySamples bounds the memory of one Latencies (the first samples
// are kept; a benchmark run produces far fewer).
const maxLatencySamples = 1 << 20

// Latencies collects durations of one stage of the P4TE loop for the loop
// benchmarks, which read them as percentiles.
type Latencies struct {
	mu      sync.Mutex
	samples []time.Duration
}

// Record adds one duration.
func (l *Latencies) Record(d time.Duration) {
	l.mu.Lock()
	if len(l.samples) < maxLatencySamples {
		l.samples = append(l.samples, d)
	}
	l.mu.Unlock()
}

// Count is how many durations were recorded.
func (l *Latencies) Count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.samples)
}

// Percentile is the p-th percentile (0 < p <= 100, nearest rank); 0 when
// nothing was recorded.
func (l *Latencies) Percentile(p float64) time.Duration {
	if !(p > 0 && p <= 100) {
		panic(fmt.Sprintf("percentile %v out of (0, 100]", p))
	}
	l.mu.Lock()
	sorted := slices.Clone(l.samples)
	l.mu.Unlock()
	return percentile(sorted, p)
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	slices.Sort(sorted)
	rank := int(p / 100 * float64(len(sorted)))
	if float64(rank) < p/100*float64(len(sorted)) {
		rank++ // ceiling
	}
	return sorted[max(0, rank-1)]
}

// Summary is "n=N p50=X ms p99=Y ms max=Z ms", as the controller prints its
// own stages.
func (l *Latencies) Summary() string {
	l.mu.Lock()
	sorted := slices.Clone(l.samples)
	l.mu.Unlock()
	ms := func(p float64) float64 { return float64(percentile(sorted, p)) / 1e6 }
	return fmt.Sprintf("n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms", len(sorted), ms(50), ms(99), ms(100))
}

// LoopLatencies are the switch's stages of the P4TE loop.
type LoopLatencies struct {
	// PacketInMade: the pipeline made the packet-in (for an event, when it
	// cloned the packet that raised it) → the server took it.
	PacketInMade Latencies
	// PacketInSent: the server took the packet-in → the stream sent it
	// (queue to the stream's sender and gRPC's Send).
	PacketInSent Latencies
	// WriteHandled: a Write RPC's handler, from its call to its return.
	WriteHandled Latencies
}

// Lines are the stages with their summaries, for logs.
func (l *LoopLatencies) Lines() []string {
	return []string{
		"packet-in made -> taken by the server   " + l.PacketInMade.Summary(),
		"packet-in taken -> sent on the stream   " + l.PacketInSent.Summary(),
		"Write RPC handler                       " + l.WriteHandled.Summary(),
	}
}

// TimeWrites is a unary interceptor (grpc.UnaryInterceptor) that records
// how long Write handlers take in Latencies.WriteHandled.
func (s *Server) TimeWrites(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if info.FullMethod != p4v1.P4Runtime_Write_FullMethodName {
		return handler(ctx, req)
	}
	start := time.Now()
	resp, err := handler(ctx, req)
	s.Latencies.WriteHandled.Record(time.Since(start))
	return resp, err
}
