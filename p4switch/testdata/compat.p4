// Regression tests for behaviour found by running p4c's sample corpus
// (tools/p4c_corpus.sh): each control block below is one fix.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    int<16> s16;
    bit<8>  amt;
    int<32> r32;
}

struct headers { h_t h; }
struct meta {}

header skip_t { bit<8> b; }

parser p(packet_in pk, out headers hdr, inout meta m, inout standard_metadata_t sm) {
    state start {
        pk.extract(hdr.h);
        transition select(hdr.h.op) {
            7: skip;
            default: accept;
        }
    }
    // extract into _ consumes a header's worth of packet
    state skip { pk.extract<skip_t>(_); transition accept; }
}
control vc(inout headers hdr, inout meta m) { apply {} }

// a control instance passed as a constructor argument, and a direct
// invocation (Outer.apply) of a control type
control bump_t(inout int<32> x);
control Bump(inout int<32> x) { apply { x = x + 1; } }
control Twice(inout int<32> x)(bump_t b) { apply { b.apply(x); b.apply(x); } }
control Outer(inout int<32> x) {
    Bump() b;
    Twice(b) t;
    apply { t.apply(x); }
}

control ig(inout headers hdr, inout meta m, inout standard_metadata_t sm) {
    // P4Info: an action called only from other actions is inlined (absent)
    action widen(bit<8> a, bit<16> b) { hdr.h.r32 = (int<32>)(bit<32>)(a ++ b); }
    action set(bit<8> a, bit<16> b) { widen(a, b); }
    // P4Info: initial_default_action carries the arguments at full width
    table with_args {
        key = { hdr.h.op : exact; }
        actions = { set; }
        default_action = set(7, 0x102);
    }
    // P4Info: no default_action means "NoAction()" and a @defaultonly NoAction
    table without_default {
        // P4Info: an isValid() key is named "hdr.h.$valid$", as by p4c
        key = { hdr.h.op : exact; hdr.h.isValid() : exact; }
        actions = { set; }
    }
    action setp(bit<8> v) { hdr.h.r32 = (int<32>)(bit<32>)v; }
    // older p4c syntax: a trailing @priority(N), where the smallest N wins
    // and an entry without one counts as its position
    table prio {
        key = { hdr.h.amt : ternary; }
        actions = { setp; }
        const entries = {
            0x01 &&& 0x0F : setp(1) @priority(3);
            0x11          : setp(2);
            0x11 &&& 0xF1 : setp(3) @priority(1);
        }
    }
    // P4 1.2.4 entries: per-entry const and priorities, the smallest winning
    table prio_spec {
        key = { hdr.h.amt : ternary; }
        actions = { setp; }
        largest_priority_wins = false;
        priority_delta = 10;
        entries = {
            const priority=30: 0x01 &&& 0x0F : setp(1);
                  priority=10: 0x11          : setp(2);
                               0x11 &&& 0xF1 : setp(3); // priority 20
        }
    }
    apply {
        if (hdr.h.op == 8) {
            prio_spec.apply();
        }
        if (hdr.h.op == 6) {
            // switch on a value wider than 64 bits
            bit<72> w = (bit<72>)hdr.h.r32 << 40;
            switch (w) {
                72w0x10000000000: { hdr.h.r32 = 7; }
                72w0x20000000000:
                72w0x30000000000: { hdr.h.r32 = 8; }
                default: { hdr.h.r32 = 9; }
            }
        }
        if (hdr.h.op == 5) {
            prio.apply();
        }
        if (hdr.h.op == 4) {
            Outer.apply(hdr.h.r32);
            Outer.apply(hdr.h.r32);
        }
        if (hdr.h.op == 3) {
            with_args.apply();
            without_default.apply();
        }
        sm.egress_spec = 0;
        if (hdr.h.op == 1) {
            // implicit widening of int<16> to int<32> keeps the value (sign-extends)
            hdr.h.r32 = hdr.h.s16 >> hdr.h.amt;
        }
        if (hdr.h.op == 2) {
            // deprecated standard_metadata fields of older v1model versions
            sm.clone_spec = 5;
            sm.recirculate_port = 7;
            hdr.h.r32 = (int<32>)(sm.clone_spec + (bit<32>)sm.recirculate_port);
        }
    }
}
control eg(inout headers hdr, inout meta m, inout standard_metadata_t sm) { apply {} }
control ck(inout headers hdr, inout meta m) { apply {} }
control dp(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(p(), vc(), ig(), eg(), ck(), dp()) main;
