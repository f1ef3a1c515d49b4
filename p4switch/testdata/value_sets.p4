// Parser value sets in P4Runtime's layout: value_set<bit<W>> is one exact
// field; a value set of a struct has one match field per struct field
// (exact unless @match says otherwise) and matches a select of as many keys
// (see v1model/value_set_test.go and p4info/value_set_test.go).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<16> a; bit<8> b; bit<8> kind; }
header x_t { bit<8> v; }
struct headers { h_t h; x_t x; }
struct meta_t { }
struct pair_t {
    bit<16> first;
    @match(ternary) @name("top3") bit<3> second;
}

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    value_set<pair_t>(4) pairs;
    value_set<bit<8>>(2) kinds;
    state start {
        pk.extract(hdr.h);
        transition select(hdr.h.a, hdr.h.b[7:5]) {
            pairs: parse_x;
            default: by_kind;
        }
    }
    state by_kind {
        transition select(hdr.h.kind) {
            kinds: parse_x;
            default: accept;
        }
    }
    state parse_x { pk.extract(hdr.x); transition accept; }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }
control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.x.isValid()) { hdr.x.v = hdr.x.v + 1; }
    }
}
control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); pk.emit(hdr.x); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
