package scenario

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/fairfabric/fairfabric/p4switch/target"
)

// echoFrame is Ethernet + a vFab echo header of the given type.
func echoFrame(echoType byte) []byte {
	f := make([]byte, 14+28)
	putMAC(f[0:], 0x0000000000bb03)
	putMAC(f[6:], routerMAC)
	binary.BigEndian.PutUint16(f[12:], 0x88B6)
	f[14] = echoType
	return f
}

// Echo requests and replies must not wait behind a congested FIFO: they take
// the highest priority queue, data stays in the default one.
func TestEchoTakesTheHighestPriorityQueue(t *testing.T) {
	h := newHarness(t)
	leaf(h)
	packetOut := make([]byte, 2)
	binary.BigEndian.PutUint16(packetOut, 3<<7) // egress_port 3, do_forward 0
	for _, tc := range []struct {
		name     string
		port     uint32
		frame    []byte
		wantPort uint32
		wantPrio uint8
	}{
		{"echo request from the controller", cpuPort, append(packetOut, echoFrame(1)...), 3, 7},
		{"echo reply to a neighbour's request", 4, echoFrame(1), 4, 7},
		{"data", 1, udpFrame(0, h1IP, h2IP, 0, 1000, 2000, 100), 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := h.p.Ingress(target.Arrival{Port: tc.port, Data: tc.frame}).Queued
			if len(q) != 1 || q[0].EgressPort != tc.wantPort || q[0].Priority != tc.wantPrio {
				var got []string
				for _, x := range q {
					got = append(got, fmt.Sprintf("port %d priority %d", x.EgressPort, x.Priority))
				}
				t.Fatalf("queued %v, want port %d priority %d", got, tc.wantPort, tc.wantPrio)
			}
		})
	}
}
