// Package events decodes the fabric pipeline's packet-ins (docs/pipeline.md,
// "Packet-in format") using the running program's P4Info.
package events

import (
	"fmt"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// Event is one decoded packet-in.
type Event struct {
	IngressPort uint32 `json:"ingress_port"`
	Reason      string `json:"reason"`
	EventPort   uint32 `json:"event_port"`
	Metric      string `json:"metric"`
	Direction   string `json:"direction"`
	Value       uint32 `json:"value"`
	FrameLen    int    `json:"frame_len"`
}

var reasons = map[uint64]string{1: "ARP", 2: "EVENT", 3: "BOUNCE"}
var metrics = map[uint64]string{0: "NONE", 1: "QUEUE_DEPTH", 2: "LINK_UTIL", 3: "DELAY", 4: "LINK_FAILURE"}
var directions = map[uint64]string{0: "NONE", 1: "INCREASE", 2: "DECREASE"}

// Decode reads the packet_in metadata of pin by the names and widths that
// info's controller_packet_metadata "packet_in" gives.
func Decode(info *p4configv1.P4Info, pin *p4v1.PacketIn) (Event, error) {
	var header *p4configv1.ControllerPacketMetadata
	for _, m := range info.GetControllerPacketMetadata() {
		if m.GetPreamble().GetName() == "packet_in" {
			header = m
		}
	}
	if header == nil {
		return Event{}, fmt.Errorf("the P4Info has no packet_in controller header")
	}
	values := map[string]uint64{}
	for _, field := range header.GetMetadata() {
		var raw []byte
		found := false
		for _, m := range pin.GetMetadata() {
			if m.GetMetadataId() == field.GetId() {
				raw, found = m.GetValue(), true
			}
		}
		if !found {
			return Event{}, fmt.Errorf("packet-in without %s", field.GetName())
		}
		if len(raw) > 8 {
			return Event{}, fmt.Errorf("packet-in field %s has %d bytes", field.GetName(), len(raw))
		}
		var v uint64
		for _, b := range raw {
			v = v<<8 | uint64(b)
		}
		if field.GetBitwidth() < 64 && v>>uint(field.GetBitwidth()) != 0 {
			return Event{}, fmt.Errorf("packet-in field %s = %d is wider than %d bits", field.GetName(), v, field.GetBitwidth())
		}
		values[field.GetName()] = v
	}
	e := Event{
		IngressPort: uint32(values["ingress_port"]),
		EventPort:   uint32(values["event_port"]),
		Value:       uint32(values["value"]),
		FrameLen:    len(pin.GetPayload()),
	}
	var ok bool
	if e.Reason, ok = reasons[values["reason"]]; !ok {
		return Event{}, fmt.Errorf("unknown packet-in reason %d", values["reason"])
	}
	if e.Metric, ok = metrics[values["metric"]]; !ok {
		return Event{}, fmt.Errorf("unknown metric %d", values["metric"])
	}
	if e.Direction, ok = directions[values["direction"]]; !ok {
		return Event{}, fmt.Errorf("unknown direction %d", values["direction"])
	}
	return e, nil
}
