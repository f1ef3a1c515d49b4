package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

func init() {
	commands["publish"] = command{"publish one record (e.g. a rates table) and print its timestamp", publish}
	commands["consume"] = command{"print a topic's records as JSON lines", consume}
}

func brokers(s string) ([]string, error) {
	if s == "" {
		return nil, errors.New("no brokers: set -kafka or FAIRFABRIC_KAFKA")
	}
	return strings.Split(s, ","), nil
}

func publish(args []string) error {
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	kafka := fs.String("kafka", os.Getenv("FAIRFABRIC_KAFKA"), "brokers")
	topic := fs.String("topic", "ff.ctl.rates.v1", "topic")
	key := fs.String("key", "", "record key (the host for rates tables)")
	value := fs.String("value", "", "record value; '-' reads stdin")
	compact := fs.Bool("compact", true, "create the topic compacted if it is missing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bs, err := brokers(*kafka)
	if err != nil {
		return err
	}
	v := []byte(*value)
	if *value == "-" {
		if v, err = readAll(os.Stdin); err != nil {
			return err
		}
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs...))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := ensureTopic(ctx, cl, *topic, *compact); err != nil {
		return err
	}
	rec := &kgo.Record{Topic: *topic, Key: []byte(*key), Value: v}
	if err := cl.ProduceSync(ctx, rec).FirstErr(); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"topic": *topic, "partition": rec.Partition, "offset": rec.Offset, "ts_ms": rec.Timestamp.UnixMilli()})
}

func ensureTopic(ctx context.Context, cl *kgo.Client, topic string, compact bool) error {
	adm := kadm.NewClient(cl)
	cfg := map[string]*string{}
	if compact {
		p := "compact"
		cfg["cleanup.policy"] = &p
	}
	resp, err := adm.CreateTopics(ctx, 1, 1, cfg, topic)
	if err != nil {
		return err
	}
	for _, r := range resp {
		if r.Err != nil && !strings.Contains(r.Err.Error(), "TOPIC_ALREADY_EXISTS") {
			return fmt.Errorf("creating %s: %w", topic, r.Err)
		}
	}
	return nil
}

func readAll(f *os.File) ([]byte, error) {
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			if err.Error() == "EOF" {
				return b, nil
			}
			return nil, err
		}
	}
}

func consume(args []string) error {
	fs := flag.NewFlagSet("consume", flag.ContinueOnError)
	kafka := fs.String("kafka", os.Getenv("FAIRFABRIC_KAFKA"), "brokers")
	topic := fs.String("topic", "", "topic (required)")
	key := fs.String("key", "", "only records with this key")
	idle := fs.Duration("idle", 2*time.Second, "stop after no record arrived for this long")
	max := fs.Duration("max", 30*time.Second, "stop after this long in any case")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bs, err := brokers(*kafka)
	if err != nil {
		return err
	}
	if *topic == "" {
		return errors.New("-topic is required")
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs...), kgo.ConsumeTopics(*topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(200*time.Millisecond))
	if err != nil {
		return err
	}
	defer cl.Close()
	deadline := time.Now().Add(*max)
	last := time.Now()
	enc := json.NewEncoder(os.Stdout)
	for time.Now().Before(deadline) && time.Since(last) < *idle {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		fetches := cl.PollFetches(ctx)
		cancel()
		fetches.EachRecord(func(r *kgo.Record) {
			last = time.Now()
			if *key != "" && string(r.Key) != *key {
				return
			}
			var v any = string(r.Value)
			if json.Valid(r.Value) {
				v = json.RawMessage(r.Value)
			}
			_ = enc.Encode(map[string]any{"key": string(r.Key), "offset": r.Offset, "ts_ms": r.Timestamp.UnixMilli(), "value": v})
		})
	}
	return nil
}
