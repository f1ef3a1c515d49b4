// Header validity: writes to invalid headers are ignored, whole-header
// assignment copies validity, header unions keep one member valid.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> f; }
header u1_t { bit<8> a; }
header u2_t { bit<16> b; }
header_union U { u1_t u1; u2_t u2; }
header out_t { bit<8> v1; bit<8> v2; bit<8> v3; bit<8> flags; }

struct headers { h_t h; h_t x; U u; out_t o; }
struct meta_t { }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        pk.extract(hdr.h);
        transition select(hdr.h.f) {
            1: p1;
            2: p2;
            default: accept;
        }
    }
    state p1 { pk.extract(hdr.u.u1); transition accept; }
    state p2 { pk.extract(hdr.u.u2); transition accept; }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        hdr.o.setValid();
        hdr.x.f = 7;            // ignored: x is invalid
        hdr.x.setValid();
        hdr.o.v1 = hdr.x.f;   // 0
        hdr.x.f = 9;
        hdr.o.v2 = hdr.x.f;   // 9
        hdr.x.setInvalid();
        bit<8> fl = 0;
        if (hdr.h.isValid()) { fl = fl | 1; }
        if (hdr.x.isValid()) { fl = fl | 2; }
        if (hdr.u.isValid()) { fl = fl | 4; }
        if (hdr.u.u1.isValid()) { fl = fl | 8; }
        if (hdr.u.u2.isValid()) { fl = fl | 16; }
        hdr.o.flags = fl;
        if (hdr.u.u1.isValid()) {
            hdr.u.u2.setValid();    // invalidates u1
            hdr.u.u2.b = 0xBEEF;
        }
        hdr.o.v3 = hdr.u.u1.isValid() ? 8w1 : 8w0;
        hdr.x = hdr.h;              // copies validity and contents
        hdr.x.f = hdr.x.f + 1;
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) {
    apply { pk.emit(hdr.h); pk.emit(hdr.x); pk.emit(hdr.u); pk.emit(hdr.o); }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
