package datapath

import (
	"encoding/binary"
	"fmt"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
)

// Offsets in struct __sk_buff (include/uapi/linux/bpf.h).
const (
	skbProtocol    = 16
	skbVlanPresent = 20
	skbVlanTCI     = 24
	skbPriority    = 32
)

const (
	ethHdrLen   = 14
	protoIPv4BE = 0x0008 // htons(ETH_P_IP) as __sk_buff.protocol holds it
	proto8021Q  = 0x0081 // htons(ETH_P_8021Q), the vlan_proto argument of bpf_skb_vlan_push
	tcActOK     = 0
	bpfNoExist  = 1
)

// sessionValue is the value of the egress program's sessions map, keyed by the
// destination IPv4 address (network byte order). Unused path slots repeat the last
// path with cum = 0xffffffff and vt = max, so that the program needs no bound check.
//
// Per-packet split is a byte-weighted round robin: each path has a virtual time vt
// that advances by len * mult (mult = 2^24 / weight) when it carries a packet, and a
// packet takes the path with the smallest vt. So every path's bytes stay within one
// packet of its share. Per-flow split draws from the flow hash with the cum table.
type sessionValue struct {
	NPaths  uint32
	Total   uint32 // sum of weights; a flow hash is reduced to [0, Total)
	Split   uint32 // 0: per packet, 1: per flow hash
	_       uint32
	Cum     [4]uint32 // flow split: path i is taken when r < Cum[i] (first match)
	ClassID [4]uint32 // HTB class (major:minor) of the session-path
	VID     [4]uint32 // 802.1Q VID = path id; 0 = leave untagged
	Mult    [4]uint32 // packet split: 2^24 / weight
	VT      [4]uint64 // packet split: virtual time of each path (updated by the program)
}

const (
	sessionValueSize = 112
	offCum           = 16
	offClassID       = 32
	offVID           = 48
	offMult          = 64
	offVT            = 80
)

func (v sessionValue) marshal() []byte {
	b := make([]byte, sessionValueSize)
	le := binary.LittleEndian
	le.PutUint32(b[0:], v.NPaths)
	le.PutUint32(b[4:], v.Total)
	le.PutUint32(b[8:], v.Split)
	for i := 0; i < 4; i++ {
		le.PutUint32(b[offCum+4*i:], v.Cum[i])
		le.PutUint32(b[offClassID+4*i:], v.ClassID[i])
		le.PutUint32(b[offVID+4*i:], v.VID[i])
		le.PutUint32(b[offMult+4*i:], v.Mult[i])
		le.PutUint64(b[offVT+8*i:], v.VT[i])
	}
	return b
}

// recvKey / recvValue: the ingress program's counters, Promenade's
// PathBytes[<sender, receiver>][EC path id] (Eq. 5) plus packets and IP bytes. The
// receiver is the packet's destination address, not the host's: a host's VMs have
// addresses of their own, and each VM pair is a session of its own.
const (
	recvKeySize   = 12 // saddr, daddr (network order), vid
	recvValueSize = 24 // packets, ip_bytes, payload_bytes (u64 each)
)

func newSessionsMap() (*ebpf.Map, error) {
	return ebpf.NewMap(&ebpf.MapSpec{Name: "ff_sessions", Type: ebpf.Hash, KeySize: 4, ValueSize: sessionValueSize, MaxEntries: 1024})
}

// unpinned: the egress program's counters of traffic to destinations that have no
// session in the table (packets, bytes of Ethernet frames), keyed by the destination.
// LRU: a host that talks to many unknown destinations evicts the oldest.
const unpinnedValueSize = 16

func newUnpinnedMap() (*ebpf.Map, error) {
	return ebpf.NewMap(&ebpf.MapSpec{Name: "ff_unpinned", Type: ebpf.LRUHash, KeySize: 4, ValueSize: unpinnedValueSize, MaxEntries: 4096})
}

