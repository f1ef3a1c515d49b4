package transport

import (
	"fmt"
	"net"
	"net/netip"
)

// Link carries the sender's datagrams to the receiver on a chosen path.
type Link interface {
	// Send sends one datagram (the coded packet) on path id.
	Send(path uint16, datagram []byte) error
	Close() error
}

// UDPLink sends through an ordinary UDP socket: the kernel routes, and the path id
// travels only in the RLNC header (for path 0, or when the host shim's eBPF pins).
type UDPLink struct {
	conn *net.UDPConn
	dst  *net.UDPAddr
}

// NewUDPLink sends from conn (the sender's socket, which also receives the acks) to dst.
func NewUDPLink(conn *net.UDPConn, dst netip.AddrPort) *UDPLink {
	return &UDPLink{conn: conn, dst: net.UDPAddrFromAddrPort(dst)}
}

func (l *UDPLink) Send(_ uint16, b []byte) error {
	if _, err := l.conn.WriteToUDP(b, l.dst); err != nil {
		return fmt.Errorf("rlnc: send: %w", err)
	}
	return nil
}

func (l *UDPLink) Close() error { return nil }
