// Counters and meters, direct and indirect, at ingress and at egress: all of
// them count the whole packet, as BMv2 does (packet_length_test.go).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etherType;
}

// The colours the meters gave, written into the packet.
header colours_t {
    bit<8> ingress;
    bit<8> ingress_direct;
    bit<8> egress;
    bit<8> egress_direct;
}

struct headers_t {
    ethernet_t eth;
    colours_t  colours;
}

struct meta_t {}

parser MyParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        pkt.extract(hdr.colours);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers_t hdr, inout meta_t meta) { apply { } }

control MyIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    counter(4, CounterType.packets_and_bytes) ingress_counter;
    meter(4, MeterType.bytes) ingress_meter;
    direct_counter(CounterType.packets_and_bytes) ingress_direct_counter;
    direct_meter<bit<8>>(MeterType.bytes) ingress_direct_meter;

    action forward() {
        sm.egress_spec = 2;
        ingress_direct_meter.read(hdr.colours.ingress_direct);
    }
    table ingress_table {
        key = { hdr.eth.etherType : exact; }
        actions = { forward; NoAction; }
        default_action = NoAction();
        counters = ingress_direct_counter;
        meters = ingress_direct_meter;
    }
    apply {
        ingress_table.apply();
        ingress_counter.count(0);
        ingress_meter.execute_meter(0, hdr.colours.ingress);
    }
}

control MyEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    counter(4, CounterType.packets_and_bytes) egress_counter;
    meter(4, MeterType.bytes) egress_meter;
    direct_counter(CounterType.packets_and_bytes) egress_direct_counter;
    direct_meter<bit<8>>(MeterType.bytes) egress_direct_meter;

    action mark() {
        egress_direct_meter.read(hdr.colours.egress_direct);
    }
    table egress_table {
        key = { hdr.eth.etherType : exact; }
        actions = { mark; NoAction; }
        default_action = NoAction();
        counters = egress_direct_counter;
        meters = egress_direct_meter;
    }
    apply {
        egress_table.apply();
        egress_counter.count(0);
        egress_meter.execute_meter(0, hdr.colours.egress);
    }
}

control MyComputeChecksum(inout headers_t hdr, inout meta_t meta) { apply { } }

control MyDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.colours);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
