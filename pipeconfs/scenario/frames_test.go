package scenario

import "encoding/binary"

const (
	routerMAC = 0x0000000000aa01
	h1MAC     = 0x000000000101
	h2MAC     = 0x000000000102
	h1IP      = 0x0a000101 // 10.0.1.1
	h2IP      = 0x0a000102 // 10.0.1.2
	remoteIP  = 0x0a000201 // 10.0.2.1
	dcnPrefix = 0x0a000000 // 10.0.0.0/8

	dscpLowDelay   = 0x04
	dscpThroughput = 0x02
)

func putMAC(b []byte, mac uint64) {
	for i := 0; i < 6; i++ {
		b[i] = byte(mac >> (8 * (5 - i)))
	}
}

// udpFrame is Ethernet [802.1Q vid] IPv4 UDP with ipLen bytes of IP packet.
func udpFrame(vid int, src, dst uint32, dscp uint8, sport, dport uint16, ipLen int) []byte {
	var f []byte
	eth := make([]byte, 14)
	putMAC(eth[0:], routerMAC)
	putMAC(eth[6:], h1MAC)
	if vid > 0 {
		binary.BigEndian.PutUint16(eth[12:], 0x8100)
		f = append(eth, byte(vid>>8), byte(vid), 0x08, 0x00)
	} else {
		binary.BigEndian.PutUint16(eth[12:], 0x0800)
		f = eth
	}
	ip := make([]byte, 20)
	ip[0] = 0x45
	ip[1] = dscp << 2
	binary.BigEndian.PutUint16(ip[2:], uint16(ipLen))
	ip[8] = 64
	ip[9] = 17
	binary.BigEndian.PutUint32(ip[12:], src)
	binary.BigEndian.PutUint32(ip[16:], dst)
	binary.BigEndian.PutUint16(ip[10:], checksum(ip))
	udp := make([]byte, ipLen-20)
	binary.BigEndian.PutUint16(udp[0:], sport)
	binary.BigEndian.PutUint16(udp[2:], dport)
	binary.BigEndian.PutUint16(udp[4:], uint16(ipLen-20))
	return append(append(f, ip...), udp...)
}

func checksum(b []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(b); i += 2 {
		sum += uint32(b[i])<<8 | uint32(b[i+1])
	}
	for sum>>16 != 0 {
		sum = sum&0xFFFF + sum>>16
	}
	return ^uint16(sum)
}
