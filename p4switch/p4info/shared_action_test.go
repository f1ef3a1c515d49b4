package p4info_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairfabric/fairfabric/p4switch/v1model"
)

// TestSharedActionNames: actions with one control-plane name are one P4Info
// action when their parameters agree (named_meter_1-bmv2, multicast-bmv2)
// and a clear error otherwise.
func TestSharedActionNames(t *testing.T) {
	cases := []struct {
		name       string
		a1, a2     string // the two actions' parameter lists
		wantErr    string // empty: one action "I.act" with a1's parameters
		wantParams []string
	}{
		{"no parameters", "", "", "", nil},
		{"same parameters", "bit<9> port, bit<8> tag", "bit<9> port, bit<8> tag", "", []string{"port", "tag"}},
		{"other count", "bit<9> port", "", "take 1 and 0 parameters", nil},
		{"other width", "bit<9> port", "bit<8> port", "parameter 1 differs", nil},
		{"other name", "bit<9> port", "bit<9> p", "parameter 1 differs", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := `#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
struct headers { h_t h; }
struct meta { }
parser P(packet_in pk, out headers hdr, inout meta m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout headers hdr, inout meta m) { apply { } }
control I(inout headers hdr, inout meta m, inout standard_metadata_t sm) {
    @name("act") action a1(` + tc.a1 + `) { }
    @name("act") action a2(` + tc.a2 + `) { hdr.h.a = 1; }
    table t1 { key = { hdr.h.a: exact; } actions = { a1; } }
    table t2 { key = { hdr.h.a: exact; } actions = { a2; } }
    apply { t1.apply(); t2.apply(); }
}
control E(inout headers hdr, inout meta m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
`
			path := filepath.Join(t.TempDir(), "shared.p4")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := v1model.CompileFile(path, nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "I.act") {
					t.Fatalf("got %v, want an error with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var acts []string
			var params []string
			for _, a := range c.P4Info.Actions {
				acts = append(acts, a.Preamble.Name)
				if a.Preamble.Name == "I.act" {
					for _, p := range a.Params {
						params = append(params, p.Name)
					}
				}
			}
			if len(acts) != 2 || acts[0] != "I.act" && acts[1] != "I.act" {
				t.Fatalf("actions: %v", acts)
			}
			if strings.Join(params, ",") != strings.Join(tc.wantParams, ",") {
				t.Errorf("params: %v, want %v", params, tc.wantParams)
			}
			id := c.P4Info.Tables[0].ActionRefs[0].Id
			for _, tb := range c.P4Info.Tables {
				if tb.ActionRefs[0].Id != id {
					t.Errorf("tables refer to different action ids: %v", c.P4Info.Tables)
				}
			}
		})
	}
}
