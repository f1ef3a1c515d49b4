package interp

import (
	"hash/crc32"
	"math/rand"
)

// Hash algorithms in v1model's HashAlgorithm order.
const (
	AlgoCRC32 = iota
	AlgoCRC32Custom
	AlgoCRC16
	AlgoCRC16Custom
	AlgoRandom
	AlgoIdentity
	AlgoCsum16
	AlgoXor16
)

var crc16Table = func() [256]uint16 {
	var t [256]uint16
	for i := range t {
		c := uint16(i)
		for k := 0; k < 8; k++ {
			if c&1 != 0 {
				c = c>>1 ^ 0xA001
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}()

// crc16 is CRC-16/ARC (poly 0x8005 reflected, init 0), BMv2's "crc16".
func crc16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c = c>>8 ^ crc16Table[byte(c)^x]
	}
	return c
}

func csum16(b []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(b); i += 2 {
		s += uint32(b[i])<<8 | uint32(b[i+1])
	}
	if len(b)%2 == 1 {
		s += uint32(b[len(b)-1]) << 8
	}
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

func xor16(b []byte) uint16 {
	var s uint16
	for i := 0; i+1 < len(b); i += 2 {
		s ^= uint16(b[i])<<8 | uint16(b[i+1])
	}
	if len(b)%2 == 1 {
		s ^= uint16(b[len(b)-1]) << 8
	}
	return s
}

// hashData hashes bits (MSB first, the last byte padded with zero bits).
func hashData(algo int, b []byte, bits int) uint64 {
	switch algo {
	case AlgoCRC32, AlgoCRC32Custom:
		return uint64(crc32.ChecksumIEEE(b))
	case AlgoCRC16, AlgoCRC16Custom:
		return uint64(crc16(b))
	case AlgoCsum16:
		return uint64(csum16(b))
	case AlgoXor16:
		return uint64(xor16(b))
	case AlgoIdentity:
		var v uint64
		for _, x := range b {
			v = v<<8 | uint64(x)
		}
		if pad := len(b)*8 - bits; pad > 0 {
			v >>= uint(pad)
		}
		return v
	case AlgoRandom:
		return rand.Uint64()
	}
	return 0
}