func newRecvMap() (*ebpf.Map, error) {
	return ebpf.NewMap(&ebpf.MapSpec{Name: "ff_recv", Type: ebpf.Hash, KeySize: recvKeySize, ValueSize: recvValueSize, MaxEntries: 16384})
}

// egressProgram classifies IPv4 packets by destination into their session, picks
// one of the session's paths in proportion to the path weights, sets skb->priority
// to the session-path's HTB class and pushes the path's VLAN tag. A packet whose
// destination has no session is counted in unpinned and left alone.
func egressProgram(sessions, unpinned *ebpf.Map) (*ebpf.Program, error) {
	ins := asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.LoadMem(asm.R2, asm.R6, skbProtocol, asm.Word),
		asm.JNE.Imm(asm.R2, protoIPv4BE, "pass"),
		// dst address -> fp-8
		asm.Mov.Reg(asm.R1, asm.R6),
		asm.Mov.Imm(asm.R2, ethHdrLen+16),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, -8),
		asm.Mov.Imm(asm.R4, 4),
		asm.FnSkbLoadBytes.Call(),
		asm.JNE.Imm(asm.R0, 0, "pass"),
		asm.LoadMapPtr(asm.R1, sessions.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -8),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, "unpinned"),
		asm.Mov.Reg(asm.R7, asm.R0),
		asm.LoadMem(asm.R3, asm.R7, 8, asm.Word),
		asm.JEq.Imm(asm.R3, 1, "flow"),
		// per packet: R8 = index of the path with the smallest virtual time (R1)
		asm.Mov.Imm(asm.R8, 0),
		asm.LoadMem(asm.R1, asm.R7, offVT, asm.DWord),
	}
	for i := 1; i < 4; i++ {
		next := fmt.Sprintf("vt%d", i)
		ins = append(ins,
			asm.LoadMem(asm.R2, asm.R7, int16(offVT+8*i), asm.DWord),
			asm.JGE.Reg(asm.R2, asm.R1, next),
			asm.Mov.Reg(asm.R1, asm.R2),
			asm.Mov.Imm(asm.R8, int32(i)),
			asm.Mov.Imm(asm.R0, 0).WithSymbol(next), // landing
		)
	}
	for i := 0; i < 3; i++ {
		ins = append(ins, asm.JEq.Imm(asm.R8, int32(i), fmt.Sprintf("advance%d", i)))
	}
	ins = append(ins, asm.Ja.Label("advance3"))
	for i := 0; i < 4; i++ {
		// vt[i] += len * mult[i], atomically; then take path i
		ins = append(ins,
			asm.LoadMem(asm.R2, asm.R6, 0, asm.Word).WithSymbol(fmt.Sprintf("advance%d", i)), // skb->len
			asm.LoadMem(asm.R3, asm.R7, int16(offMult+4*i), asm.Word),
			asm.Mul.Reg(asm.R2, asm.R3),
			asm.Mov.Reg(asm.R3, asm.R7),
			asm.Add.Imm(asm.R3, int32(offVT+8*i)),
			asm.StoreXAdd(asm.R3, asm.R2, asm.DWord),
			asm.Ja.Label(fmt.Sprintf("path%d", i)),
		)
	}
	ins = append(ins,
		// per flow: r = hash % total, first path with r < cum[i]
		asm.Mov.Reg(asm.R1, asm.R6).WithSymbol("flow"),
		asm.FnGetHashRecalc.Call(),
		asm.LoadMem(asm.R2, asm.R7, 4, asm.Word),
		asm.JEq.Imm(asm.R2, 0, "pass"),
		asm.Mod.Reg32(asm.R0, asm.R2),
	)
	for i := 0; i < 3; i++ {
		ins = append(ins,
			asm.LoadMem(asm.R3, asm.R7, int16(offCum+4*i), asm.Word),
			asm.JLT.Reg(asm.R0, asm.R3, fmt.Sprintf("path%d", i)),
		)
	}
	ins = append(ins, asm.Ja.Label("path3"))
	for i := 0; i < 4; i++ {
		ins = append(ins,
			asm.LoadMem(asm.R4, asm.R7, int16(offClassID+4*i), asm.Word).WithSymbol(fmt.Sprintf("path%d", i)),
			asm.LoadMem(asm.R5, asm.R7, int16(offVID+4*i), asm.Word),
			asm.Ja.Label("apply"),
		)
	}
	ins = append(ins,
		asm.StoreMem(asm.R6, skbPriority, asm.R4, asm.Word).WithSymbol("apply"),
		asm.JEq.Imm(asm.R5, 0, "pass"),
		asm.Mov.Reg(asm.R1, asm.R6),
		asm.Mov.Imm(asm.R2, proto8021Q),
		asm.Mov.Reg(asm.R3, asm.R5),
		asm.FnSkbVlanPush.Call(),
		asm.Ja.Label("pass"),
		// no session: unpinned[dst] += {1, len}; the key is still at fp-8
		asm.LoadMapPtr(asm.R1, unpinned.FD()).WithSymbol("unpinned"),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -8),
		asm.FnMapLookupElem.Call(),
		asm.JNE.Imm(asm.R0, 0, "ucount"),
		asm.StoreImm(asm.RFP, -24, 0, asm.DWord),
		asm.StoreImm(asm.RFP, -16, 0, asm.DWord),
		asm.LoadMapPtr(asm.R1, unpinned.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -8),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, -24),
		asm.Mov.Imm(asm.R4, bpfNoExist),
		asm.FnMapUpdateElem.Call(),
		asm.LoadMapPtr(asm.R1, unpinned.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -8),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, "pass"),
		asm.Mov.Imm(asm.R1, 1).WithSymbol("ucount"),
		asm.StoreXAdd(asm.R0, asm.R1, asm.DWord),
		asm.LoadMem(asm.R2, asm.R6, 0, asm.Word), // skb->len
		asm.Add.Imm(asm.R0, 8),
		asm.StoreXAdd(asm.R0, asm.R2, asm.DWord),
		asm.Mov.Imm(asm.R0, tcActOK).WithSymbol("pass"),
		asm.Return(),
	)
	return ebpf.NewProgram(&ebpf.ProgramSpec{Name: "ff_egress", Type: ebpf.SchedCLS, License: "GPL", Instructions: ins})
}

