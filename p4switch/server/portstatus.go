package server

import (
	"errors"
	"math/big"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// EtherTypePortStatus marks the frame the switch injects on its CPU port when
// a port's carrier changes (as an ASIC's port-down trigger feeds its own
// pipeline): the program's packet_out header with egress_port = the port,
// then an Ethernet header (zero addresses) of this type and one state byte.
// A program that parses it can fail the port at once instead of waiting for
// missed echoes (pipeconfs/p4: docs/pipeline.md "Port down").
const EtherTypePortStatus = 0x88B7

// Port-status states (the byte after the Ethernet header).
const (
	PortStatusDown = 1
	PortStatusUp   = 2
)

// ErrNoPortStatus: the loaded program cannot take a port-status frame (no
// pipeline, no CPU port, or no packet_out header with an egress_port field).
var ErrNoPortStatus = errors.New("the loaded program has no packet_out egress_port for a port-status frame")

// PortStatus injects the port-status frame of port (carrier up or down) into
// the pipeline on the CPU port.
func (s *Server) PortStatus(port uint32, up bool) error {
	l := s.cur.Load()
	if l == nil || l.packetOut == nil || s.opt.Switch.CPUPort() == 0 {
		return ErrNoPortStatus
	}
	frame, err := portStatusFrame(l.packetOut, port, up)
	if err != nil {
		return err
	}
	return s.opt.Switch.InjectFromCPU(frame)
}

func portStatusFrame(h *controllerHeader, port uint32, up bool) ([]byte, error) {
	var id uint32
	for _, f := range h.fields {
		if f.Name == "egress_port" {
			id = f.Id
		}
	}
	if id == 0 {
		return nil, ErrNoPortStatus
	}
	hdr, err := h.encode([]*p4v1.PacketMetadata{{MetadataId: id, Value: big.NewInt(int64(port)).Bytes()}})
	if err != nil {
		return nil, err
	}
	state := byte(PortStatusDown)
	if up {
		state = PortStatusUp
	}
	eth := make([]byte, 60) // minimum Ethernet frame without FCS
	eth[12], eth[13] = EtherTypePortStatus>>8, EtherTypePortStatus&0xff
	eth[14] = state
	return append(hdr, eth...), nil
}
