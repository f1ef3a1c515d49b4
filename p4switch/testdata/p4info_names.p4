// Control-plane names used to check P4Info ids against p4c's scheme, plus
// @id, @name, controller headers, counters, meters, registers, profiles.
#include <core.p4>
#include <v1model.p4>

@controller_header("packet_in")
header packet_in_t { bit<9> ingress_port; bit<7> pad; }
@controller_header("packet_out")
header packet_out_t { bit<9> egress_port; bit<7> pad; }
header ethernet_t { bit<48> dstAddr; bit<48> srcAddr; bit<16> etherType; }
header ipv4_t { bit<32> srcAddr; bit<32> dstAddr; }
enum bit<8> MySerEnum1 { foo = 28, bar = 17 }

struct test_digest_t { bit<48> in_mac_srcAddr; }
struct test_digest2_t { bit<48> in_mac_dstAddr; MySerEnum1 my_thing; }
struct test_digest3_t { bit<16> in_mac_etherType; }
struct metadata { }
struct headers { packet_in_t pin; packet_out_t pout; ethernet_t ethernet; ipv4_t ipv4; }

parser MyParser(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    state start { packet.extract(hdr.ethernet); packet.extract(hdr.ipv4); transition accept; }
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    counter(64, CounterType.packets) pkt_counter;
    direct_counter(CounterType.bytes) fwd_counter;
    meter(32, MeterType.bytes) port_meter;
    register<bit<32>, bit<32>>(128) regs;

    action set_dmac(bit<48> dstAddr) { hdr.ethernet.dstAddr = dstAddr; fwd_counter.count(); }
    action drop() { mark_to_drop(standard_metadata); }
    action set_nhop(bit<32> dstAddr, bit<9> port) { hdr.ipv4.dstAddr = dstAddr; standard_metadata.egress_spec = port; }
    action send_digest() {
        digest<test_digest_t>(1, { hdr.ethernet.srcAddr });
        digest<test_digest2_t>(2, { hdr.ethernet.dstAddr, MySerEnum1.bar });
        digest<test_digest3_t>(3, { hdr.ethernet.etherType });
    }
    @id(0x01000042) action pinned() { }

    table forward {
        key = { hdr.ipv4.dstAddr: exact; }
        actions = { set_dmac; drop; NoAction; }
        counters = fwd_counter;
        default_action = NoAction();
    }
    table ipv4_lpm {
        key = { hdr.ipv4.dstAddr: lpm; }
        actions = { set_nhop; drop; NoAction; }
        size = 4;
        default_action = NoAction();
    }
    @name("renamed") table local_name {
        key = { hdr.ethernet.etherType: ternary @name("etype"); }
        actions = { pinned; @defaultonly NoAction; }
        default_action = NoAction();
    }
    @name(".global_name") table absolute {
        key = { hdr.ipv4.srcAddr: exact; }
        actions = { set_nhop; }
        implementation = action_profile(32w64);
    }

    apply {
        ipv4_lpm.apply();
        forward.apply();
        local_name.apply();
        absolute.apply();
        send_digest();
        pkt_counter.count(0);
        bit<2> color;
        port_meter.execute_meter(0, color);
        regs.write(0, 1);
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    action rewrite_mac(bit<48> srcAddr) { hdr.ethernet.srcAddr = srcAddr; }
    table send_frame {
        key = { standard_metadata.egress_port: exact; }
        actions = { rewrite_mac; NoAction; }
        default_action = NoAction();
    }
    apply { send_frame.apply(); }
}

control MyComputeChecksum(inout headers hdr, inout metadata meta) { apply { } }
control MyDeparser(packet_out packet, in headers hdr) { apply { packet.emit(hdr.ethernet); packet.emit(hdr.ipv4); } }

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
