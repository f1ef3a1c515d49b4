// Package stf runs p4c's STF packet tests against a p4switch pipeline with
// a synchronous traffic manager (no rates): every packet is processed to
// completion, including resubmits, recirculations, clones and multicast,
// before the next command runs.
package stf

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/fairfabric/fairfabric/p4switch/target"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

// RunFile compiles the program and runs the STF file; it returns nil iff every expectation holds.
func RunFile(programPath, stfPath string) error {
	c, err := v1model.CompileFile(programPath, nil)
	if err != nil {
		return err
	}
	text, err := os.ReadFile(stfPath)
	if err != nil {
		return err
	}
	return Run(v1model.New(c, 0), string(text), stfPath)
}

// Run executes STF text against p. name labels error messages.
func Run(p *v1model.Pipeline, text, name string) error {
	r := &runner{p: p, name: name, expected: map[uint32][]expectation{}, anyPort: map[uint32]bool{}, received: map[uint32][][]byte{}, nodes: map[int][]replica{}, groups: map[uint32][]replica{}, ports: map[uint32]bool{}}
	for i, line := range strings.Split(text, "\n") {
		if j := strings.Index(line, "#"); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if err := r.command(line); err != nil {
			return fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
	}
	return r.verify()
}

type expectation struct {
	pattern string // upper-case hex with '*' wildcards
	exact   bool   // '$': lengths must match
	line    string
}

type replica struct {
	port uint32
	rid  uint32
}

type runner struct {
	p        *v1model.Pipeline
	name     string
	expected map[uint32][]expectation
	order    []uint32
	anyPort  map[uint32]bool
	received map[uint32][][]byte
	clock    time.Duration
	nodes    map[int][]replica
	nextNode int
	groups   map[uint32][]replica
	prio     int32
	failures []string
	// ports holds every port a packet or expect line mentions; as with
	// p4c's bmv2stf.py, only those ports exist, so frames sent elsewhere
	// are not checked.
	ports map[uint32]bool
}

// send processes one packet to completion.
func (r *runner) send(port uint32, data []byte) {
	type arrival struct {
		port uint32
		data []byte
		pres any
	}
	arrivals := []arrival{{port, data, nil}}
	var queue []target.Queued
	for steps := 0; (len(arrivals) > 0 || len(queue) > 0) && steps < 10000; steps++ {
		if len(arrivals) > 0 {
			a := arrivals[0]
			arrivals = arrivals[1:]
			r.clock += time.Microsecond
			res := r.p.Ingress(target.Arrival{Port: a.port, Data: a.data, Now: r.clock, Preserved: a.pres})
			queue = append(queue, res.Queued...)
			continue
		}
		q := queue[0]
		queue = queue[1:]
		r.clock += time.Microsecond
		res := r.p.Egress(q, target.QueueMeta{EnqTimestamp: r.clock, Now: r.clock})
		queue = append(queue, res.Queued...)
		for _, rc := range res.Recirc {
			arrivals = append(arrivals, arrival{q.EgressPort, rc.Data, rc.Preserved})
		}
		if res.Out != nil {
			r.received[res.Out.Port] = append(r.received[res.Out.Port], res.Out.Data)
		}
	}
}