// ingressProgram pops the path's VLAN tag (if the last hop left it on) and adds
// the packet to PathBytes[source, destination][vid]; vid 0 counts untagged packets.
func ingressProgram(recv *ebpf.Map) (*ebpf.Program, error) {
	const ipHdr = -64 // 20 bytes of IPv4 header on the stack
	ins := asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.LoadMem(asm.R2, asm.R6, skbProtocol, asm.Word),
		asm.JNE.Imm(asm.R2, protoIPv4BE, "pass"),
		asm.Mov.Imm(asm.R8, 0),
		asm.LoadMem(asm.R2, asm.R6, skbVlanPresent, asm.Word),
		asm.JEq.Imm(asm.R2, 0, "untagged"),
		asm.LoadMem(asm.R8, asm.R6, skbVlanTCI, asm.Word),
		asm.And.Imm(asm.R8, 0xfff),
		asm.Mov.Reg(asm.R1, asm.R6),
		asm.FnSkbVlanPop.Call(),
		asm.JNE.Imm(asm.R0, 0, "pass"),
		asm.Mov.Reg(asm.R1, asm.R6).WithSymbol("untagged"),
		asm.Mov.Imm(asm.R2, ethHdrLen),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, ipHdr),
		asm.Mov.Imm(asm.R4, 20),
		asm.FnSkbLoadBytes.Call(),
		asm.JNE.Imm(asm.R0, 0, "pass"),
		// key = {saddr, daddr, vid} at fp-16
		asm.LoadMem(asm.R2, asm.RFP, ipHdr+12, asm.Word),
		asm.StoreMem(asm.RFP, -16, asm.R2, asm.Word),
		asm.LoadMem(asm.R2, asm.RFP, ipHdr+16, asm.Word),
		asm.StoreMem(asm.RFP, -12, asm.R2, asm.Word),
		asm.StoreMem(asm.RFP, -8, asm.R8, asm.Word),
		// R9 = IHL in bytes, R7 = total length
		asm.LoadMem(asm.R9, asm.RFP, ipHdr, asm.Byte),
		asm.And.Imm(asm.R9, 0x0f),
		asm.LSh.Imm(asm.R9, 2),
		asm.LoadMem(asm.R7, asm.RFP, ipHdr+2, asm.Half),
		asm.HostTo(asm.BE, asm.R7, asm.Half),
		// R8 = L4 header length
		asm.Mov.Imm(asm.R8, 0),
		asm.LoadMem(asm.R2, asm.RFP, ipHdr+9, asm.Byte),
		asm.JEq.Imm(asm.R2, 17, "udp"),
		asm.JNE.Imm(asm.R2, 6, "l4done"),
		asm.Mov.Reg(asm.R1, asm.R6),
		asm.Mov.Reg(asm.R2, asm.R9),
		asm.Add.Imm(asm.R2, ethHdrLen+12),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, -72),
		asm.Mov.Imm(asm.R4, 1),
		asm.FnSkbLoadBytes.Call(),
		asm.JNE.Imm(asm.R0, 0, "l4done"),
		asm.LoadMem(asm.R8, asm.RFP, -72, asm.Byte),
		asm.RSh.Imm(asm.R8, 4),
		asm.LSh.Imm(asm.R8, 2),
		asm.Ja.Label("l4done"),
		asm.Mov.Imm(asm.R8, 8).WithSymbol("udp"),
		// R8 = payload = total - ihl - l4 (0 if negative)
		asm.Add.Reg(asm.R8, asm.R9).WithSymbol("l4done"),
		asm.JGT.Reg(asm.R8, asm.R7, "nopayload"),
		asm.Mov.Reg(asm.R2, asm.R7),
		asm.Sub.Reg(asm.R2, asm.R8),
		asm.Mov.Reg(asm.R8, asm.R2),
		asm.Ja.Label("lookup"),
		asm.Mov.Imm(asm.R8, 0).WithSymbol("nopayload"),
		asm.LoadMapPtr(asm.R1, recv.FD()).WithSymbol("lookup"),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -16),
		asm.FnMapLookupElem.Call(),
		asm.JNE.Imm(asm.R0, 0, "count"),
		asm.StoreImm(asm.RFP, -40, 0, asm.DWord),
		asm.StoreImm(asm.RFP, -32, 0, asm.DWord),
		asm.StoreImm(asm.RFP, -24, 0, asm.DWord),
		asm.LoadMapPtr(asm.R1, recv.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -16),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, -40),
		asm.Mov.Imm(asm.R4, bpfNoExist),
		asm.FnMapUpdateElem.Call(),
		asm.LoadMapPtr(asm.R1, recv.FD()),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -16),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, "pass"),
		asm.Mov.Imm(asm.R1, 1).WithSymbol("count"),
		asm.StoreXAdd(asm.R0, asm.R1, asm.DWord),
		asm.Add.Imm(asm.R0, 8),
		asm.StoreXAdd(asm.R0, asm.R7, asm.DWord),
		asm.Add.Imm(asm.R0, 8),
		asm.StoreXAdd(asm.R0, asm.R8, asm.DWord),
		asm.Mov.Imm(asm.R0, tcActOK).WithSymbol("pass"),
		asm.Return(),
	}
	return ebpf.NewProgram(&ebpf.ProgramSpec{Name: "ff_ingress", Type: ebpf.SchedCLS, License: "GPL", Instructions: ins})
}
