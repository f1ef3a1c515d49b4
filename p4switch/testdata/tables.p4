// Match kinds, priorities, default and const entries, hit/miss and action_run.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> sel; bit<8> k1; bit<16> k2; bit<32> k3; bit<8> k4; bit<8> r; bit<8> hf; }
struct headers { h_t h; }
struct meta_t { }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.r = v; }
    action miss_act() { hdr.h.r = 0xEE; }
    action set_port(bit<9> p) { sm.egress_spec = p; }
    action setbyte(out bit<8> reg, bit<8> val) { reg = val; }
    action do_exit() { exit; }

    table t_exact {
        key = { hdr.h.k1: exact; }
        actions = { set; miss_act; }
        default_action = miss_act();
    }
    table t_tern {
        key = { hdr.h.k2: ternary; hdr.h.k1: exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    table t_lpm {
        key = { hdr.h.k3: lpm; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    table t_range {
        key = { hdr.h.k4: range; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    table t_opt {
        key = { hdr.h.k1: optional; hdr.h.k4: exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    table t_const {
        key = { hdr.h.k1: exact; }
        actions = { set; NoAction; }
        const entries = {
            1: set(0x11);
            2: set(0x22);
        }
        default_action = NoAction();
    }
    table t_ctern {
        key = { hdr.h.k2: ternary; }
        actions = { set; }
        const entries = {
            0x0F00 &&& 0xFF00: set(0xA1);
            _: set(0xA2);
        }
        const default_action = set(v = 0xA3);
    }
    table t_crange {
        key = { hdr.h.k4: range; hdr.h.k1: exact; }
        actions = { set; }
        const entries = {
            (1 .. 9, 1): set(0xB1);
            (5 .. 200, _): set(0xB2);
        }
        const default_action = set(0xB3);
    }
    table t_bind {
        key = { hdr.h.k1: exact; }
        actions = { setbyte(hdr.h.hf); NoAction; }
        default_action = NoAction();
    }
    table t_exit {
        key = { hdr.h.k1: exact; }
        actions = { do_exit; NoAction; }
        default_action = NoAction();
    }
    table t_port {
        key = { }
        actions = { set_port; }
        default_action = set_port(1);
    }

    apply {
        if (hdr.h.sel == 1) {
            if (t_exact.apply().hit) { hdr.h.hf = 1; } else { hdr.h.hf = 2; }
        } else if (hdr.h.sel == 2) {
            t_tern.apply();
        } else if (hdr.h.sel == 3) {
            if (t_lpm.apply().miss) { hdr.h.hf = 3; }
        } else if (hdr.h.sel == 4) {
            t_range.apply();
        } else if (hdr.h.sel == 5) {
            t_opt.apply();
        } else if (hdr.h.sel == 6) {
            switch (t_const.apply().action_run) {
                set: { hdr.h.hf = 6; }
                NoAction: { hdr.h.hf = 7; }
            }
        } else if (hdr.h.sel == 7) {
            t_ctern.apply();
        } else if (hdr.h.sel == 8) {
            t_crange.apply();
        } else if (hdr.h.sel == 9) {
            t_bind.apply();
        } else if (hdr.h.sel == 10) {
            hdr.h.r = t_exit.apply().hit ? 8w1 : 8w2;
        }
        t_port.apply();
    }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
