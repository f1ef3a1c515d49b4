package telemetry

import (
	"context"
	"encoding/json"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Producer publishes records with franz-go's idempotent producer. While the broker
// is unreachable, up to BufferCap records wait in memory and are retried; a record
// that finds the buffer full is dropped and counted, never blocks the shim.
type Producer struct {
	cl        *kgo.Client
	bufferCap int
	published atomic.Uint64 // records handed to Publish
	produced  atomic.Uint64 // acknowledged by the broker
	dropped   atomic.Uint64
	mu        sync.Mutex
	seqs      map[string]uint64 // per topic
}

// NewProducer connects lazily to brokers (comma-separated list).
func NewProducer(brokers []string, bufferCap int) (*Producer, error) {
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(brokers...),
		kgo.MaxBufferedRecords(bufferCap),
		kgo.ProducerLinger(5*time.Millisecond),
		kgo.RequiredAcks(kgo.AllISRAcks()), // required by the idempotent producer
		kgo.RetryBackoffFn(func(int) time.Duration { return 250 * time.Millisecond }),
		kgo.AllowAutoTopicCreation(),
	)
	if err != nil {
		return nil, err
	}
	return &Producer{cl: cl, bufferCap: bufferCap, seqs: map[string]uint64{}}, nil
}

// NextSeq returns the next sequence number for topic (1, 2, ...). Every record gets
// one, so a consumer can tell what was dropped.
func (p *Producer) NextSeq(topic string) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seqs[topic]++
	return p.seqs[topic]
}

// Publish queues v (JSON) under key; it never blocks.
func (p *Producer) Publish(topic, key string, v any) {
	p.published.Add(1)
	b, err := json.Marshal(v)
	if err != nil {
		p.dropped.Add(1)
		return
	}
	p.cl.TryProduce(context.Background(), &kgo.Record{Topic: topic, Key: []byte(key), Value: b}, func(_ *kgo.Record, err error) {
		if err != nil {
			if n := p.dropped.Add(1); n&(n-1) == 0 { // log the 1st, 2nd, 4th, 8th, ... drop
				log.Printf("telemetry record dropped (%d so far): %v", n, err)
			}
			return
		}
		p.produced.Add(1)
	})
}

// Delivery reports the producer's counters. Buffered counts the records whose fate
// is not known yet (waiting, in flight, or a promise not yet run).
func (p *Producer) Delivery() Delivery {
	produced, dropped := p.produced.Load(), p.dropped.Load()
	return Delivery{Produced: produced, Dropped: dropped, Buffered: int64(p.published.Load() - produced - dropped), BufferCap: p.bufferCap}
}

// Close flushes for up to timeout, then closes; records still unsent are dropped and
// counted (the client fails them and runs their promises, which Close waits for).
func (p *Producer) Close(timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_ = p.cl.Flush(ctx)
	p.cl.Close()
	for deadline := time.Now().Add(2 * time.Second); p.Delivery().Buffered > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}
