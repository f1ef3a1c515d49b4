// v1model externs: counter, register, hash, Checksum16, meter, clone (I2E,
// E2E), multicast, resubmit, recirculate, truncate, mark_to_drop, assert,
// exit, digest and log_msg.
#include <core.p4>
#include <v1model.p4>

header cmd_t { bit<8> op; bit<8> arg; bit<32> x; }
header out_t { bit<32> v; bit<16> h16; bit<32> h32; bit<32> inst; }

struct headers { cmd_t cmd; out_t o; }
struct meta_t {
    @field_list(0) bit<8> resub;
    @field_list(1) bit<8> recirc;
    bit<8> lost;
}
struct digest_t { bit<32> x; bit<8> arg; }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        pk.extract(hdr.cmd);
        transition select(pk.lookahead<bit<8>>()) {
            0x00 &&& 0x00: parse_o;
        }
    }
    state parse_o { pk.extract(hdr.o); transition accept; }
}

control VC(inout headers hdr, inout meta_t m) { apply { } }

// an extern instance declared outside any control
@name(".regs_top") register<bit<32>, bit<8>>(16) r;

control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    counter(8, CounterType.packets_and_bytes) c;
    meter(4, MeterType.packets) mt;
    Checksum16() ck;

    apply {
        sm.egress_spec = 1;
        hdr.o.inst = sm.instance_type;
        bit<8> op = hdr.cmd.op;
        if (op == 1) {
            c.count((bit<32>)hdr.cmd.arg);
        } else if (op == 2) {
            r.write(hdr.cmd.arg, hdr.cmd.x);
        } else if (op == 3) {
            r.read(hdr.o.v, hdr.cmd.arg);
        } else if (op == 4) {
            hash(hdr.o.h16, HashAlgorithm.crc16, 16w0, { hdr.cmd.x }, 32w65536);
            hash(hdr.o.h32, HashAlgorithm.crc32, 32w0, { hdr.cmd.x }, 64w4294967296);
            hash(hdr.o.v, HashAlgorithm.identity, 32w5, { hdr.cmd.x }, 32w1000);
        } else if (op == 5) {
            clone(CloneType.I2E, 5);
        } else if (op == 7) {
            sm.mcast_grp = (bit<16>)hdr.cmd.arg;
        } else if (op == 8) {
            if (sm.instance_type == 0) {
                m.resub = 0xAB;
                m.lost = 0x11;
                resubmit_preserving_field_list(0);
            } else {
                hdr.o.v = (bit<32>)m.resub;
                hdr.o.h16 = (bit<16>)m.lost;
            }
        } else if (op == 9) {
            if (sm.instance_type == 4) {
                hdr.o.v = (bit<32>)m.recirc;
            }
        } else if (op == 11) {
            mark_to_drop(sm);
        } else if (op == 12) {
            hdr.o.h16 = ck.get({ hdr.cmd.x });
        } else if (op == 13) {
            bit<2> color;
            mt.execute_meter(0, color);
            hdr.o.v = (bit<32>)color + 100;
        } else if (op == 14) {
            digest<digest_t>(1, { hdr.cmd.x, hdr.cmd.arg });
        } else if (op == 15) {
            assert(hdr.cmd.arg == 1);
        } else if (op == 16) {
            hdr.o.v = 1;
            exit;
        } else if (op == 19) {
            if (sm.instance_type == 0) {
                m.lost = 0x22;
                m.resub = 0x33;
                resubmit({ m.lost });
            } else {
                hdr.o.v = (bit<32>)m.resub;
                hdr.o.h16 = (bit<16>)m.lost;
            }
        } else if (op == 18) {
            bit<32> rv;
            random(rv, 32w7, 32w7);
            hdr.o.v = rv;
            random(rv, 32w1, 32w3);
            hdr.o.h32 = (rv >= 1 && rv <= 3) ? 32w1 : 32w0;
        } else if (op == 17) {
            log_msg("x = {}", { hdr.cmd.x });
            hdr.o.v = hdr.cmd.x |+| 0xFFFF0000;
        }
    }
}

control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        hdr.o.inst = hdr.o.inst << 8 | sm.instance_type;
        if (hdr.cmd.op == 5 || hdr.cmd.op == 6) {
            hdr.o.h32 = (bit<32>)sm.egress_port;
        }
        if (hdr.cmd.op == 6 && sm.instance_type == 0) {
            clone(CloneType.E2E, 6);
        }
        if (hdr.cmd.op == 7) {
            hdr.o.v = (bit<32>)sm.egress_rid;
            hdr.o.h32 = (bit<32>)sm.egress_port;
        }
        if (hdr.cmd.op == 9 && sm.instance_type == 0) {
            m.recirc = 0xCD;
            recirculate_preserving_field_list(1);
        }
        if (hdr.cmd.op == 10) {
            truncate(4);
        }
    }
}

control CC(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.cmd); pk.emit(hdr.o); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
