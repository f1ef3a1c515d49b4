package main

import (
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/fairfabric/fairfabric/host-shim/rlnc/transport"
	"github.com/fairfabric/fairfabric/host-shim/telemetry"
)

// reportBuffer bounds the records waiting for an unreachable broker (one a second: a
// quarter of an hour); beyond it records are dropped and counted, the transport never waits.
const reportBuffer = 1000

// senderPeriod is the sender's record for the period from prev to cur: every path in
// force with its allocated rate, and paths no longer in force that still carried packets
// in the period (allocated 0).
func senderPeriod(cfg transport.Config, prev, cur transport.SenderStats, period time.Duration) *telemetry.RLNCSender {
	secs := period.Seconds()
	allocated := map[uint16]uint64{}
	for _, p := range cur.Paths {
		allocated[p.ID] = p.RateBps
	}
	ids := []uint16{}
	for id := range allocated {
		ids = append(ids, id)
	}
	for id, n := range cur.PathPackets {
		if _, ok := allocated[id]; !ok && n > prev.PathPackets[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	paths := make([]telemetry.RLNCPathSent, 0, len(ids))
	for _, id := range ids {
		packets := cur.PathPackets[id] - prev.PathPackets[id]
		bytes := cur.PathBytes[id] - prev.PathBytes[id]
		wire := bytes + packets*uint64(transport.FrameOverhead(id))
		paths = append(paths, telemetry.RLNCPathSent{Path: int(id), AllocatedBps: allocated[id], Packets: packets,
			Bytes: bytes, SentBps: rate(wire, secs)})
	}
	decoded := cur.DecodedBytes - prev.DecodedBytes
	return &telemetry.RLNCSender{
		Window: cfg.Window, Capacity: cfg.Capacity, SymbolBytes: cfg.SymbolSize, Paths: paths,
		NewPackets: cur.NewPackets - prev.NewPackets, RepairPackets: cur.RepairPackets - prev.RepairPackets,
		Acks: cur.Acks - prev.Acks, DecodedBytes: decoded, GoodputBps: rate(decoded, secs),
		Sent: cur.Sent, Seen: cur.Seen, Decoded: cur.Decoded, InFlight: cur.Sent - cur.Decoded,
		SRTTMs: ms(cur.SRTT), RTOMs: ms(cur.RTO),
	}
}

// receiverPeriod is the receiver's record for the period from prev to cur; delivered is
// the stream bytes the application got in it.
func receiverPeriod(prev, cur transport.ReceiverStats, delivered uint64, period time.Duration) *telemetry.RLNCReceiver {
	secs := period.Seconds()
	ids := []uint16{}
	for id, n := range cur.PathPackets {
		if n > prev.PathPackets[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	paths := make([]telemetry.RLNCPathRecv, 0, len(ids))
	var packets uint64
	for _, id := range ids {
		n, bytes := cur.PathPackets[id]-prev.PathPackets[id], cur.PathBytes[id]-prev.PathBytes[id]
		packets += n
		paths = append(paths, telemetry.RLNCPathRecv{Path: int(id), Packets: n, Bytes: bytes, RateBps: rate(bytes, secs)})
	}
	return &telemetry.RLNCReceiver{
		Packets: packets, Innovative: cur.Innovative - prev.Innovative, Dependent: cur.Dependent - prev.Dependent,
		Stale: cur.Stale - prev.Stale, Rejected: cur.Rejected - prev.Rejected,
		Inversions: cur.Inversions - prev.Inversions, DeliveredBytes: delivered,
		GoodputBps: rate(delivered, secs), Paths: paths,
	}
}

func rate(bytes uint64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return float64(bytes) * 8 / secs
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// sessionEnds names one end of a session in its records.
type sessionEnds struct {
	host, session string
	sessionID     uint32
}

func (e sessionEnds) sessionName() string {
	if e.session != "" {
		return e.session
	}
	return strconv.FormatUint(uint64(e.sessionID), 10)
}

// period is one end's figures since its last record: its role's part and the pair, or
// ok false while the pair is not known yet (a receiver that has heard nothing).
type period func(elapsed time.Duration) (rec telemetry.RLNC, ok bool)

// reporter publishes an end's record on ff.shim.rlnc.v1 every period, keyed host/session,
// through the shim's producer: a broker that is down costs buffered and then dropped
// records, never a wait.
type reporter struct {
	prod  *telemetry.Producer
	ends  sessionEnds
	every time.Duration
	next  period
	last  time.Time
	stop  chan struct{}
	done  chan struct{}
}

func startReporter(brokers []string, ends sessionEnds, every time.Duration, next period) (*reporter, error) {
	prod, err := telemetry.NewProducer(brokers, reportBuffer)
	if err != nil {
		return nil, err
	}
	r := &reporter{prod: prod, ends: ends, every: every, next: next, last: time.Now(),
		stop: make(chan struct{}), done: make(chan struct{})}
	go r.loop(telemetry.TopicRLNC)
	return r, nil
}

func (r *reporter) loop(topic string) {
	defer close(r.done)
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			r.publish(topic, time.Now())
		case <-r.stop:
			r.publish(topic, time.Now()) // the last, partial period
			return
		}
	}
}

func (r *reporter) publish(topic string, now time.Time) {
	elapsed := now.Sub(r.last).Round(time.Millisecond)
	if elapsed <= 0 {
		return
	}
	rec, ok := r.next(elapsed)
	r.last = now
	if !ok {
		return
	}
	rec.Schema, rec.Host, rec.Session, rec.SessionID = telemetry.Schema, r.ends.host, r.ends.sessionName(), r.ends.sessionID
	rec.Seq, rec.TsMs, rec.PeriodMs = r.prod.NextSeq(topic), now.UnixMilli(), elapsed.Milliseconds()
	rec.Telemetry = r.prod.Delivery()
	r.prod.Publish(topic, r.ends.host+"/"+rec.Session, rec)
}

// close publishes the last period and flushes for at most a second.
func (r *reporter) close() telemetry.Delivery {
	close(r.stop)
	<-r.done
	r.prod.Close(time.Second)
	return r.prod.Delivery()
}

// countingWriter counts the bytes written through it (the receiver's goodput).
type countingWriter struct {
	w interface{ Write([]byte) (int, error) }
	n atomic.Uint64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(uint64(n))
	return n, err
}
