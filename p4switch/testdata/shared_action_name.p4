// Actions that share a control-plane name, as P4-14 translations write them:
// "._drop"-style @name("._mark") in both ingress and egress, and two "set"
// actions of one control with the same relative @name. p4info lists each name
// once; a table entry's action id runs the body of the table's own control
// (see v1model/shared_action_test.go).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> k; bit<8> a; bit<8> b; bit<8> c; }
struct headers { h_t h; }
struct meta_t { }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    @name("._mark") action mark_i() { hdr.h.a = 0xaa; }
    @name("set") action set_b(bit<8> v) { hdr.h.b = v; }
    @name("set") action set_c(bit<8> v) { hdr.h.c = v; }
    table ti { key = { hdr.h.k: exact; } actions = { mark_i; set_b; NoAction; } default_action = NoAction(); }
    table tc { key = { hdr.h.k: exact; } actions = { set_c; NoAction; } default_action = NoAction(); }
    apply { sm.egress_spec = 1; ti.apply(); tc.apply(); }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    @name("._mark") action mark_e() { hdr.h.c = 0xee; }
    table te { key = { hdr.h.k: exact; } actions = { mark_e; NoAction; } default_action = NoAction(); }
    apply { te.apply(); }
}

control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
