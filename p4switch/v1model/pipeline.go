package v1model

import (
	"sync"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/fairfabric/fairfabric/p4switch/interp"
	"github.com/fairfabric/fairfabric/p4switch/target"
)

// Instance types of standard_metadata.instance_type (BMv2 simple_switch).
const (
	InstanceNormal       = 0
	InstanceIngressClone = 1
	InstanceEgressClone  = 2
	InstanceRecirc       = 4
	InstanceReplication  = 5
	InstanceResubmit     = 6
)

const maxResubmits = 16

// Pipeline is a loaded program with its runtime state; it implements target.Pipeline.
type Pipeline struct {
	c       *Compiled
	p       *interp.Program
	cpuPort uint32
	// one state per stage, so that ingress and egress may run concurrently
	ing    *interp.State
	eg     *interp.State
	iclone *interp.State
	eclone *interp.State
	region int // slots of hdr+meta+std that travel with a packet

	writeMu   sync.Mutex
	idle      map[*interp.Entry]*idleWatch // entries with idle timeouts; under writeMu
	pre       preState
	digestCfg map[uint32]*p4v1.DigestEntry_Config

	stdOff  [numStdFields]int // slot of each stdField; -1: the program has no such field
	noField uint64            // written instead of a missing field
	outBufs chan []byte       // free output buffers (RecycleOutput)
	flights sync.Pool

	// Log receives log_msg output and assertion failures (nil: discarded).
	Log func(string)
}

// flight is a packet between ingress and egress.
type flight struct {
	slots    []uint64
	payload  []byte
	truncate int // clone session packet_length_bytes (0 = none)
}

// preserved is carried by resubmitted and recirculated packets.
type preserved struct {
	instance uint64
	fields   []fieldValue
}

type fieldValue struct {
	ref    interp.FieldRef
	values []uint64
}

var _ target.Pipeline = (*Pipeline)(nil)

// New creates a pipeline for a compiled program. Pipelines made from one
// Compiled do not share runtime state (see Compiled).
func New(c *Compiled, cpuPort uint32) *Pipeline {
	c = c.claim()
	p := &Pipeline{c: c, p: c.Prog, cpuPort: cpuPort}
	p.ing, p.eg, p.iclone, p.eclone = p.p.NewState(), p.p.NewState(), p.p.NewState(), p.p.NewState()
	p.region = p.p.Std + p.p.StdLayout.Size
	p.outBufs = make(chan []byte, outputBuffers)
	for i, name := range stdFieldNames {
		off, ok := p.p.StdField[name]
		if !ok {
			off = -1
		}
		p.stdOff[i] = off
	}
	p.idle = map[*interp.Entry]*idleWatch{}
	p.pre.groups = map[uint32][]replica{}
	p.pre.sessions = map[uint32]*cloneSession{}
	for _, st := range []*interp.State{p.ing, p.eg, p.iclone, p.eclone} {
		st.Log = func(s string) {
			if p.Log != nil {
				p.Log(s)
			}
		}
	}
	return p
}

// Compiled returns the compiled program.
func (p *Pipeline) Compiled() *Compiled { return p.c }

// P4Info implements target.Pipeline.
func (p *Pipeline) P4Info() *p4configv1.P4Info { return p.c.P4Info }

// stdField names a standard_metadata field the pipeline reads or writes.
type stdField int

const (
	stdIngressPort stdField = iota
	stdInstanceType
	stdPacketLength
	stdIngressGlobalTimestamp
	stdPriority
	stdMcastGrp
	stdEgressSpec
	stdEgressPort
	stdEgressRid
	stdEnqTimestamp
	stdEnqQdepth
	stdDeqTimedelta
	stdDeqQdepth
	stdEgressGlobalTimestamp
	numStdFields
)

var stdFieldNames = [numStdFields]string{"ingress_port", "instance_type", "packet_length", "ingress_global_timestamp", "priority", "mcast_grp", "egress_spec", "egress_port", "egress_rid", "enq_timestamp", "enq_qdepth", "deq_timedelta", "deq_qdepth", "egress_global_timestamp"}

