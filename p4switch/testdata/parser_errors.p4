// Parser errors reach ingress in standard_metadata.parser_error; the
// packet is not dropped and the unparsed bytes stay in the payload.
#include <core.p4>
#include <v1model.p4>

error { BadTag }

header a_t { bit<8> tag; }
header b_t { bit<32> v; }
header out_t { bit<32> err; bit<8> bvalid; }
header len_t { bit<8> bits; }
header v_t { varbit<16> opt; }

struct headers { a_t a; b_t b; out_t o; len_t len; v_t v; }
struct meta_t { }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        pk.extract(hdr.a);
        verify(hdr.a.tag != 0xFF, error.BadTag);
        transition select(hdr.a.tag) {
            1: pb;
            2: accept;
            4: pv;
            0x10 &&& 0xF0: pb;
        }
    }
    state pb { pk.extract(hdr.b); transition accept; }
    // a varbit size that is not whole bytes is ParserInvalidArgument, one
    // above the field's maximum is HeaderTooShort (core.p4's meanings)
    state pv { pk.extract(hdr.len); pk.extract(hdr.v, (bit<32>)hdr.len.bits); transition accept; }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        hdr.o.setValid();
        if (sm.parser_error == error.NoError) {
            hdr.o.err = 0;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.o.err = 1;
        } else if (sm.parser_error == error.NoMatch) {
            hdr.o.err = 2;
        } else if (sm.parser_error == error.BadTag) {
            hdr.o.err = 3;
        } else if (sm.parser_error == error.HeaderTooShort) {
            hdr.o.err = 4;
        } else if (sm.parser_error == error.ParserInvalidArgument) {
            hdr.o.err = 6;
        } else {
            hdr.o.err = 9;
        }
        hdr.o.bvalid = hdr.b.isValid() ? 8w1 : 8w0;
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) {
    apply { pk.emit(hdr.a); pk.emit(hdr.b); pk.emit(hdr.o); pk.emit(hdr.len); pk.emit(hdr.v); }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
