package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckTargetBMv2(t *testing.T) {
	shift := filepath.Join(t.TempDir(), "shift.p4")
	src := `#include <core.p4>
#include <v1model.p4>
struct h_t { }
struct m_t { bit<16> y; }
parser P(packet_in pkt, out h_t hdr, inout m_t meta, inout standard_metadata_t sm) { state start { transition accept; } }
control VC(inout h_t hdr, inout m_t meta) { apply { } }
control Ing(inout h_t hdr, inout m_t meta, inout standard_metadata_t sm) { apply { bit<64> b = 1; b = b << meta.y; } }
control Egr(inout h_t hdr, inout m_t meta, inout standard_metadata_t sm) { apply { } }
control CC(inout h_t hdr, inout m_t meta) { apply { } }
control D(packet_out pkt, in h_t hdr) { apply { } }
V1Switch(P(), VC(), Ing(), Egr(), CC(), D()) main;
`
	if err := os.WriteFile(shift, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fabric := filepath.Join("..", "..", "..", "pipeconfs", "p4", "fabric.p4")
	cases := []struct {
		args []string
		want int
	}{
		{[]string{"--target", "bmv2", fabric}, 0},
		{[]string{shift}, 0}, // p4switch itself runs it
		{[]string{"--target", "bmv2", shift}, 1},
		{[]string{"--target", "tofino", fabric}, 2},
		{[]string{}, 2},
	}
	for _, c := range cases {
		if got := runCheck(c.args); got != c.want {
			t.Errorf("check %v = %d, want %d", c.args, got, c.want)
		}
	}
}
