// An action selector (hash over the selector keys) and a parser value_set,
// both configured through P4Runtime (see v1model/selector_test.go).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<16> kind; bit<32> flow; bit<8> r; }
header x_t { bit<8> extra; }
struct headers { h_t h; x_t x; }
struct meta_t { }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) special;
    state start {
        pk.extract(hdr.h);
        transition select(hdr.h.kind) {
            special: parse_x;
            default: accept;
        }
    }
    state parse_x { pk.extract(hdr.x); transition accept; }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    action_selector(HashAlgorithm.crc16, 32w64, 32w16) sel;
    action fwd(bit<9> port, bit<8> tag) { sm.egress_spec = port; hdr.h.r = tag; }
    table lb {
        key = { hdr.h.kind: exact; hdr.h.flow: selector; }
        actions = { fwd; NoAction; }
        implementation = sel;
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 9;
        lb.apply();
        if (hdr.x.isValid()) { hdr.x.extra = hdr.x.extra + 1; }
    }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); pk.emit(hdr.x); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
