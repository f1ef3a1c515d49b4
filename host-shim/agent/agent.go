// Package agent is the host shim's main loop: it applies rates tables from the
// controller to the datapath and reports telemetry every period T.
package agent

import (
	"context"
	"log"
	"net/netip"
	"sort"
	"sync"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/control"
	"github.com/fairfabric/fairfabric/host-shim/datapath"
	"github.com/fairfabric/fairfabric/host-shim/failover"
	"github.com/fairfabric/fairfabric/host-shim/hoststats"
	"github.com/fairfabric/fairfabric/host-shim/ratetable"
	"github.com/fairfabric/fairfabric/host-shim/telemetry"
)

// Config of one shim.
type Config struct {
	Host        string
	Addr        netip.Addr // this host's IPv4 address (the sender in session reports)
	Period      time.Duration
	IdlePeriods int // a session with no bytes sent for this many periods is inactive
	Refresh     int // every Refresh periods, every session's state is re-sent
	ProcNet     string
	Mode        datapath.Mode
	Topics      Topics
}

// Topics the agent writes.
type Topics struct {
	PathBytes, Sessions, Stats string
}

// DefaultTopics are the documented topic names with an optional suffix (tests use
// one per run to keep their records apart).
func DefaultTopics(suffix string) Topics {
	return Topics{telemetry.TopicPathBytes + suffix, telemetry.TopicSessions + suffix, telemetry.TopicStats + suffix}
}

// Agent is one running shim.
type Agent struct {
	cfg  Config
	dp   *datapath.Datapath
	prod *telemetry.Producer

	mu          sync.Mutex
	gate        ratetable.Gate
	rejected    map[string]uint64
	applyErrors uint64
	applied     uint64
	lastLatency time.Duration
	lastApply   time.Duration // how long the datapath took to apply the last table
	lastApplied time.Time
	periods     uint64

	prevRecv  map[datapath.RecvKey]datapath.RecvCounters
	prevSent  map[[2]any]uint64
	sessState map[string]*sessionActivity
	unpinned  unpinnedTracker
	lastStats telemetry.Stats

	fo *failover.Failover // dead paths from the controller (failover.go)
}

type sessionActivity struct {
	session ratetable.Session
	active  bool
	idle    int
}

// New makes an agent over an opened datapath and producer.
func New(cfg Config, dp *datapath.Datapath, prod *telemetry.Producer) *Agent {
	if cfg.IdlePeriods <= 0 {
		cfg.IdlePeriods = 3
	}
	if cfg.Topics.Stats == "" {
		cfg.Topics = DefaultTopics("")
	}
	if cfg.Refresh <= 0 {
		cfg.Refresh = 10
	}
	return &Agent{cfg: cfg, dp: dp, prod: prod, rejected: map[string]uint64{},
		prevRecv: map[datapath.RecvKey]datapath.RecvCounters{}, prevSent: map[[2]any]uint64{}, sessState: map[string]*sessionActivity{},
		fo:       failover.New(failover.DefaultFreeze, time.Now().UnixNano()),
		unpinned: newUnpinnedTracker(cfg.IdlePeriods)}
}

// HandleRates validates one record of the rates topic and, if admitted, applies it.
// Rejected records change nothing; the previous table stays in force.
func (a *Agent) HandleRates(rec control.Record) {
	t, err := ratetable.Parse(a.cfg.Host, rec.Key, rec.Value)
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		a.rejected[ratetable.RejectMalformed]++
		log.Printf("rates offset %d rejected: %v", rec.Offset, err)
		return
	}
	if reason, err := a.gate.Check(t); err != nil {
		a.rejected[reason]++
		log.Printf("rates offset %d rejected (%s): %v", rec.Offset, reason, err)
		return
	}
	t0 := time.Now()
	if err := a.dp.Apply(a.fo.Filter(t, t0)); err != nil { // dead paths rerouted (failover.go)
		a.applyErrors++
		log.Printf("rates version %d could not be applied, version %d stays in force: %v", t.Version, a.gate.Applied(), err)
		// Apply stops at the first failing step; put back what it may have changed.
		if prev := a.dp.Current(); prev != nil {
			if err := a.dp.Apply(prev); err != nil {
				log.Printf("restoring version %d failed: %v", prev.Version, err)
			}
		}
		return
	}
	a.gate.Commit(t)
	a.fo.Keep(t)
	a.applied++
	a.lastApplied = time.Now()
	a.lastApply = a.lastApplied.Sub(t0)
	if !rec.Timestamp.IsZero() {
		a.lastLatency = a.lastApplied.Sub(rec.Timestamp)
	}
	for _, s := range t.Sessions {
		if st, ok := a.sessState[s.ID]; ok {
			st.session = s
		} else {
			a.sessState[s.ID] = &sessionActivity{session: s, idle: a.cfg.IdlePeriods}
		}
	}
	log.Printf("rates version %d applied: %d sessions, %v after it was published", t.Version, len(t.Sessions), a.lastLatency)
}