// std returns field f of st's standard_metadata. Offsets are looked up
// once, in New, because this is on the per-packet path.
func (p *Pipeline) std(st *interp.State, f stdField) *uint64 {
	off := p.stdOff[f]
	if off < 0 {
		p.noField = 0
		return &p.noField
	}
	return &st.S[off]
}

func micros(d time.Duration) uint64 { return uint64(d / time.Microsecond) }

// Ingress implements target.Pipeline.
func (p *Pipeline) Ingress(a target.Arrival) target.IngressResult {
	var res target.IngressResult
	data, pres := a.Data, a.Preserved
	for round := 0; round < maxResubmits; round++ {
		resub := p.ingressOnce(a.Port, data, a.Now, pres, &res)
		if resub == nil {
			break
		}
		pres = resub
	}
	return res
}

// ingressOnce runs one pass; it returns the preserved state when the packet is resubmitted.
func (p *Pipeline) ingressOnce(port uint32, data []byte, now time.Duration, pres any, res *target.IngressResult) *preserved {
	st := p.ing
	st.Reset(data, now)
	instance := uint64(InstanceNormal)
	if pr, ok := pres.(*preserved); ok {
		instance = pr.instance
		p.restore(st, pr)
	}
	*p.std(st, stdIngressPort) = uint64(port)
	*p.std(st, stdInstanceType) = instance
	*p.std(st, stdPacketLength) = uint64(len(data))
	*p.std(st, stdIngressGlobalTimestamp) = micros(now) & (1<<48 - 1)
	p.p.Parser(st)
	p.p.VerifyChecksum(st)
	st.ClearExit()
	p.p.Ingress(st)
	st.ClearExit()
	if st.Failure != "" {
		if p.Log != nil {
			p.Log(st.Failure)
		}
		return nil
	}
	// I2E clone: the last clone request wins, as in BMv2
	for i := len(st.Clones) - 1; i >= 0; i-- {
		if !st.Clones[i].E2E {
			p.ingressClone(st, st.Clones[i], port, data, now, res)
			break
		}
	}
	for _, d := range st.Digests {
		res.Digests = append(res.Digests, p.digest(d))
	}
	if st.Resubmit != 0 {
		return &preserved{instance: InstanceResubmit, fields: p.save(st, st.Resubmit-1)}
	}
	payload := st.Payload()
	prio := uint8(*p.std(st, stdPriority) & 7)
	if grp := uint32(*p.std(st, stdMcastGrp)); grp != 0 {
		for _, r := range p.pre.group(grp) {
			f := p.capture(st, payload)
			f.slots[p.stdOff[stdEgressPort]] = uint64(r.port)
			f.slots[p.stdOff[stdEgressRid]] = uint64(r.rid)
			f.slots[p.stdOff[stdInstanceType]] = InstanceReplication
			res.Queued = append(res.Queued, target.Queued{EgressPort: r.port, Priority: prio, Length: len(data), Packet: f})
		}
		return nil
	}
	spec := *p.std(st, stdEgressSpec)
	if spec == interp.DropPort {
		return nil
	}
	f := p.capture(st, payload)
	f.slots[p.stdOff[stdEgressPort]] = spec
	res.Queued = append(res.Queued, target.Queued{EgressPort: uint32(spec), Priority: prio, Length: len(data), Packet: f})
	return nil
}

// capture copies the packet's header, metadata and standard metadata.
func (p *Pipeline) capture(st *interp.State, payload []byte) *flight {
	f, _ := p.flights.Get().(*flight)
	if f == nil {
		f = &flight{slots: make([]uint64, p.region)}
	}
	f.payload = payload // read-only: Arrival.Data belongs to the pipeline until egress
	f.truncate = 0
	copy(f.slots, st.S[:p.region])
	return f
}

