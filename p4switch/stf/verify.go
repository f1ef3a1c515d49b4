package stf

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// verify compares received packets with the expectations, port by port.
func (r *runner) verify() error {
	var msgs []string
	msgs = append(msgs, r.failures...)
	ports := map[uint32]bool{}
	for p := range r.expected {
		ports[p] = true
	}
	for p := range r.received {
		if r.ports[p] {
			ports[p] = true
		}
	}
	var sorted []uint32
	for p := range ports {
		sorted = append(sorted, p)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	for _, port := range sorted {
		if r.anyPort[port] {
			continue
		}
		exp, got := r.expected[port], r.received[port]
		n := len(exp)
		if len(got) > n {
			n = len(got)
		}
		for i := 0; i < n; i++ {
			switch {
			case i >= len(got):
				msgs = append(msgs, fmt.Sprintf("port %d packet %d: expected %s, received nothing", port, i, exp[i].pattern))
			case i >= len(exp):
				msgs = append(msgs, fmt.Sprintf("port %d packet %d: unexpected packet %s", port, i, strings.ToUpper(hex.EncodeToString(got[i]))))
			default:
				if d := compare(exp[i], got[i]); d != "" {
					msgs = append(msgs, fmt.Sprintf("port %d packet %d: %s\n  expected %s\n  received %s", port, i, d, exp[i].pattern, strings.ToUpper(hex.EncodeToString(got[i]))))
				}
			}
		}
	}
	if len(msgs) > 0 {
		return fmt.Errorf("%s: %d mismatches\n%s", r.name, len(msgs), strings.Join(msgs, "\n"))
	}
	return nil
}

// compare returns "" when the packet matches the pattern, else a description.
func compare(e expectation, pkt []byte) string {
	got := strings.ToUpper(hex.EncodeToString(pkt))
	if len(got) < len(e.pattern) {
		return fmt.Sprintf("received packet is too short (%d vs %d bytes)", len(got)/2, len(e.pattern)/2)
	}
	if e.exact && len(got) != len(e.pattern) {
		return fmt.Sprintf("received packet has %d bytes, expected exactly %d", len(got)/2, len(e.pattern)/2)
	}
	for i := 0; i < len(e.pattern); i++ {
		if e.pattern[i] != '*' && e.pattern[i] != got[i] {
			return fmt.Sprintf("differs at nibble %d (byte %d): expected %c, received %c", i, i/2, e.pattern[i], got[i])
		}
	}
	return ""
}
