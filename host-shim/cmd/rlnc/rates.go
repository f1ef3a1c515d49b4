package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/fairfabric/fairfabric/host-shim/control"
	"github.com/fairfabric/fairfabric/host-shim/ratetable"
	"github.com/fairfabric/fairfabric/host-shim/rlnc/transport"
)

// pathsHolder passes a session's rates to the sender: the first table starts it, later
// ones change its paths. Tables that arrive before the sender exists are kept.
type pathsHolder struct {
	mu      sync.Mutex
	sender  *transport.Sender
	first   chan ratetable.Session
	started bool
	pending *ratetable.Session
}

func newPathsHolder() *pathsHolder { return &pathsHolder{first: make(chan ratetable.Session, 1)} }

func (h *pathsHolder) apply(s ratetable.Session) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case !h.started:
		h.started = true
		h.first <- s
		return nil
	case h.sender == nil:
		h.pending = &s
		return nil
	}
	return h.sender.SetPaths(transport.PathsOf(s))
}

func (h *pathsHolder) attach(s *transport.Sender) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sender = s
	if h.pending != nil {
		return s.SetPaths(transport.PathsOf(*h.pending))
	}
	return nil
}

// kafkaRates follows ff.ctl.rates.v1 for host: every table that is valid, newer than
// the one in force (the shim's version gate) and holds the session goes to apply. A
// table without the session leaves the previous rates in force; this is reported.
func kafkaRates(ctx context.Context, brokers []string, host, id string, apply func(ratetable.Session) error) error {
	var gate ratetable.Gate
	return control.Consume(ctx, brokers, control.TopicRates, host, func(r control.Record) {
		t, err := ratetable.Parse(host, r.Key, r.Value)
		if err == nil {
			_, err = gate.Check(t)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "rlnc send: rates record at offset %d rejected (previous rates stay): %v\n", r.Offset, err)
			return
		}
		for _, s := range t.Sessions {
			if s.ID == id {
				if err := apply(s); err != nil {
					fmt.Fprintf(os.Stderr, "rlnc send: rates version %d not applied: %v\n", t.Version, err)
					return
				}
				gate.Commit(t)
				fmt.Fprintf(os.Stderr, "rlnc send: rates version %d: %v\n", t.Version, transport.PathsOf(s))
				return
			}
		}
		gate.Commit(t)
		fmt.Fprintf(os.Stderr, "rlnc send: rates version %d has no session %q; previous rates stay\n", t.Version, id)
	})
}
