// Package control is the shim's intake of the controller's rates table from Kafka.
package control

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// TopicRates is the compacted topic of rates tables, keyed by host (docs/kafka.md).
const TopicRates = "ff.ctl.rates.v1"

// Record is one record of the rates topic addressed to this host.
type Record struct {
	Key, Value []byte
	Timestamp  time.Time // broker/producer timestamp, for the update latency
	Offset     int64
}

// Consume reads the rates topic from its beginning (the compacted topic holds the
// latest table of every host) and calls handle for every record keyed by host, in
// order, until ctx ends. Records for other hosts are skipped without decoding.
func Consume(ctx context.Context, brokers []string, topic, host string, handle func(Record)) error {
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(brokers...),
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(50*time.Millisecond), // bounds the wait if a fetch misses a new record
		kgo.RetryBackoffFn(func(int) time.Duration { return 250 * time.Millisecond }),
	)
	if err != nil {
		return err
	}
	defer cl.Close()
	for {
		fetches := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return nil
		}
		fetches.EachError(func(_ string, _ int32, err error) {
			if !errors.Is(err, context.Canceled) {
				ConsumeErrors.Add(1)
			}
		})
		fetches.EachRecord(func(r *kgo.Record) {
			if string(r.Key) != host {
				return
			}
			handle(Record{Key: r.Key, Value: r.Value, Timestamp: r.Timestamp, Offset: r.Offset})
		})
	}
}
