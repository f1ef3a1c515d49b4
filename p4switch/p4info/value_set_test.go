package p4info_test

import (
	"os"
	"path/filepath"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// TestValueSetOfBitsIsOneExactField: p4c describes a value_set<bit<W>> as
// one unnamed exact match field of W bits (pvs-bitstring-bmv2).
func TestValueSetOfBitsIsOneExactField(t *testing.T) {
	info := compile(t, "../testdata/selector.p4")
	if len(info.ValueSets) != 1 {
		t.Fatalf("value sets: %v", info.ValueSets)
	}
	vs := info.ValueSets[0]
	if vs.Size != 4 || len(vs.Match) != 1 {
		t.Fatalf("value set: %v", vs)
	}
	m := vs.Match[0]
	if m.Id != 1 || m.Name != "" || m.Bitwidth != 16 || m.GetMatchType() != p4configv1.MatchField_EXACT {
		t.Errorf("value set match: %v", m)
	}
}

// TestValueSetOfOneFieldStruct: a value set of a one-field struct is that
// field, by name (pvs-struct-1-bmv2).
func TestValueSetOfOneFieldStruct(t *testing.T) {
	src := `#include <core.p4>
#include <v1model.p4>
header h_t { bit<32> a; }
struct headers { h_t h; }
struct meta { }
struct vs_t { bit<32> field; }
parser P(packet_in pk, out headers hdr, inout meta m, inout standard_metadata_t sm) {
    value_set<vs_t>(4) pvs;
    state start { pk.extract(hdr.h); transition select(hdr.h.a) { pvs: accept; default: accept; } }
}
control VC(inout headers hdr, inout meta m) { apply { } }
control I(inout headers hdr, inout meta m, inout standard_metadata_t sm) { apply { } }
control E(inout headers hdr, inout meta m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
`
	path := filepath.Join(t.TempDir(), "pvs.p4")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	vs := compile(t, path).ValueSets
	if len(vs) != 1 || len(vs[0].Match) != 1 {
		t.Fatalf("value sets: %v", vs)
	}
	m := vs[0].Match[0]
	if m.Name != "field" || m.Bitwidth != 32 || m.GetMatchType() != p4configv1.MatchField_EXACT {
		t.Errorf("value set match: %v", m)
	}
}

// TestValueSetOfStructIsOneFieldPerStructField: a value set of a struct of
// several fields lists one match field per struct field, named by @name or
// the field's name, exact unless @match says otherwise (pvs-struct-2-bmv2).
func TestValueSetOfStructIsOneFieldPerStructField(t *testing.T) {
	vs := compile(t, "../testdata/value_sets.p4").ValueSets
	if len(vs) != 2 || vs[0].Preamble.Name != "P.pairs" {
		t.Fatalf("value sets: %v", vs)
	}
	want := []struct {
		id    uint32
		name  string
		width int32
		kind  p4configv1.MatchField_MatchType
	}{
		{1, "first", 16, p4configv1.MatchField_EXACT},
		{2, "top3", 3, p4configv1.MatchField_TERNARY},
	}
	if len(vs[0].Match) != len(want) {
		t.Fatalf("match fields: %v", vs[0].Match)
	}
	for i, w := range want {
		m := vs[0].Match[i]
		if m.Id != w.id || m.Name != w.name || m.Bitwidth != w.width || m.GetMatchType() != w.kind || len(m.Annotations) != 0 {
			t.Errorf("match field %d: %v, want %+v", i+1, m, w)
		}
	}
}
