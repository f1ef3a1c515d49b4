package stf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// meterProgram sends a packet out of port 1 + its colour at the direct meter
// of the table entry matching its ingress port.
const meterProgram = `
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> b; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    direct_meter<bit<2>>(MeterType.packets) colors;
    bit<2> color = 0;
    action read_color() { colors.read(color); }
    table t {
        key = { sm.ingress_port: exact; }
        actions = { read_color; NoAction; }
        meters = colors;
    }
    apply { t.apply(); sm.egress_spec = 1 + (bit<9>) color; }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
`

func runMeterSTF(t *testing.T, text string) error {
	dir := t.TempDir()
	prog, stf := filepath.Join(dir, "meter.p4"), filepath.Join(dir, "meter.stf")
	if err := os.WriteFile(prog, []byte(meterProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return RunFile(prog, stf)
}

func TestDirectMeterCommand(t *testing.T) {
	entry := "add I.t sm.ingress_port:0 I.read_color()\n"
	// Unconfigured: GREEN (port 1). CBURST 1, PBURST 2: GREEN, YELLOW, RED.
	ok := entry + "packet 0 aa\nexpect 1 aa\n" +
		"direct_meter I.t sm.ingress_port:0 1 1 1 2\n" +
		"packet 0 bb\nexpect 1 bb\npacket 0 cc\nexpect 2 cc\npacket 0 dd\nexpect 3 dd\n"
	if err := runMeterSTF(t, ok); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want string }{
		{"direct_meter I.t sm.ingress_port:0 1 1 1", "bad rate or burst \"sm.ingress_port:0\""},
		{"direct_meter I.t 1 1", "direct_meter TABLE"},
		{"direct_meter I.t sm.ingress_port:0 1 1 -1 2", "bad rate"},
		{"direct_meter I.t sm.ingress_port:0 2 1 1 2", "PIR"},
		{"direct_meter I.t sm.ingress_port:7 1 1 1 2", "no such entry"},
		{"direct_meter I.nope sm.ingress_port:0 1 1 1 2", "nope"},
	} {
		err := runMeterSTF(t, entry+tc.line+"\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error containing %q", tc.line, err, tc.want)
		}
	}
}
