// Package failover moves a host's sessions off paths the controller declared dead
// (vFab's migration on a failed path, docs/guarantees.md "Failure handling"): the
// rate a session had on a dead path goes to its surviving paths until the
// controller's re-allocation arrives, and a path that comes back is used again only
// after a freeze window.
package failover

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/fairfabric/fairfabric/host-shim/ratetable"
)

// Topic is the compacted topic of dead-path records, keyed by host (docs/kafka.md).
const Topic = "ff.ctl.deadpaths.v1"

// Schema is the only schema version of a dead-path record this shim understands.
const Schema = 1

// Record is one message of the dead-paths topic: for each of the host's sessions,
// the path ids (VIDs) that cross a link that is down now. A session that is not
// listed has no dead path; an empty list means every path is alive.
type Record struct {
	Schema   int           `json:"schema"`
	Host     string        `json:"host"`
	Version  uint64        `json:"version"`
	Sessions []SessionDead `json:"sessions"`
	Links    []string      `json:"links,omitempty"` // the down links, for logs and people
}

// SessionDead lists the dead paths of one session and, optionally, its paths that
// are up (where the session goes when none of its table's paths survives).
type SessionDead struct {
	ID    string `json:"id"`
	Dead  []int  `json:"dead"`
	Alive []int  `json:"alive,omitempty"`
}

// Parse decodes and checks one record addressed to host. Unknown fields are
// ignored (the topic may grow optional fields); everything else is checked.
func Parse(host string, key, value []byte) (*Record, error) {
	if string(key) != host {
		return nil, fmt.Errorf("record key %q is not this host %q", key, host)
	}
	if len(value) == 0 {
		return nil, fmt.Errorf("empty record (tombstone): publish an empty sessions list with a higher version")
	}
	dec := json.NewDecoder(bytes.NewReader(value))
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("malformed JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("malformed JSON: trailing data after the record")
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("schema %d is not supported (want %d)", r.Schema, Schema)
	}
	if r.Host != host {
		return nil, fmt.Errorf("host field %q is not this host %q", r.Host, host)
	}
	if r.Version == 0 {
		return nil, fmt.Errorf("version must be > 0")
	}
	if r.Sessions == nil {
		return nil, fmt.Errorf("sessions is missing (use [] for none)")
	}
	if len(r.Sessions) > ratetable.MaxSessions {
		return nil, fmt.Errorf("%d sessions exceed the limit of %d", len(r.Sessions), ratetable.MaxSessions)
	}
	seen := map[string]bool{}
	for i, s := range r.Sessions {
		if s.ID == "" || len(s.ID) > 128 {
			return nil, fmt.Errorf("session %d: id must be 1..128 characters", i)
		}
		if seen[s.ID] {
			return nil, fmt.Errorf("session %q appears twice", s.ID)
		}
		seen[s.ID] = true
		if len(s.Dead) == 0 {
			return nil, fmt.Errorf("session %q: dead must list at least one path id (leave the session out instead)", s.ID)
		}
		dead := map[int]bool{}
		for _, p := range s.Dead {
			if p < 1 || p > ratetable.MaxPathID {
				return nil, fmt.Errorf("session %q: dead path id %d out of range 1..%d", s.ID, p, ratetable.MaxPathID)
			}
			dead[p] = true
		}
		if len(s.Alive) > ratetable.MaxPaths {
			return nil, fmt.Errorf("session %q: %d alive paths (at most %d)", s.ID, len(s.Alive), ratetable.MaxPaths)
		}
		for _, p := range s.Alive {
			if p < 1 || p > ratetable.MaxPathID {
				return nil, fmt.Errorf("session %q: alive path id %d out of range 1..%d", s.ID, p, ratetable.MaxPathID)
			}
			if dead[p] {
				return nil, fmt.Errorf("session %q: path %d is both dead and alive", s.ID, p)
			}
		}
	}
	return &r, nil
}

// deadSet is session id → dead path ids.
type deadSet map[string]map[int]bool

// aliveLists is session id → the session's paths that are up, in the controller's order.
type aliveLists map[string][]int

func (r *Record) alive() aliveLists {
	out := aliveLists{}
	for _, s := range r.Sessions {
		if len(s.Alive) > 0 {
			out[s.ID] = append([]int(nil), s.Alive...)
		}
	}
	return out
}

func (r *Record) set() deadSet {
	out := deadSet{}
	for _, s := range r.Sessions {
		m := map[int]bool{}
		for _, p := range s.Dead {
			m[p] = true
		}
		out[s.ID] = m
	}
	return out
}
