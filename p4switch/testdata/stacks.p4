// Header stacks: next/last in the parser, overflow, lastIndex, dynamic
// indexing, push_front and pop_front.
#include <core.p4>
#include <v1model.p4>

header e_t { bit<8> v; bit<8> more; }
header out_t { bit<32> last_index; bit<8> lastv; bit<8> n; }

struct headers { e_t[3] s; out_t o; }
struct meta_t { }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        pk.extract(hdr.s.next);
        transition select(hdr.s.last.more) {
            1: start;
            default: accept;
        }
    }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        hdr.o.setValid();
        hdr.o.n = 0;
        if (sm.parser_error == error.StackOutOfBounds) {
            hdr.o.n = 0xEE;
        }
        hdr.o.last_index = hdr.s.lastIndex;
        bit<32> i = 1;
        hdr.o.lastv = hdr.s[i].v;
        if (hdr.s[0].v == 0x55) {
            hdr.s.pop_front(1);
        } else {
            hdr.s.push_front(1);
            hdr.s[0].setValid();
            hdr.s[0].v = 0x77;
            hdr.s[0].more = 1;
        }
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.s); pk.emit(hdr.o); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
