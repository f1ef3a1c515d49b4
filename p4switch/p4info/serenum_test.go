package p4info_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSerializableEnumKeysInTypeInfo: as p4c does, a serializable enum used
// as a table key is listed in type_info with member values at the full
// underlying width, while one used only in metadata is not listed.
func TestSerializableEnumKeysInTypeInfo(t *testing.T) {
	src := `#include <core.p4>
#include <v1model.p4>
enum bit<16> KeyE { A = 10, B = 0xab00 }
enum bit<8> MetaE { X = 1 }
header h_t { KeyE k; }
struct headers { h_t h; }
struct meta { MetaE m; }
parser P(packet_in pk, out headers hdr, inout meta m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout headers hdr, inout meta m) { apply { } }
control I(inout headers hdr, inout meta m, inout standard_metadata_t sm) {
    action a() { m.m = MetaE.X; }
    table t { key = { hdr.h.k : exact; } actions = { a; } }
    apply { t.apply(); }
}
control E(inout headers hdr, inout meta m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
`
	path := filepath.Join(t.TempDir(), "serenum.p4")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	enums := compile(t, path).GetTypeInfo().GetSerializableEnums()
	if _, ok := enums["MetaE"]; ok || len(enums) != 1 {
		t.Fatalf("serializable enums: %v, want only KeyE", enums)
	}
	k := enums["KeyE"]
	if k.GetUnderlyingType().GetBitwidth() != 16 || len(k.Members) != 2 ||
		string(k.Members[0].Value) != "\x00\x0a" || string(k.Members[1].Value) != "\xab\x00" {
		t.Errorf("KeyE: %v", k)
	}
}

// TestKeyNamesUseFieldNameAnnotations: p4c names a key after the @name of
// the struct fields it goes through (issue298-bmv2: meta.ingress_metadata.set_drop).
func TestKeyNamesUseFieldNameAnnotations(t *testing.T) {
	src := `#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; }
struct headers { h_t h; }
struct inner_t { bit<1> set_drop; }
struct meta { @name("ingress_metadata") inner_t local_metadata; }
parser P(packet_in pk, out headers hdr, inout meta m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout headers hdr, inout meta m) { apply { } }
control I(inout headers hdr, inout meta m, inout standard_metadata_t sm) {
    action a() { }
    table t { key = { m.local_metadata.set_drop : exact; hdr.h.f : exact; } actions = { a; } }
    apply { t.apply(); }
}
control E(inout headers hdr, inout meta m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
`
	path := filepath.Join(t.TempDir(), "keys.p4")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tables := compile(t, path).Tables
	if len(tables) != 1 || len(tables[0].MatchFields) != 2 {
		t.Fatalf("tables: %v", tables)
	}
	if n := tables[0].MatchFields[0].Name; n != "m.ingress_metadata.set_drop" {
		t.Errorf("key through an @name'd field: %q", n)
	}
	if n := tables[0].MatchFields[1].Name; n != "hdr.h.f" {
		t.Errorf("plain key: %q", n)
	}
}
