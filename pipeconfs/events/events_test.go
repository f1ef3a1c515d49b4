package events

import (
	"strings"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// packetInInfo is the packet_in part of the pipeline's P4Info.
func packetInInfo() *p4configv1.P4Info {
	names := []string{"ingress_port", "_pad0", "reason", "event_port", "_pad1", "metric", "direction", "value"}
	widths := []int32{9, 7, 8, 9, 7, 8, 8, 32}
	h := &p4configv1.ControllerPacketMetadata{Preamble: &p4configv1.Preamble{Name: "packet_in"}}
	for i := range names {
		h.Metadata = append(h.Metadata, &p4configv1.ControllerPacketMetadata_Metadata{
			Id: uint32(i + 1), Name: names[i], Bitwidth: widths[i]})
	}
	return &p4configv1.P4Info{ControllerPacketMetadata: []*p4configv1.ControllerPacketMetadata{h}}
}

func packetIn(values ...[]byte) *p4v1.PacketIn {
	p := &p4v1.PacketIn{Payload: []byte{1, 2, 3}}
	for i, v := range values {
		p.Metadata = append(p.Metadata, &p4v1.PacketMetadata{MetadataId: uint32(i + 1), Value: v})
	}
	return p
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      *p4v1.PacketIn
		want    Event
		wantErr string
	}{
		{"queue depth increase",
			packetIn([]byte{1}, []byte{0}, []byte{2}, []byte{3}, []byte{0}, []byte{1}, []byte{1}, []byte{0, 45}),
			Event{IngressPort: 1, Reason: "EVENT", EventPort: 3, Metric: "QUEUE_DEPTH", Direction: "INCREASE", Value: 45, FrameLen: 3}, ""},
		{"failure with a 9-bit port and a 32-bit value",
			packetIn([]byte{0, 255}, []byte{0}, []byte{2}, []byte{1, 0}, []byte{0}, []byte{4}, []byte{1}, []byte{255, 255, 255, 255}),
			Event{IngressPort: 255, Reason: "EVENT", EventPort: 256, Metric: "LINK_FAILURE", Direction: "INCREASE", Value: 0xFFFFFFFF, FrameLen: 3}, ""},
		{"arp punt",
			packetIn([]byte{2}, []byte{0}, []byte{1}, []byte{2}, []byte{0}, []byte{0}, []byte{0}, []byte{0}),
			Event{IngressPort: 2, Reason: "ARP", EventPort: 2, Metric: "NONE", Direction: "NONE", FrameLen: 3}, ""},
		{"missing field", packetIn([]byte{1}), Event{}, "without _pad0"},
		{"too wide port",
			packetIn([]byte{2, 0}, []byte{0}, []byte{2}, []byte{3}, []byte{0}, []byte{1}, []byte{1}, []byte{0}),
			Event{}, "wider than 9 bits"},
		{"unknown metric",
			packetIn([]byte{1}, []byte{0}, []byte{2}, []byte{3}, []byte{0}, []byte{9}, []byte{1}, []byte{0}),
			Event{}, "unknown metric 9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(packetInInfo(), tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeWithoutPacketInHeader(t *testing.T) {
	if _, err := Decode(&p4configv1.P4Info{}, &p4v1.PacketIn{}); err == nil {
		t.Fatal("decoded without a packet_in header")
	}
}
