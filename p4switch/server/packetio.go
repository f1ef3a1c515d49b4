package server

import (
	"fmt"
	"math/big"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
)

// controllerHeader is a @controller_header header as the P4Info describes
// it: fields in order, most significant bit first.
type controllerHeader struct {
	fields []*p4configv1.ControllerPacketMetadata_Metadata
	bytes  int
}

func newControllerHeader(m *p4configv1.ControllerPacketMetadata) (*controllerHeader, error) {
	bits := 0
	for _, f := range m.Metadata {
		if f.Bitwidth <= 0 {
			return nil, fmt.Errorf("controller header %s: field %s has no bit width", m.GetPreamble().GetName(), f.Name)
		}
		bits += int(f.Bitwidth)
	}
	if bits%8 != 0 {
		return nil, fmt.Errorf("controller header %s is %d bits, not whole bytes", m.GetPreamble().GetName(), bits)
	}
	return &controllerHeader{fields: m.Metadata, bytes: bits / 8}, nil
}

// controllerHeaders finds the packet_in and packet_out headers.
func controllerHeaders(info *p4configv1.P4Info) (in, out *controllerHeader, err error) {
	for _, m := range info.ControllerPacketMetadata {
		h, err := newControllerHeader(m)
		if err != nil {
			return nil, nil, err
		}
		switch m.GetPreamble().GetName() {
		case "packet_in":
			in = h
		case "packet_out":
			out = h
		}
	}
	return in, out, nil
}

// encode serialises metadata into the header; missing fields are zero.
func (h *controllerHeader) encode(md []*p4v1.PacketMetadata) ([]byte, error) {
	values := map[uint32][]byte{}
	for _, m := range md {
		if _, dup := values[m.MetadataId]; dup {
			return nil, errorf(codes.InvalidArgument, "packet_out metadata id %d given twice", m.MetadataId)
		}
		values[m.MetadataId] = m.Value
	}
	acc := new(big.Int)
	for _, f := range h.fields {
		v := new(big.Int)
		if b, ok := values[f.Id]; ok {
			v.SetBytes(b)
			if v.BitLen() > int(f.Bitwidth) {
				return nil, errorf(codes.InvalidArgument, "packet_out metadata %s (id %d) value 0x%x does not fit in %d bits", f.Name, f.Id, b, f.Bitwidth)
			}
			delete(values, f.Id)
		}
		acc.Lsh(acc, uint(f.Bitwidth)).Or(acc, v)
	}
	for id := range values {
		return nil, errorf(codes.InvalidArgument, "packet_out has no metadata id %d", id)
	}
	return acc.FillBytes(make([]byte, h.bytes)), nil
}

// decode splits the header off a frame into metadata with canonical values.
func (h *controllerHeader) decode(frame []byte) ([]*p4v1.PacketMetadata, []byte, bool) {
	if len(frame) < h.bytes {
		return nil, nil, false
	}
	acc := new(big.Int).SetBytes(frame[:h.bytes])
	md := make([]*p4v1.PacketMetadata, len(h.fields))
	shift := h.bytes * 8
	for i, f := range h.fields {
		shift -= int(f.Bitwidth)
		v := new(big.Int).Rsh(acc, uint(shift))
		v.And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(f.Bitwidth)), big.NewInt(1)))
		b := v.Bytes()
		if len(b) == 0 {
			b = []byte{0}
		}
		md[i] = &p4v1.PacketMetadata{MetadataId: f.Id, Value: b}
	}
	return md, frame[h.bytes:], true
}

// packetOut injects a controller's packet on the CPU port.
func (s *Server) packetOut(p *p4v1.PacketOut) error {
	l := s.cur.Load()
	if l == nil {
		return errorf(codes.FailedPrecondition, "no pipeline loaded")
	}
	if s.opt.Switch.CPUPort() == 0 {
		return errorf(codes.FailedPrecondition, "the switch has no CPU port (--cpu-port)")
	}
	frame := p.Payload
	if l.packetOut != nil {
		hdr, err := l.packetOut.encode(p.Metadata)
		if err != nil {
			return err
		}
		frame = append(hdr, p.Payload...)
	} else if len(p.Metadata) > 0 {
		return errorf(codes.InvalidArgument, "the program has no packet_out controller header")
	}
	if err := s.opt.Switch.InjectFromCPU(frame); err != nil {
		return errorf(codes.Unavailable, "%v", err)
	}
	return nil
}

// packetIn turns a frame the pipeline sent to the CPU port (made at the
// time given) into a PacketIn for the primary clients. It runs on the
// switch's pipeline goroutine.
func (s *Server) packetIn(frame []byte, made time.Time) {
	times := &packetInTimes{made: made, taken: time.Now()}
	s.Latencies.PacketInMade.Record(times.taken.Sub(made))
	l := s.cur.Load()
	if l == nil {
		return
	}
	pin := &p4v1.PacketIn{Payload: frame}
	if l.packetIn != nil {
		md, payload, ok := l.packetIn.decode(frame)
		if !ok {
			s.PacketInDrops.Add(1)
			return
		}
		pin.Metadata, pin.Payload = md, append([]byte(nil), payload...)
	}
	m := &p4v1.StreamMessageResponse{Update: &p4v1.StreamMessageResponse_Packet{Packet: pin}}
	if !s.arb.sendOutToPrimaries(outgoing{m: m, pin: times}) {
		s.PacketInDrops.Add(1)
	}
}
