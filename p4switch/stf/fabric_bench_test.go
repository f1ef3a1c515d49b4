package stf

import (
	"encoding/hex"
	"strings"
	"syscall"
	"testing"

	"github.com/fairfabric/fairfabric/p4switch/target"
	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

// fabricLeaf programs a fat-tree leaf (host ports 1-2, uplinks 3-4) of the
// deployed fabric.p4, as pipeconfs/p4/tests/pinned_paths.stf does for the
// test build.
const fabricLeaf = `
add FabricIngress.port_kind.ingress_port_kind standard_metadata.ingress_port:1 FabricIngress.port_kind.set_ingress_port_kind(kind:1)
add FabricEgress.port_kind.egress_port_kind standard_metadata.egress_port:1 FabricEgress.port_kind.set_egress_port_kind(kind:1)
add FabricIngress.port_kind.ingress_port_kind standard_metadata.ingress_port:2 FabricIngress.port_kind.set_ingress_port_kind(kind:1)
add FabricEgress.port_kind.egress_port_kind standard_metadata.egress_port:2 FabricEgress.port_kind.set_egress_port_kind(kind:1)
add FabricIngress.port_kind.ingress_port_kind standard_metadata.ingress_port:3 FabricIngress.port_kind.set_ingress_port_kind(kind:2)
add FabricEgress.port_kind.egress_port_kind standard_metadata.egress_port:3 FabricEgress.port_kind.set_egress_port_kind(kind:2)
add FabricIngress.port_kind.ingress_port_kind standard_metadata.ingress_port:4 FabricIngress.port_kind.set_ingress_port_kind(kind:2)
add FabricEgress.port_kind.egress_port_kind standard_metadata.egress_port:4 FabricEgress.port_kind.set_egress_port_kind(kind:2)
add FabricEgress.rewrite.port_macs standard_metadata.egress_port:1 FabricEgress.rewrite.rewrite_macs(src_mac:0x00000000aa01, dst_mac:0x000000000101)
add FabricEgress.rewrite.port_macs standard_metadata.egress_port:2 FabricEgress.rewrite.rewrite_macs(src_mac:0x00000000aa01, dst_mac:0x000000000102)
add FabricEgress.rewrite.port_macs standard_metadata.egress_port:3 FabricEgress.rewrite.rewrite_macs(src_mac:0x00000000aa01, dst_mac:0x00000000bb01)
add FabricEgress.rewrite.port_macs standard_metadata.egress_port:4 FabricEgress.rewrite.rewrite_macs(src_mac:0x00000000aa01, dst_mac:0x00000000bb02)
add FabricIngress.my_station.my_station hdr.ethernet.dst_addr:0x00000000aa01 NoAction()
add FabricIngress.downward_routing.routing_down hdr.ipv4.dst_addr:0x0a000101/32 FabricIngress.downward_routing.route_down(port:1)
add FabricIngress.downward_routing.routing_down hdr.ipv4.dst_addr:0x0a000102/32 FabricIngress.downward_routing.route_down(port:2)
add FabricIngress.pinned_path.pinned_path hdr.vlan.vid:7 FabricIngress.pinned_path.set_pinned_uplink(port:3)
mirroring_add 511 255
`

// fabricPackets are the frames a leaf forwards in the fat-tree, each padded
// to 1514 bytes: up a pinned path (tag kept, shim pushed), down from the
// fabric to a host (tag and shim removed), and host to host on the leaf.
var fabricPackets = []struct {
	name string
	port uint32
	hex  string
	out  uint32
}{
	{"up", 1, "00000000aa010000000001018100 00070800 4500002e00010000401163bd0a0001010a00020103e807d0001a", 3},
	{"down", 3, "00000000aa0100000000bb018100 000788b5 0000000001f40000000000000000000000000800 4500002e000100003e1165bd0a0002010a00010103e807d0001a", 1},
	{"local", 1, "00000000aa010000000001010800 4500002e00010000401164bc0a0001010a00010203e807d0001a", 2},
}

// BenchmarkFabricForward measures ingress + egress of the deployed
// fabric.p4 for one 1514-byte frame (ns/op = CPU per packet), cycling
// through fabricPackets as a leaf under load sees them.
//
//	go test -run X -bench FabricForward -count 6 ./p4switch/stf/
func BenchmarkFabricForward(b *testing.B) {
	c, err := v1model.CompileFile("../../pipeconfs/p4/fabric.p4", nil)
	if err != nil {
		b.Fatal(err)
	}
	p := v1model.New(c, 255)
	r := &runner{p: p, name: "fabricLeaf", expected: map[uint32][]expectation{}, anyPort: map[uint32]bool{}, received: map[uint32][][]byte{}, nodes: map[int][]replica{}, groups: map[uint32][]replica{}, ports: map[uint32]bool{}}
	for _, line := range strings.Split(fabricLeaf, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			if err := r.command(line); err != nil {
				b.Fatalf("%s: %v", line, err)
			}
		}
	}
	frames := make([][]byte, len(fabricPackets))
	for i, fp := range fabricPackets {
		f, err := hex.DecodeString(strings.ReplaceAll(fp.hex, " ", ""))
		if err != nil {
			b.Fatal(err)
		}
		frames[i] = append(f, make([]byte, 1514-len(f))...)
	}
	forward := func(i int) uint32 {
		res := p.Ingress(target.Arrival{Port: fabricPackets[i].port, Data: frames[i]})
		if len(res.Queued) != 1 {
			b.Fatalf("%s: %d packets queued, want 1", fabricPackets[i].name, len(res.Queued))
		}
		e := p.Egress(res.Queued[0], target.QueueMeta{})
		if e.Out == nil {
			b.Fatalf("%s: dropped in egress", fabricPackets[i].name)
		}
		port := e.Out.Port
		p.RecycleOutput(e.Out.Data) // as the switch does once the frame is sent
		return port
	}
	for i, fp := range fabricPackets {
		if got := forward(i); got != fp.out {
			b.Fatalf("%s: left on port %d, want %d", fp.name, got, fp.out)
		}
	}
	b.ReportAllocs()
	cpu0 := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		forward(i % len(fabricPackets))
	}
	b.StopTimer()
	// CPU time rather than wall time: the figure to compare on a shared,
	// loaded machine (the process's threads, garbage collector included).
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

// processCPU is the CPU time (user + system) the process has used, in ns.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
