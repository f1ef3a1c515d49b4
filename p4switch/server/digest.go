package server

import (
	"sync"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/proto"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// digestEngine batches digest messages into DigestLists as each digest's
// DigestEntry config asks (P4Runtime §9.10 and §16.1):
//   - a digest without a DigestEntry produces no lists;
//   - a list is sent when it holds max_list_size messages (0 = no limit) or
//     max_timeout_ns after its first message (0 = at once);
//   - a message equal to one sent in a list not yet acknowledged is
//     suppressed until that list is acked (DigestListAck) or ack_timeout_ns
//     passes.
type digestEngine struct {
	mu      sync.Mutex
	send    func(*p4v1.StreamMessageResponse) bool
	configs map[uint32]*p4v1.DigestEntry_Config
	pending map[uint32]*pendingList
	sent    map[uint32]map[string]sentMsg // digest id → message bytes → list
	nextID  uint64
	epoch   uint64 // bumped on reset, so stale timers do nothing
	now     func() time.Time
}

type pendingList struct {
	data []*p4v1.P4Data
	keys map[string]bool
}

type sentMsg struct {
	listID  uint64
	expires time.Time
}

// maxPendingDigests bounds one digest's unsent messages, whatever the config.
const maxPendingDigests = 65536

func newDigestEngine(send func(*p4v1.StreamMessageResponse) bool) *digestEngine {
	d := &digestEngine{send: send, now: time.Now}
	d.reset()
	return d
}

func (d *digestEngine) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.configs = map[uint32]*p4v1.DigestEntry_Config{}
	d.pending = map[uint32]*pendingList{}
	d.sent = map[uint32]map[string]sentMsg{}
	d.epoch++
}

func (d *digestEngine) configure(id uint32, cfg *p4v1.DigestEntry_Config, remove bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if remove {
		delete(d.configs, id)
		delete(d.pending, id)
		delete(d.sent, id)
		return
	}
	if cfg == nil {
		cfg = &p4v1.DigestEntry_Config{}
	}
	d.configs[id] = proto.Clone(cfg).(*p4v1.DigestEntry_Config)
}

// add takes digests from the pipeline; it never blocks for long.
func (d *digestEngine) add(ds []target.Digest) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	for _, dg := range ds {
		cfg := d.configs[dg.DigestID]
		if cfg == nil || dg.Data == nil {
			continue
		}
		key, err := proto.MarshalOptions{Deterministic: true}.Marshal(dg.Data)
		if err != nil {
			continue
		}
		k := string(key)
		if s, ok := d.sent[dg.DigestID][k]; ok {
			if now.Before(s.expires) {
				continue
			}
			delete(d.sent[dg.DigestID], k)
		}
		p := d.pending[dg.DigestID]
		if p == nil {
			p = &pendingList{keys: map[string]bool{}}
			d.pending[dg.DigestID] = p
			if cfg.MaxTimeoutNs > 0 {
				id, epoch := dg.DigestID, d.epoch
				time.AfterFunc(time.Duration(cfg.MaxTimeoutNs), func() { d.flushIf(id, p, epoch) })
			}
		}
		if p.keys[k] || len(p.data) >= maxPendingDigests {
			continue
		}
		p.keys[k] = true
		p.data = append(p.data, dg.Data)
		if cfg.MaxTimeoutNs == 0 || (cfg.MaxListSize > 0 && int32(len(p.data)) >= cfg.MaxListSize) {
			d.flushLocked(dg.DigestID, now)
		}
	}
}

func (d *digestEngine) flushIf(id uint32, p *pendingList, epoch uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.epoch == epoch && d.pending[id] == p {
		d.flushLocked(id, d.now())
	}
}

func (d *digestEngine) flushLocked(id uint32, now time.Time) {
	p := d.pending[id]
	delete(d.pending, id)
	if p == nil || len(p.data) == 0 {
		return
	}
	d.nextID++
	list := &p4v1.DigestList{DigestId: id, ListId: d.nextID, Data: p.data, Timestamp: now.UnixNano()}
	if ack := d.configs[id].GetAckTimeoutNs(); ack > 0 {
		if d.sent[id] == nil {
			d.sent[id] = map[string]sentMsg{}
		}
		for k := range p.keys {
			d.sent[id][k] = sentMsg{listID: list.ListId, expires: now.Add(time.Duration(ack))}
		}
	}
	d.send(&p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Digest{Digest: list}})
}

// ack releases the messages of an acknowledged list.
func (d *digestEngine) ack(id uint32, listID uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for k, s := range d.sent[id] {
		if s.listID == listID {
			delete(d.sent[id], k)
		}
	}
}
