// A stack of header unions filled with extract(u.next.member): each extract
// advances the stack's next index (found running p4c's issue561-6-bmv2).
#include <core.p4>
#include <v1model.p4>

header tag_t { bit<8> kinds; }
header one_t { bit<8> v; }
header two_t { bit<16> v; }
header_union u_t { one_t one; two_t two; }

struct headers { tag_t tag; u_t[2] u; }
struct meta {}

parser p(packet_in pk, out headers hdr, inout meta m, inout standard_metadata_t sm) {
    state start {
        pk.extract(hdr.tag);
        transition select(hdr.tag.kinds) {
            0x11: one_one;
            0x12: one_two;
            0x21: two_one;
            default: accept;
        }
    }
    state one_one { pk.extract(hdr.u.next.one); pk.extract(hdr.u.next.one); transition accept; }
    state one_two { pk.extract(hdr.u.next.one); pk.extract(hdr.u.next.two); transition accept; }
    state two_one { pk.extract(hdr.u.next.two); pk.extract(hdr.u.next.one); transition accept; }
}
control vc(inout headers hdr, inout meta m) { apply {} }
control ig(inout headers hdr, inout meta m, inout standard_metadata_t sm) {
    apply {
        // mark which member of each element is valid
        if (hdr.u[0].one.isValid()) { hdr.u[0].one.v = 0xA1; }
        if (hdr.u[0].two.isValid()) { hdr.u[0].two.v = 0xA2A2; }
        if (hdr.u[1].one.isValid()) { hdr.u[1].one.v = 0xB1; }
        if (hdr.u[1].two.isValid()) { hdr.u[1].two.v = 0xB2B2; }
    }
}
control eg(inout headers hdr, inout meta m, inout standard_metadata_t sm) { apply {} }
control ck(inout headers hdr, inout meta m) { apply {} }
control dp(packet_out pk, in headers hdr) { apply { pk.emit(hdr); } }

V1Switch(p(), vc(), ig(), eg(), ck(), dp()) main;
