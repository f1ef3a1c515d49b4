// Package coding is Promenade's random linear network code over a sliding window
// (docs/rlnc.md): the wire format of coded packets and acknowledgements, the encoder
// and the progressive Gauss–Jordan decoder with TCP/NC's "seen" packets.
package coding

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Wire format, version 1. Every field is big-endian.
//
// Coded packet (type 1), 16 + n + L bytes:
//
//	 0  version   u8   = 1
//	 1  type      u8   = 1
//	 2  path id   u16  the pinned path (802.1Q VID) the sender put it on; 0 = unpinned
//	 4  session   u32  session id
//	 8  start     u32  sequence number of the window's first original packet
//	12  n         u8   window size, 1..MaxWindow
//	13  flags     u8   0 (receivers reject other values)
//	14  L         u16  payload length = the session's symbol size
//	16  coeffs    n×u8 coefficient of original packet start+i, GF(2^8)
//	16+n payload  L×u8 Σ coeffs[i]·symbol(start+i)
//
// Acknowledgement (type 2), 16 bytes:
//
//	0  version u8 = 1, 1 type u8 = 2, 2 path id u16 (of the packet that triggered it),
//	4  session u32, 8 seen u32 (first sequence number without a pivot: every earlier
//	   packet is seen), 12 decoded u32 (first sequence number not yet delivered)
const (
	Version       = 1
	TypeCoded     = 1
	TypeAck       = 2
	HeaderLen     = 16
	AckLen        = 20
	MaxWindow     = 16
	MaxSymbolSize = 8192
)

// Errors of parsing; each says what was wrong with the bytes.
var (
	ErrShort   = errors.New("rlnc: packet too short")
	ErrVersion = errors.New("rlnc: unsupported header version")
	ErrType    = errors.New("rlnc: unknown packet type")
)

// Packet is one coded packet.
type Packet struct {
	PathID  uint16
	Session uint32
	Start   uint32
	Coeffs  []byte // len = window size
	Payload []byte // len = symbol size
}

// Ack is the receiver's acknowledgement of seen and decoded packets.
type Ack struct {
	PathID  uint16
	Session uint32
	Seen    uint32
	Decoded uint32
	Missing uint16
}

// Len is the packet's length on the wire.
func (p *Packet) Len() int { return HeaderLen + len(p.Coeffs) + len(p.Payload) }

// AppendTo appends the packet's wire form to b.
func (p *Packet) AppendTo(b []byte) ([]byte, error) {
	if n := len(p.Coeffs); n < 1 || n > MaxWindow {
		return b, fmt.Errorf("rlnc: window size %d out of range 1..%d", n, MaxWindow)
	}
	if len(p.Payload) < 1 || len(p.Payload) > MaxSymbolSize {
		return b, fmt.Errorf("rlnc: payload length %d out of range 1..%d", len(p.Payload), MaxSymbolSize)
	}
	var h [HeaderLen]byte
	h[0], h[1] = Version, TypeCoded
	binary.BigEndian.PutUint16(h[2:], p.PathID)
	binary.BigEndian.PutUint32(h[4:], p.Session)
	binary.BigEndian.PutUint32(h[8:], p.Start)
	h[12] = byte(len(p.Coeffs))
	binary.BigEndian.PutUint16(h[14:], uint16(len(p.Payload)))
	b = append(b, h[:]...)
	b = append(b, p.Coeffs...)
	return append(b, p.Payload...), nil
}

// Kind returns the packet type of a datagram after checking its version.
func Kind(b []byte) (byte, error) {
	if len(b) < 2 {
		return 0, ErrShort
	}
	if b[0] != Version {
		return 0, fmt.Errorf("%w %d (want %d)", ErrVersion, b[0], Version)
	}
	if b[1] != TypeCoded && b[1] != TypeAck {
		return 0, fmt.Errorf("%w %d", ErrType, b[1])
	}
	return b[1], nil
}

// ParsePacket decodes a coded packet. Coeffs and Payload alias b.
func ParsePacket(b []byte) (Packet, error) {
	var p Packet
	k, err := Kind(b)
	if err != nil {
		return p, err
	}
	if k != TypeCoded {
		return p, fmt.Errorf("%w %d: not a coded packet", ErrType, k)
	}
	if len(b) < HeaderLen {
		return p, ErrShort
	}
	n := int(b[12])
	if n < 1 || n > MaxWindow {
		return p, fmt.Errorf("rlnc: window size %d out of range 1..%d", n, MaxWindow)
	}
	if b[13] != 0 {
		return p, fmt.Errorf("rlnc: flags %#x must be 0 in version %d", b[13], Version)
	}
	l := int(binary.BigEndian.Uint16(b[14:]))
	if l < 1 || l > MaxSymbolSize {
		return p, fmt.Errorf("rlnc: payload length %d out of range 1..%d", l, MaxSymbolSize)
	}
	if len(b) != HeaderLen+n+l {
		return p, fmt.Errorf("rlnc: %d bytes, header says %d", len(b), HeaderLen+n+l)
	}
	p.PathID = binary.BigEndian.Uint16(b[2:])
	p.Session = binary.BigEndian.Uint32(b[4:])
	p.Start = binary.BigEndian.Uint32(b[8:])
	p.Coeffs = b[HeaderLen : HeaderLen+n]
	p.Payload = b[HeaderLen+n:]
	return p, nil
}

// AppendTo appends the acknowledgement's wire form to b.
func (a *Ack) AppendTo(b []byte) []byte {
	var h [AckLen]byte
	h[0], h[1] = Version, TypeAck
	binary.BigEndian.PutUint16(h[2:], a.PathID)
	binary.BigEndian.PutUint32(h[4:], a.Session)
	binary.BigEndian.PutUint32(h[8:], a.Seen)
	binary.BigEndian.PutUint32(h[12:], a.Decoded)
	binary.BigEndian.PutUint16(h[16:], a.Missing)
	return append(b, h[:]...)
}

// ParseAck decodes an acknowledgement.
func ParseAck(b []byte) (Ack, error) {
	var a Ack
	k, err := Kind(b)
	if err != nil {
		return a, err
	}
	if k != TypeAck {
		return a, fmt.Errorf("%w %d: not an acknowledgement", ErrType, k)
	}
	if len(b) != AckLen {
		return a, fmt.Errorf("rlnc: acknowledgement of %d bytes (want %d)", len(b), AckLen)
	}
	a.PathID = binary.BigEndian.Uint16(b[2:])
	a.Session = binary.BigEndian.Uint32(b[4:])
	a.Seen = binary.BigEndian.Uint32(b[8:])
	a.Decoded = binary.BigEndian.Uint32(b[12:])
	a.Missing = binary.BigEndian.Uint16(b[16:])
	if b[18] != 0 || b[19] != 0 {
		return a, fmt.Errorf("rlnc: acknowledgement reserved bytes must be 0 in version %d", Version)
	}
	if int32(a.Seen-a.Decoded) < 0 {
		return a, fmt.Errorf("rlnc: acknowledgement with seen %d before decoded %d", a.Seen, a.Decoded)
	}
	return a, nil
}