// Run reports every period until ctx ends.
func (a *Agent) Run(ctx context.Context) {
	tick := time.NewTicker(a.cfg.Period)
	defer tick.Stop()
	start := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			a.report(start, now)
			start = now
		}
	}
}

func (a *Agent) report(start, now time.Time) {
	period := now.Sub(start)
	a.reportReceived(start, period)
	a.reportSent(now, period)
}

// reportReceived is Promenade's Algorithm 3: PathBytes over the last period.
func (a *Agent) reportReceived(start time.Time, period time.Duration) {
	recv, err := a.dp.Received()
	if err != nil {
		log.Printf("reading receive counters: %v", err)
		return
	}
	rec := telemetry.PathBytes{Schema: telemetry.Schema, Host: a.cfg.Host, Seq: a.prod.NextSeq(a.cfg.Topics.PathBytes),
		PeriodStartMs: start.UnixMilli(), PeriodMs: period.Milliseconds(), Entries: pathBytesEntries(a.prevRecv, recv, period)}
	a.prevRecv = recv
	a.prod.Publish(a.cfg.Topics.PathBytes, a.cfg.Host, rec)
}

// reportSent publishes achieved send rates and drops, and the sessions' activity
// (Promenade's message (a) for Algorithm 2).
func (a *Agent) reportSent(now time.Time, period time.Duration) {
	paths, qs, err := a.dp.Stats()
	if err != nil {
		log.Printf("reading class counters: %v", err)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.periods++
	allocated := map[[2]any]uint64{}
	tenant := map[string]ratetable.Session{}
	if t := a.dp.Current(); t != nil {
		for _, s := range t.Sessions {
			tenant[s.ID] = s
			for _, p := range s.Paths {
				allocated[[2]any{s.ID, p.ID}] = p.RateBps
			}
		}
	}
	st := telemetry.Stats{Schema: telemetry.Schema, Host: a.cfg.Host, Seq: a.prod.NextSeq(a.cfg.Topics.Stats), TsMs: now.UnixMilli(),
		PeriodMs: period.Milliseconds(), Mode: string(a.cfg.Mode), RatesVersion: a.gate.Applied(), Paths: []telemetry.PathSent{}}
	sentBySession := map[string]uint64{}
	prev := a.prevSent
	a.prevSent = map[[2]any]uint64{}
	for _, p := range paths {
		k := [2]any{p.Session, p.Path}
		delta := p.Bytes - prev[k]
		if p.Bytes < prev[k] {
			delta = p.Bytes
		}
		a.prevSent[k] = p.Bytes
		sentBySession[p.Session] += delta
		st.Paths = append(st.Paths, telemetry.PathSent{Session: p.Session, Path: p.Path, AllocatedBps: allocated[k], SentBytes: p.Bytes,
			SentRateBps: float64(delta) * 8 / period.Seconds(), QueueDrops: p.Drops, BacklogBytes: p.Backlog})
	}
	sort.Slice(st.Paths, func(i, j int) bool {
		if st.Paths[i].Session != st.Paths[j].Session {
			return st.Paths[i].Session < st.Paths[j].Session
		}
		return st.Paths[i].Path < st.Paths[j].Path
	})
	st.Drops = a.drops(qs)
	st.Telemetry = a.prod.Delivery()
	a.lastStats = st
	a.prod.Publish(a.cfg.Topics.Stats, a.cfg.Host, st)

	refresh := a.periods%uint64(a.cfg.Refresh) == 0
	ids := make([]string, 0, len(a.sessState))
	for id := range a.sessState {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		s := a.sessState[id]
		if _, inTable := tenant[id]; !inTable {
			if s.active {
				a.publishSession(now, s, false, "removed")
			}
			delete(a.sessState, id)
			continue
		}
		if sentBySession[id] > 0 {
			s.idle = 0
		} else {
			s.idle++
		}
		active := s.idle < a.cfg.IdlePeriods
		switch {
		case active != s.active:
			s.active = active
			a.publishSession(now, s, active, "transition")
		case refresh:
			a.publishSession(now, s, active, "refresh")
		}
	}
	a.reportUnpinned(now, tenant, refresh)
}

// reportUnpinned reports the destinations this host sends to outside any session of
// its table, as sessions "unpinned/<dst>" without a tenant (the shim does not know it):
// so the monitor sees a sender's traffic that no table covers, e.g. after a
// controller restart forgot the sessions it had detected (docs/host-shim.md).
func (a *Agent) reportUnpinned(now time.Time, table map[string]ratetable.Session, refresh bool) {
	counters, err := a.dp.Unpinned()
	if err != nil {
		log.Printf("reading unpinned counters: %v", err)
		return
	}
	pinned := map[netip.Addr]bool{}
	for _, s := range table {
		pinned[s.DstAddr()] = true
	}
	for _, r := range a.unpinned.update(counters, pinned, refresh) {
		state := "inactive"
		if r.active {
			state = "active"
		}
		id := UnpinnedPrefix + r.dst.String()
		packets, bytes := r.packets, r.bytes
		a.prod.Publish(a.cfg.Topics.Sessions, a.cfg.Host+"/"+id, telemetry.SessionState{Schema: telemetry.Schema, Host: a.cfg.Host,
			Seq: a.prod.NextSeq(a.cfg.Topics.Sessions), TsMs: now.UnixMilli(), Session: id,
			Src: a.cfg.Addr.String(), Dst: r.dst.String(), State: state, Reason: r.reason, Packets: &packets, Bytes: &bytes})
	}
}

func (a *Agent) publishSession(now time.Time, s *sessionActivity, active bool, reason string) {
	state := "inactive"
	if active {
		state = "active"
	}
	a.prod.Publish(a.cfg.Topics.Sessions, a.cfg.Host+"/"+s.session.ID, telemetry.SessionState{Schema: telemetry.Schema, Host: a.cfg.Host,
		Seq: a.prod.NextSeq(a.cfg.Topics.Sessions), TsMs: now.UnixMilli(), Session: s.session.ID, Tenant: s.session.Tenant,
		Src: a.cfg.Addr.String(), Dst: s.session.Dst, State: state, Reason: reason})
}

func (a *Agent) drops(qs datapath.QdiscStats) telemetry.DropCounts {
	d := telemetry.DropCounts{Qdisc: qs.Drops}
	if c, err := hoststats.Read(a.cfg.ProcNet); err == nil {
		d.SocketSend = c["Udp.SndbufErrors"]
		d.SocketRecv = c["Udp.RcvbufErrors"] + c["TcpExt.TCPRcvQDrop"] + c["TcpExt.TCPBacklogDrop"] + c["TcpExt.TCPZeroWindowDrop"]
		d.TCPRetrans = c["Tcp.RetransSegs"]
		d.TCPTimeouts = c["TcpExt.TCPTimeouts"]
	} else {
		log.Printf("reading %s: %v", a.cfg.ProcNet, err)
	}
	if ls, err := a.dp.LinkStats(); err == nil && ls != nil {
		d.Veth = ls.TxDropped + ls.RxDropped
	}
	return d
}

var broadcast = netip.AddrFrom4([4]byte{255, 255, 255, 255})

// pathBytesEntries are the sub-flows that received packets since prev, one entry per
// (source, destination, path), sorted by them. The destination is the packets' (the
// host's address or one of its VMs'), so each VM pair is charged as its own session;
// multicast and broadcast packets belong to no session and are left out.
func pathBytesEntries(prev, cur map[datapath.RecvKey]datapath.RecvCounters, period time.Duration) []telemetry.PathBytesEntry {
	keys := make([]datapath.RecvKey, 0, len(cur))
	for k, c := range cur {
		if c.Packets != prev[k].Packets && !k.Dst.IsMulticast() && k.Dst != broadcast {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Src != keys[j].Src {
			return keys[i].Src.Less(keys[j].Src)
		}
		if keys[i].Dst != keys[j].Dst {
			return keys[i].Dst.Less(keys[j].Dst)
		}
		return keys[i].Path < keys[j].Path
	})
	out := []telemetry.PathBytesEntry{}
	for _, k := range keys {
		c, p := cur[k], prev[k]
		ip := c.IPBytes - p.IPBytes
		out = append(out, telemetry.PathBytesEntry{Src: k.Src.String(), Dst: k.Dst.String(), Path: k.Path,
			Packets: c.Packets - p.Packets, IPBytes: ip, PayloadBytes: c.PayloadBytes - p.PayloadBytes, RateBps: float64(ip) * 8 / period.Seconds()})
	}
	return out
}
