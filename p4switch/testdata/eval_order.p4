// Evaluation order of locations (found running p4c's gauntlet samples):
// the left-hand side of an assignment and the out/inout arguments of a
// call denote the location chosen before the right-hand side or the call
// runs, even when these change the index that selected it.
#include <core.p4>
#include <v1model.p4>

header op_t { bit<8> op; bit<8> idx; }
header e_t { bit<8> v; }

struct headers { op_t o; e_t[2] s; }
struct meta {}

parser p(packet_in pk, out headers hdr, inout meta m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.o); pk.extract(hdr.s.next); pk.extract(hdr.s.next); transition accept; }
}
control vc(inout headers hdr, inout meta m) { apply {} }

bit<8> zero_idx(inout bit<8> idx) {
    idx = 0;
    return 0xAA;
}

control ig(inout headers hdr, inout meta m, inout standard_metadata_t sm) {
    action zero_then_set(inout bit<8> idx, inout bit<8> v) {
        idx = 0;
        v = 0xBB;
    }
    apply {
        if (hdr.o.op == 1) {
            hdr.s[hdr.o.idx].v = zero_idx(hdr.o.idx);
        } else if (hdr.o.op == 2) {
            zero_then_set(hdr.o.idx, hdr.s[hdr.o.idx].v);
        } else if (hdr.o.op == 3) {
            hdr.s[hdr.o.idx].v[3:0] = zero_idx(hdr.o.idx)[3:0];
        }
    }
}
control eg(inout headers hdr, inout meta m, inout standard_metadata_t sm) { apply {} }
control ck(inout headers hdr, inout meta m) { apply {} }
control dp(packet_out pk, in headers hdr) { apply { pk.emit(hdr.o); pk.emit(hdr.s); } }

V1Switch(p(), vc(), ig(), eg(), ck(), dp()) main;
