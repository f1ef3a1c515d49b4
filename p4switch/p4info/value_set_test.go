package p4info_test

import (
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