func (p *Pipeline) save(st *interp.State, idx int) []fieldValue {
	var out []fieldValue
	for _, r := range p.p.FieldLists[idx] {
		out = append(out, fieldValue{ref: r, values: append([]uint64(nil), st.S[r.Off:r.Off+r.Size]...)})
	}
	return out
}

func (p *Pipeline) restore(st *interp.State, pr *preserved) {
	for _, fv := range pr.fields {
		copy(st.S[fv.ref.Off:fv.ref.Off+fv.ref.Size], fv.values)
	}
}

func (p *Pipeline) clearMeta(st *interp.State) {
	clear(st.S[p.p.Meta : p.p.Meta+p.p.MetaLayout.Size])
	clear(st.S[p.p.Std : p.p.Std+p.p.StdLayout.Size])
}

// ingressClone re-parses the original packet for every replica of the session.
func (p *Pipeline) ingressClone(orig *interp.State, req interp.CloneRequest, port uint32, data []byte, now time.Duration, res *target.IngressResult) {
	sess := p.pre.session(req.Session)
	if sess == nil {
		return
	}
	fields := []fieldValue(nil)
	if req.FieldList >= 0 {
		fields = p.save(orig, req.FieldList)
	}
	prio := uint8(*p.std(orig, stdPriority) & 7)
	cl := p.iclone
	for _, r := range sess.replicas {
		cl.Reset(data, now)
		*p.std(cl, stdIngressPort) = uint64(port)
		p.p.Parser(cl)
		cl.ClearExit()
		p.clearMeta(cl)
		p.restore(cl, &preserved{fields: fields})
		*p.std(cl, stdIngressPort) = uint64(port)
		*p.std(cl, stdInstanceType) = InstanceIngressClone
		*p.std(cl, stdPacketLength) = uint64(len(data))
		*p.std(cl, stdEgressPort) = uint64(r.port)
		*p.std(cl, stdEgressRid) = uint64(r.rid)
		f := p.capture(cl, cl.Payload())
		f.truncate = sess.truncate
		res.Queued = append(res.Queued, target.Queued{EgressPort: r.port, Priority: prio, Length: len(data), Packet: f})
	}
}

// Egress implements target.Pipeline.
func (p *Pipeline) Egress(q target.Queued, m target.QueueMeta) target.EgressResult {
	var res target.EgressResult
	f, ok := q.Packet.(*flight)
	if !ok {
		return res
	}
	st := p.eg
	st.Reset(f.payload, m.Now)
	st.Length = q.Length
	copy(st.S[:p.region], f.slots)
	*p.std(st, stdEgressPort) = uint64(q.EgressPort)
	*p.std(st, stdEnqTimestamp) = micros(m.EnqTimestamp) & 0xffffffff
	*p.std(st, stdEnqQdepth) = uint64(m.EnqQdepth) & (1<<19 - 1)
	*p.std(st, stdDeqTimedelta) = micros(m.DeqTimedelta) & 0xffffffff
	*p.std(st, stdDeqQdepth) = uint64(m.DeqQdepth) & (1<<19 - 1)
	*p.std(st, stdEgressGlobalTimestamp) = micros(m.Now) & (1<<48 - 1)
	p.p.Egress(st)
	st.ClearExit()
	if st.Failure != "" {
		if p.Log != nil {
			p.Log(st.Failure)
		}
		return res
	}
	for i := len(st.Clones) - 1; i >= 0; i-- {
		if st.Clones[i].E2E {
			p.egressClone(st, st.Clones[i], f.payload, q, &res)
			break
		}
	}
	for _, d := range st.Digests {
		res.Digests = append(res.Digests, p.digest(d))
	}
	if *p.std(st, stdEgressSpec) == interp.DropPort {
		return res
	}
	p.p.ComputeChecksum(st)
	st.ClearExit()
	p.p.Deparser(st)
	emitted := st.Emitted()
	out := p.outputBuffer(len(emitted) + len(f.payload))
	copy(out[copy(out, emitted):], f.payload)
	if st.Truncate > 0 && st.Truncate < len(out) {
		out = out[:st.Truncate]
	}
	if f.truncate > 0 && f.truncate < len(out) {
		out = out[:f.truncate]
	}
	if st.Recirc != 0 {
		res.Recirc = append(res.Recirc, target.Recirculation{Data: out, Preserved: &preserved{instance: InstanceRecirc, fields: p.save(st, st.Recirc-1)}})
		return res
	}
	res.Out = &target.Output{Port: q.EgressPort, Data: out}
	f.payload = nil
	p.flights.Put(f)
	return res
}

