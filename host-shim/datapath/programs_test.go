package datapath

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"os"
	"testing"

	"github.com/cilium/ebpf"
)

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("eBPF and netlink tests need root (the test command runs as root)")
	}
}

// packet builds Ethernet + IPv4 + (TCP with 32-byte header | UDP) + payload.
func packet(src, dst string, proto byte, payload int) []byte {
	l4 := 8
	if proto == 6 {
		l4 = 32
	}
	b := make([]byte, 14+20+l4+payload)
	binary.BigEndian.PutUint16(b[12:], 0x0800)
	ip := b[14:]
	ip[0] = 0x45
	binary.BigEndian.PutUint16(ip[2:], uint16(20+l4+payload))
	ip[8], ip[9] = 64, proto
	s, d := netip.MustParseAddr(src).As4(), netip.MustParseAddr(dst).As4()
	copy(ip[12:], s[:])
	copy(ip[16:], d[:])
	if proto == 6 {
		ip[20+12] = 8 << 4 // data offset 8 words
	}
	return b
}

// run executes prog once on pkt and returns skb->priority afterwards.
func run(t *testing.T, prog *ebpf.Program, pkt []byte) uint32 {
	t.Helper()
	ctxIn := make([]byte, 192)
	ctxOut := make([]byte, 192)
	ret, err := prog.Run(&ebpf.RunOptions{Data: pkt, Context: ctxIn, ContextOut: ctxOut})
	if err != nil {
		t.Fatalf("test run: %v", err)
	}
	if ret != tcActOK {
		t.Fatalf("program returned %d, want TC_ACT_OK", ret)
	}
	return binary.LittleEndian.Uint32(ctxOut[skbPriority:])
}

func TestEgressSplitsByWeight(t *testing.T) {
	needRoot(t)
	sessions, err := newSessionsMap()
	if err != nil {
		t.Fatal(err)
	}
	defer sessions.Close()
	unpinned, err := newUnpinnedMap()
	if err != nil {
		t.Fatal(err)
	}
	defer unpinned.Close()
	prog, err := egressProgram(sessions, unpinned)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	put := func(dst string, v sessionValue) {
		if err := sessions.Put(netip.MustParseAddr(dst).As4(), v.marshal()); err != nil {
			t.Fatal(err)
		}
	}
	// 10.0.0.2: paths with weights 2:1 -> classes 1:1 and 1:2, split per packet;
	// 10.0.0.4: the same split per flow; 10.0.0.3: one path, class 1:7.
	maxVT := ^uint64(0)
	twoPaths := sessionValue{NPaths: 2, Total: 3, Cum: [4]uint32{2, 3, ^uint32(0), ^uint32(0)}, ClassID: [4]uint32{0x10001, 0x10002, 0x10002, 0x10002},
		VID: [4]uint32{1, 2, 2, 2}, Mult: [4]uint32{1 << 23, 1 << 24, 0, 0}, VT: [4]uint64{0, 0, maxVT, maxVT}}
	put("10.0.0.2", twoPaths)
	perFlow := twoPaths
	perFlow.Split = 1
	put("10.0.0.4", perFlow)
	put("10.0.0.3", sessionValue{NPaths: 1, Total: 1, Cum: [4]uint32{1, ^uint32(0), ^uint32(0), ^uint32(0)}, ClassID: [4]uint32{0x10007, 0x10007, 0x10007, 0x10007},
		Mult: [4]uint32{1 << 24}, VT: [4]uint64{0, maxVT, maxVT, maxVT}})

	tests := []struct {
		name   string
		dst    string
		n      int
		want   map[uint32]float64 // class -> expected share
		margin float64
	}{
		{"two paths 2:1 per packet: exact", "10.0.0.2", 3000, map[uint32]float64{0x10001: 2.0 / 3, 0x10002: 1.0 / 3}, 0.001},
		{"per flow: one flow sticks to one path", "10.0.0.4", 100, nil, 0},
		{"single path", "10.0.0.3", 50, map[uint32]float64{0x10007: 1}, 0},
		{"no session: priority untouched", "10.0.0.9", 50, map[uint32]float64{0: 1}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[uint32]int{}
			pkt := packet("10.0.0.1", tc.dst, 17, 100)
			for i := 0; i < tc.n; i++ {
				got[run(t, prog, pkt)]++
			}
			if tc.want == nil && len(got) != 1 {
				t.Errorf("one flow went to %d classes: %v", len(got), got)
			}
			for class, share := range tc.want {
				f := float64(got[class]) / float64(tc.n)
				if f < share-tc.margin || f > share+tc.margin {
					t.Errorf("class %#x got share %.3f, want %.3f±%.2f (counts %v)", class, f, share, tc.margin, got)
				}
			}
		})
	}
	// only the packets to 10.0.0.9, which has no session, are counted as unpinned (frames of 14+20+8+100 bytes)
	d := &Datapath{unpinned: unpinned}
	got, err := d.Unpinned()
	if err != nil {
		t.Fatal(err)
	}
	want := map[netip.Addr]SentCounters{netip.MustParseAddr("10.0.0.9"): {Packets: 50, Bytes: 50 * 142}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("unpinned counters %v, want %v", got, want)
	}
}

func TestIngressCountsPathBytes(t *testing.T) {
	needRoot(t)
	recv, err := newRecvMap()
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	prog, err := ingressProgram(recv)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	d := &Datapath{recv: recv}
	sends := []struct {
		src, dst string
		proto    byte
		payload  int
		times    int
	}{
		{"10.0.0.1", "10.0.0.2", 6, 1448, 3},
		{"10.0.0.1", "10.0.0.2", 17, 1000, 2},
		{"10.0.0.5", "10.0.0.2", 17, 0, 4},
		{"10.0.0.5", "10.0.0.2", 1, 56, 1},      // ICMP: whole IP payload counts
		{"10.0.0.1", "10.200.1.2", 17, 1000, 2}, // a VM on the host: a pair of its own
	}
	for _, s := range sends {
		for i := 0; i < s.times; i++ {
			run(t, prog, packet(s.src, s.dst, s.proto, s.payload))
		}
	}
	got, err := d.Received()
	if err != nil {
		t.Fatal(err)
	}
	a := netip.MustParseAddr
	want := map[RecvKey]RecvCounters{
		{a("10.0.0.1"), a("10.0.0.2"), 0}:   {Packets: 5, IPBytes: 3*(20+32+1448) + 2*(20+8+1000), PayloadBytes: 3*1448 + 2*1000},
		{a("10.0.0.5"), a("10.0.0.2"), 0}:   {Packets: 5, IPBytes: 4*28 + (20 + 8 + 56), PayloadBytes: 8 + 56},
		{a("10.0.0.1"), a("10.200.1.2"), 0}: {Packets: 2, IPBytes: 2 * (20 + 8 + 1000), PayloadBytes: 2 * 1000},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%v: got %+v, want %+v", k, got[k], w)
		}
	}
}
