package stf

import (
	"encoding/hex"
	"fmt"
)

// packetBytes decodes the hex digits of a `packet` command. Like p4c's STF
// runners it reads the digits two at a time, so an odd trailing digit is a
// byte of its own ("20 0" is 0x20 0x00, "1 5" is 0x15).
func packetBytes(digits string) ([]byte, error) {
	if len(digits)%2 == 1 {
		digits = digits[:len(digits)-1] + "0" + digits[len(digits)-1:]
	}
	b, err := hex.DecodeString(digits)
	if err != nil {
		return nil, fmt.Errorf("bad packet data: %v", err)
	}
	return b, nil
}
