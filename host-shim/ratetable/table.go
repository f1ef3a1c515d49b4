// Package ratetable is the controller's rates table for one host: the sessions the
// host sends, each with its pinned paths and per-path rates (schema 1, docs/kafka.md).
package ratetable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
)

// Schema is the only schema version this shim understands.
const Schema = 1

// Limits of what the datapath can enforce.
const (
	MaxPaths    = 4     // paths per session (a k=4 fat-tree has 4 between pods)
	MaxSessions = 1000  // sessions per host
	MaxPathID   = 4094  // path ids are 802.1Q VIDs
	MaxRateBps  = 100e9 // 100 Gbit/s
	MinRateBps  = 8000  // 1 kB/s: HTB's granularity
)

// Split says how a session's packets are spread over its paths.
const (
	SplitPacket = "packet" // packets spread by byte-weighted round robin, in proportion to the rates
	SplitFlow   = "flow"   // each flow (5-tuple hash) sticks to one path, weighted by rate
)

// Table is one message of the rates topic.
type Table struct {
	Schema   int       `json:"schema"`
	Host     string    `json:"host"`
	Version  uint64    `json:"version"`
	Sessions []Session `json:"sessions"`
}

// Session is a VM pair as seen by its sending host.
type Session struct {
	ID     string `json:"id"`
	Tenant string `json:"tenant"`
	Dst    string `json:"dst"`             // IPv4 address of the receiving VM
	Split  string `json:"split,omitempty"` // SplitPacket (default) or SplitFlow
	Paths  []Path `json:"paths"`
}

// Path is one pinned path of a session. ID 0 means "not pinned" (untagged) and is
// allowed only as a session's single path.
type Path struct {
	ID      int    `json:"id"`
	RateBps uint64 `json:"rate_bps"`
}

// DstAddr returns the parsed destination (valid after Parse).
func (s Session) DstAddr() netip.Addr { return netip.MustParseAddr(s.Dst) }

// TotalBps is the session's rate summed over its paths.
func (s Session) TotalBps() uint64 {
	var t uint64
	for _, p := range s.Paths {
		t += p.RateBps
	}
	return t
}

// Parse decodes and validates one record of the rates topic addressed to host.
// key is the record key, which must equal host and the table's host field.
func Parse(host string, key, value []byte) (*Table, error) {
	if string(key) != host {
		return nil, fmt.Errorf("record key %q is not this host %q", key, host)
	}
	if len(value) == 0 {
		return nil, fmt.Errorf("empty record (tombstone): to clear a host's sessions publish an empty sessions list with a higher version")
	}
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.DisallowUnknownFields()
	var t Table
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("malformed JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("malformed JSON: trailing data after the table")
	}
	if err := t.validate(host); err != nil {
		return nil, err
	}
	return &t, nil
}

func (t *Table) validate(host string) error {
	if t.Schema != Schema {
		return fmt.Errorf("schema %d is not supported (want %d)", t.Schema, Schema)
	}
	if t.Host != host {
		return fmt.Errorf("host field %q is not this host %q", t.Host, host)
	}
	if t.Version == 0 {
		return fmt.Errorf("version must be > 0")
	}
	if t.Sessions == nil {
		return fmt.Errorf("sessions is missing (use [] for none)")
	}
	if len(t.Sessions) > MaxSessions {
		return fmt.Errorf("%d sessions exceed the limit of %d", len(t.Sessions), MaxSessions)
	}
	ids := map[string]bool{}
	dsts := map[netip.Addr]string{}
	for i := range t.Sessions {
		s := &t.Sessions[i]
		if s.ID == "" || len(s.ID) > 128 {
			return fmt.Errorf("session %d: id must be 1..128 characters", i)
		}
		if ids[s.ID] {
			return fmt.Errorf("session %q appears twice", s.ID)
		}
		ids[s.ID] = true
		a, err := netip.ParseAddr(s.Dst)
		if err != nil || !a.Is4() || a.IsUnspecified() || a.IsMulticast() {
			return fmt.Errorf("session %q: dst %q is not a unicast IPv4 address", s.ID, s.Dst)
		}
		if other, dup := dsts[a]; dup {
			return fmt.Errorf("sessions %q and %q have the same dst %s (a host's sessions are keyed by destination)", other, s.ID, a)
		}
		dsts[a] = s.ID
		switch s.Split {
		case "":
			s.Split = SplitPacket
		case SplitPacket, SplitFlow:
		default:
			return fmt.Errorf("session %q: split %q is not %q or %q", s.ID, s.Split, SplitPacket, SplitFlow)
		}
		if len(s.Paths) == 0 || len(s.Paths) > MaxPaths {
			return fmt.Errorf("session %q: %d paths (want 1..%d)", s.ID, len(s.Paths), MaxPaths)
		}
		pids := map[int]bool{}
		for _, p := range s.Paths {
			if p.ID < 0 || p.ID > MaxPathID {
				return fmt.Errorf("session %q: path id %d out of range 0..%d", s.ID, p.ID, MaxPathID)
			}
			if p.ID == 0 && len(s.Paths) > 1 {
				return fmt.Errorf("session %q: path id 0 (unpinned) must be the session's only path", s.ID)
			}
			if pids[p.ID] {
				return fmt.Errorf("session %q: path %d appears twice", s.ID, p.ID)
			}
			pids[p.ID] = true
			if p.RateBps < MinRateBps || p.RateBps > MaxRateBps {
				return fmt.Errorf("session %q path %d: rate_bps %d out of range %d..%d", s.ID, p.ID, p.RateBps, uint64(MinRateBps), uint64(MaxRateBps))
			}
		}
	}
	return nil
}
