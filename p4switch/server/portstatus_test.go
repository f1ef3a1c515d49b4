package server

import (
	"bytes"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
)

func TestPortStatusFrame(t *testing.T) {
	fabricOut := &controllerHeader{bytes: 2, fields: []*p4configv1.ControllerPacketMetadata_Metadata{
		{Id: 1, Name: "egress_port", Bitwidth: 9}, {Id: 2, Name: "do_forward", Bitwidth: 1}, {Id: 3, Name: "_pad", Bitwidth: 6}}}
	noPort := &controllerHeader{bytes: 1, fields: []*p4configv1.ControllerPacketMetadata_Metadata{{Id: 1, Name: "queue", Bitwidth: 8}}}
	tests := []struct {
		name   string
		h      *controllerHeader
		port   uint32
		up     bool
		prefix []byte // packet_out header, then Ethernet up to the state byte
		err    bool
	}{
		{"port 3 down", fabricOut, 3, false, []byte{0x01, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x88, 0xb7, 1}, false},
		{"port 300 up", fabricOut, 300, true, []byte{0x96, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x88, 0xb7, 2}, false},
		{"port does not fit 9 bits", fabricOut, 512, false, nil, true},
		{"no egress_port field", noPort, 3, false, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := portStatusFrame(tc.h, tc.port, tc.up)
			if tc.err {
				if err == nil {
					t.Fatalf("no error, frame %x", f)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(f) != 2+60 || !bytes.HasPrefix(f, tc.prefix) {
				t.Fatalf("frame %x (%d bytes), want prefix %x and 62 bytes", f, len(f), tc.prefix)
			}
		})
	}
}
