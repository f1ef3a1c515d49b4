// Language constructs: preprocessor, typedef/type, enums, consts,
// functions with return, copy-in/copy-out, nested controls, switch on
// values, struct and list initialisers, compound assignment, varbit,
// lookahead and advance, generic functions, for loops.
#include <core.p4>
#include <v1model.p4>
#include "inc/lang_types.p4"
#include "inc/lang_types.p4"

#if defined(MAGIC) && !defined(UNDEFINED_THING)
const byte_t K = MAGIC;
#else
const byte_t K = 0;
#endif

header h_t { byte_t op; byte_t a; byte_t b; bit<16> w; byte_t optlen; }
header opt_t { varbit<64> data; }
header o_t { byte_t r1; byte_t r2; byte_t r3; bit<16> r4; byte_t r5; byte_t r6; }
struct pair_t { byte_t x; byte_t y; }
struct headers { h_t h; opt_t opt; o_t o; }
struct meta_t { pair_t p; port_id_t port; }

bit<8> max8(in bit<8> a, in bit<8> b) {
    if (a > b) {
        return a;
    }
    return b;
}

T maxg<T>(in T a, in T b) {
    return a > b ? a : b;
}

void swap(inout pair_t p) {
    byte_t t = p.x;
    p.x = p.y;
    p.y = t;
}

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        pk.extract(hdr.h);
        transition select(hdr.h.op, hdr.h.optlen) {
            (9, 0): skip;
            (_, 0): accept;
            (0 .. 8, _): opts;
            default: accept;
        }
    }
    state opts {
        pk.extract(hdr.opt, (bit<32>)hdr.h.optlen * 8);
        transition accept;
    }
    state skip {
        bit<16> peek = pk.lookahead<bit<16>>();
        hdr.h.w = peek;
        pk.advance(16);
        transition accept;
    }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

control Sub(inout byte_t v, in byte_t add) {
    action bump(byte_t n) { v = v + n; }
    apply {
        bump(add);
        if (v == 0xFF) {
            return;
        }
        v = v + 1;
    }
}

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    Sub() sub;

    action set_both(out byte_t x, out byte_t y, in byte_t v) {
        x = v;
        y = v + 1;
    }

    apply {
        hdr.o.setValid();
        hdr.o.r1 = maxg(max8(hdr.h.a, hdr.h.b), hdr.h.b);
        m.p = { hdr.h.a, hdr.h.b };
        swap(m.p);
        hdr.o.r2 = m.p.x;
        byte_t v = hdr.h.a;
        sub.apply(v, 3);
        hdr.o.r3 = v;
        Kind k = (Kind)hdr.h.op;
        switch (k) {
            Kind.A: { hdr.o.r4 = 0xAAAA; }
            Kind.B:
            Kind.C: { hdr.o.r4 = 0xBBCC; }
            default: { hdr.o.r4 = (bit<16>)K; }
        }
        Color c = Color.Green;
        if (hdr.h.op == 4) {
            c = Color.Blue;
        }
        hdr.o.r5 = c == Color.Blue ? 8w0xB1 : 8w0x61;
        m.port = (port_id_t)16w7;
        hdr.o.r5 = hdr.o.r5 + (byte_t)(bit<16>)m.port;
        pair_t q = { x = 1, y = 2 };
        hdr.o.r5 = hdr.o.r5 + TWICE(q.y) - q.y;
        hdr.h.w |+|= 0xFFF0;
        hdr.h.w >>= 4;
        if (hdr.h.op == 5) {
            set_both(hdr.o.r1, hdr.o.r2, 0x40);
        }
        byte_t acc = 0;
        for (byte_t i = 0; i < 10; i = i + 1) {
            if (i == 7) {
                break;
            }
            if (i[0:0] == 1) {
                continue;
            }
            acc = acc + i;
        }
        for (byte_t k in 1 .. 3) {
            acc = acc + k;
        }
        hdr.o.r6 = acc;
        sm.egress_spec = (bit<9>)(hdr.h.op & 1) + 1;
    }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
