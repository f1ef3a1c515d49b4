// Copy-in/copy-out of control arguments: p4switch copies only the parts of
// an argument the applied control touches, except when arguments overlap,
// where the order of the copy-outs decides the result.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
header out_t { bit<8> x; bit<8> y; }

struct headers { h_t h; out_t o; }
struct meta_t { bit<8> x; bit<8> y; }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

// hs and h overlap: hs is copied out first, then h over it, so the write to
// hs.h.b is lost.
control Both(inout headers hs, inout h_t h) {
    apply {
        h.a = 8w0x10;
        hs.h.b = 8w0x20;
    }
}

control Inc(inout h_t h) { apply { h.a = h.a + 1; } }

// a nested apply: Inc touches hs.h.a only
control Outer(inout headers hs, inout meta_t m) {
    Inc() inc;
    apply {
        inc.apply(hs.h);
        m.x = m.x + 1;
    }
}

control Partial(inout headers hs, inout meta_t m) {
    apply {
        m.y = hs.h.b;
        hs.h.a = hs.h.a + 2;
    }
}

control ReadOnly(in headers hs, inout meta_t m) { apply { m.x = hs.h.a; } }

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    Both() both;
    Outer() outer;
    Partial() partial;
    ReadOnly() readOnly;
    apply {
        both.apply(hdr, hdr.h);
        outer.apply(hdr, m);
        partial.apply(hdr, m);
        readOnly.apply(hdr, m);
        hdr.o.setValid();
        hdr.o.x = m.x;
        hdr.o.y = m.y;
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); pk.emit(hdr.o); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
