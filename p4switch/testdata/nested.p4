// Structs inside headers (extract, field writes, emit), bool header fields
// and a sub-parser whose reject stops the calling parser.
#include <core.p4>
#include <v1model.p4>
struct inner_t { bit<4> x; bit<12> y; }
header h_t { bit<8> a; inner_t inr; bool flag; bit<7> pad; }
header t_t { bit<8> v; }
struct headers { h_t h; t_t t; t_t u; }
struct meta_t { }

parser Sub(packet_in pk, out t_t t) {
    state start {
        pk.extract(t);
        transition select(t.v) {
            0xEE: reject;
            default: accept;
        }
    }
}

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    Sub() sub;
    state start {
        pk.extract(hdr.h);
        sub.apply(pk, hdr.t);
        pk.extract(hdr.u);
        transition accept;
    }
}
control VC(inout headers hdr, inout meta_t m) { apply { } }
control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        hdr.h.inr.y = hdr.h.inr.y + 1;
        hdr.h.flag = !hdr.h.flag;
        hdr.h.pad = hdr.u.isValid() ? 7w1 : 7w0;
        sm.egress_spec = 1;
    }
}
control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); pk.emit(hdr.t); pk.emit(hdr.u); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