// outputBuffers holds sent frames' buffers for reuse (RecycleOutput).
const outputBuffers = 4096

// outputBufferSize fits every frame of a 1500-byte MTU (and then some).
const outputBufferSize = 2048

// outputBuffer returns an n-byte buffer for a deparsed frame.
func (p *Pipeline) outputBuffer(n int) []byte {
	if n <= outputBufferSize {
		select {
		case b := <-p.outBufs:
			return b[:n]
		default:
			return make([]byte, n, outputBufferSize)
		}
	}
	return make([]byte, n)
}

// RecycleOutput implements target.OutputRecycler.
func (p *Pipeline) RecycleOutput(data []byte) {
	if cap(data) != outputBufferSize {
		return
	}
	select {
	case p.outBufs <- data[:0]:
	default:
	}
}

func (p *Pipeline) egressClone(st *interp.State, req interp.CloneRequest, payload []byte, q target.Queued, res *target.EgressResult) {
	sess := p.pre.session(req.Session)
	if sess == nil {
		return
	}
	fields := []fieldValue(nil)
	if req.FieldList >= 0 {
		fields = p.save(st, req.FieldList)
	}
	for _, r := range sess.replicas {
		f := p.capture(st, payload)
		tmp := p.eclone
		tmp.Reset(nil, 0)
		copy(tmp.S[:p.region], f.slots)
		p.clearMeta(tmp)
		p.restore(tmp, &preserved{fields: fields})
		*p.std(tmp, stdInstanceType) = InstanceEgressClone
		*p.std(tmp, stdEgressPort) = uint64(r.port)
		*p.std(tmp, stdEgressRid) = uint64(r.rid)
		*p.std(tmp, stdIngressPort) = f.slots[p.stdOff[stdIngressPort]]
		copy(f.slots, tmp.S[:p.region])
		f.truncate = sess.truncate
		res.Queued = append(res.Queued, target.Queued{EgressPort: r.port, Priority: q.Priority, Length: q.Length, Packet: f})
	}
}

func (p *Pipeline) digest(d interp.DigestMessage) target.Digest {
	return target.Digest{DigestID: p.c.IDs.Digests[d.Type], Data: p4Data(d.Type.Layout, d.Values)}
}

// p4Data converts stored slots into P4Runtime's P4Data.
func p4Data(l *interp.Layout, s []uint64) *p4v1.P4Data {
	switch l.Kind {
	case interp.KScalar:
		return &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: wordsBytes(s[:l.Words], l.Width)}}
	case interp.KStruct, interp.KTuple:
		var members []*p4v1.P4Data
		for _, f := range l.Fields {
			members = append(members, p4Data(f.Layout, s[f.Off:f.Off+f.Layout.Size]))
		}
		if l.Kind == interp.KTuple {
			return &p4v1.P4Data{Data: &p4v1.P4Data_Tuple{Tuple: &p4v1.P4StructLike{Members: members}}}
		}
		return &p4v1.P4Data{Data: &p4v1.P4Data_Struct{Struct: &p4v1.P4StructLike{Members: members}}}
	case interp.KHeader:
		h := &p4v1.P4Header{IsValid: s[0] != 0}
		for _, f := range l.Fields {
			h.Bitstrings = append(h.Bitstrings, wordsBytes(s[f.Off:f.Off+f.Layout.Words], f.Layout.Width))
		}
		return &p4v1.P4Data{Data: &p4v1.P4Data_Header{Header: h}}
	}
	return &p4v1.P4Data{}
}
