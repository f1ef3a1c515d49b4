package stf

import (
	"bytes"
	"testing"
)

func TestPacketBytes(t *testing.T) {
	tests := []struct {
		digits string
		want   []byte
		bad    bool
	}{
		{digits: "0a0b", want: []byte{0x0a, 0x0b}},
		{digits: "", want: []byte{}},
		{digits: "2000", want: []byte{0x20, 0x00}},
		{digits: "200", want: []byte{0x20, 0x00}}, // odd trailing digit is a byte
		{digits: "ab5", want: []byte{0xab, 0x05}},
		{digits: "7", want: []byte{0x07}},
		{digits: "0g", bad: true},
		{digits: "**", bad: true}, // wildcards belong to expect only
	}
	for _, tc := range tests {
		got, err := packetBytes(tc.digits)
		if tc.bad {
			if err == nil {
				t.Errorf("packetBytes(%q) = %x, want an error", tc.digits, got)
			}
			continue
		}
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("packetBytes(%q) = %x, %v; want %x", tc.digits, got, err, tc.want)
		}
	}
}
