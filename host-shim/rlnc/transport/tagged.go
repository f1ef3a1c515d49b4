package transport

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

// TaggedLink pins every datagram to its path: it writes whole Ethernet frames on the
// host interface through an AF_PACKET socket, with an 802.1Q tag VID = path id (none for
// path 0), then IPv4 and UDP headers from src to dst (docs/architecture.md "Pinned
// paths"). The frames pass the interface's qdiscs like any other. Needs CAP_NET_RAW.
type TaggedLink struct {
	fd      int
	ifindex int
	srcMAC  net.HardwareAddr
	dstMAC  net.HardwareAddr
	src     netip.AddrPort
	dst     netip.AddrPort
	ipID    uint16
	frame   []byte
}

// NewTaggedLink opens the link on dev. dstMAC is the next hop's address; when nil it
// is taken from the neighbour table, after a probe through probe (an ordinary UDP
// socket to dst) if the entry is missing.
func NewTaggedLink(dev string, src, dst netip.AddrPort, dstMAC net.HardwareAddr, probe *net.UDPConn) (*TaggedLink, error) {
	if !src.Addr().Is4() || !dst.Addr().Is4() {
		return nil, fmt.Errorf("rlnc: tagged link is IPv4 only (%s -> %s)", src, dst)
	}
	link, err := netlink.LinkByName(dev)
	if err != nil {
		return nil, fmt.Errorf("rlnc: %s: %w", dev, err)
	}
	if dstMAC == nil {
		if dstMAC, err = resolve(link, dst, probe); err != nil {
			return nil, err
		}
	}
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, 0) // 0: send only
	if err != nil {
		return nil, fmt.Errorf("rlnc: AF_PACKET socket: %w", err)
	}
	return &TaggedLink{
		fd: fd, ifindex: link.Attrs().Index, srcMAC: link.Attrs().HardwareAddr, dstMAC: dstMAC,
		src: src, dst: dst,
	}, nil
}

// resolve finds dst's MAC address in dev's neighbour table, probing once if needed.
func resolve(link netlink.Link, dst netip.AddrPort, probe *net.UDPConn) (net.HardwareAddr, error) {
	deadline := time.Now().Add(2 * time.Second)
	for probed := false; ; {
		neighs, err := netlink.NeighList(link.Attrs().Index, unix.AF_INET)
		if err != nil {
			return nil, fmt.Errorf("rlnc: neighbour table: %w", err)
		}
		for _, n := range neighs {
			ip, ok := netip.AddrFromSlice(n.IP.To4())
			if ok && ip == dst.Addr() && len(n.HardwareAddr) == 6 &&
				n.State&(netlink.NUD_REACHABLE|netlink.NUD_STALE|netlink.NUD_DELAY|netlink.NUD_PROBE|netlink.NUD_PERMANENT) != 0 {
				return n.HardwareAddr, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("rlnc: no neighbour entry for %s on %s (give the next hop's MAC)", dst.Addr(), link.Attrs().Name)
		}
		if !probed && probe != nil {
			// An empty datagram to the discard port makes the kernel resolve the address.
			_, _ = probe.WriteToUDP(nil, net.UDPAddrFromAddrPort(netip.AddrPortFrom(dst.Addr(), 9)))
			probed = true
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Send writes one frame: Ethernet, [802.1Q VID=path], IPv4, UDP, datagram.
func (l *TaggedLink) Send(path uint16, b []byte) error {
	if len(b) > 65535-28 {
		return errors.New("rlnc: datagram too long")
	}
	f := l.frame[:0]
	f = append(f, l.dstMAC...)
	f = append(f, l.srcMAC...)
	if path != 0 {
		f = binary.BigEndian.AppendUint16(f, unix.ETH_P_8021Q)
		f = binary.BigEndian.AppendUint16(f, path&0x0fff) // PCP 0, DEI 0
	}
	f = binary.BigEndian.AppendUint16(f, unix.ETH_P_IP)
	ip := len(f)
	l.ipID++
	src, dst := l.src.Addr().As4(), l.dst.Addr().As4()
	f = append(f, 0x45, 0)
	f = binary.BigEndian.AppendUint16(f, uint16(20+8+len(b)))
	f = binary.BigEndian.AppendUint16(f, l.ipID)
	f = append(f, 0x40, 0, 64, unix.IPPROTO_UDP, 0, 0) // DF, TTL 64, checksum below
	f = append(f, src[:]...)
	f = append(f, dst[:]...)
	binary.BigEndian.PutUint16(f[ip+10:], checksum(f[ip:ip+20], 0))
	udp := len(f)
	f = binary.BigEndian.AppendUint16(f, l.src.Port())
	f = binary.BigEndian.AppendUint16(f, l.dst.Port())
	f = binary.BigEndian.AppendUint16(f, uint16(8+len(b)))
	f = append(f, 0, 0)
	f = append(f, b...)
	// UDP checksum over the pseudo-header (src, dst, proto, length) and the segment.
	pseudo := uint32(binary.BigEndian.Uint16(src[0:])) + uint32(binary.BigEndian.Uint16(src[2:])) +
		uint32(binary.BigEndian.Uint16(dst[0:])) + uint32(binary.BigEndian.Uint16(dst[2:])) +
		unix.IPPROTO_UDP + uint32(8+len(b))
	c := checksum(f[udp:], pseudo)
	if c == 0 {
		c = 0xffff
	}
	binary.BigEndian.PutUint16(f[udp+6:], c)
	l.frame = f
	sa := &unix.SockaddrLinklayer{Ifindex: l.ifindex, Halen: 6}
	copy(sa.Addr[:], l.dstMAC)
	if err := unix.Sendto(l.fd, f, 0, sa); err != nil {
		return fmt.Errorf("rlnc: send on path %d: %w", path, err)
	}
	return nil
}

func (l *TaggedLink) Close() error { return unix.Close(l.fd) }

// checksum is the Internet checksum of b, starting from sum.
func checksum(b []byte, sum uint32) uint16 {
	for i := 0; i+1 < len(b); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(b[i:]))
	}
	if len(b)%2 == 1 {
		sum += uint32(b[len(b)-1]) << 8
	}
	for sum>>16 != 0 {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}
