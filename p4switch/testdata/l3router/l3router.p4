/*
 * l3router: a small IPv4 router for v1model, used by p4switch's P4Runtime
 * tests, the Mininet tests and the p4switch benchmark.
 *
 *  - IPv4 longest-prefix match to a next hop (MAC rewrite, TTL decrement),
 *    with a direct counter; misses fall through to an ECMP table whose
 *    action selector hashes the flow;
 *  - ternary ACL that can drop or mirror (I2E clone session 100);
 *  - per-port packet counter, byte meter (red = drop) and a register with
 *    the last source MAC seen on each port;
 *  - egress source-MAC rewrite per port; packet-in/out through CPU port 255;
 *  - IPv4 header checksum verified and recomputed.
 */
#include <core.p4>
#include <v1model.p4>

const bit<16> TYPE_IPV4 = 0x0800;
const bit<9>  CPU_PORT  = 255;
const bit<32> MIRROR_SESSION = 100;

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<9>  port_t;

@controller_header("packet_in")
header packet_in_t {
    port_t  ingress_port;
    bit<7>  _pad;
}

@controller_header("packet_out")
header packet_out_t {
    port_t  egress_port;
    bit<7>  _pad;
}

header ethernet_t {
    mac_addr_t dstAddr;
    mac_addr_t srcAddr;
    bit<16>    etherType;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      diffserv;
    bit<16>     totalLen;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     fragOffset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdrChecksum;
    ipv4_addr_t srcAddr;
    ipv4_addr_t dstAddr;
}

struct headers_t {
    packet_out_t packet_out;
    packet_in_t  packet_in;
    ethernet_t   ethernet;
    ipv4_t       ipv4;
}

struct metadata_t {
    bit<2> color;
}

parser RouterParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        transition select(standard_metadata.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }
    state parse_packet_out {
        packet.extract(hdr.packet_out);
        transition parse_ethernet;
    }
    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            TYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control RouterVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control RouterIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    counter(512, CounterType.packets_and_bytes) port_rx;
    meter(512, MeterType.bytes) port_meter;
    register<mac_addr_t>(512) last_src_mac;
    direct_counter(CounterType.packets_and_bytes) lpm_hits;
    action_selector(HashAlgorithm.crc16, 32w64, 32w14) ecmp_selector;

    action drop() {
        mark_to_drop(standard_metadata);
    }

    action send_to_cpu() {
        standard_metadata.egress_spec = CPU_PORT;
    }

    action ipv4_forward(mac_addr_t dstAddr, port_t port) {
        standard_metadata.egress_spec = port;
        hdr.ethernet.dstAddr = dstAddr;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    action mirror() {
        clone(CloneType.I2E, MIRROR_SESSION);
    }

    table ipv4_lpm {
        key = { hdr.ipv4.dstAddr: lpm; }
        actions = { ipv4_forward; send_to_cpu; drop; NoAction; }
        counters = lpm_hits;
        size = 65536;
        default_action = NoAction();
    }

    table ecmp {
        key = {
            hdr.ipv4.dstAddr: exact;
            hdr.ipv4.srcAddr: selector;
            hdr.ipv4.protocol: selector;
        }
        actions = { ipv4_forward; drop; }
        implementation = ecmp_selector;
        size = 64;
    }

    table acl {
        key = {
            hdr.ipv4.protocol: ternary;
            hdr.ipv4.dstAddr: ternary;
        }
        actions = { mirror; drop; NoAction; }
        size = 256;
        default_action = NoAction();
    }

    apply {
        if (hdr.packet_out.isValid()) {
            standard_metadata.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            exit;
        }
        port_rx.count((bit<32>)standard_metadata.ingress_port);
        last_src_mac.write((bit<32>)standard_metadata.ingress_port, hdr.ethernet.srcAddr);
        port_meter.execute_meter((bit<32>)standard_metadata.ingress_port, meta.color);
        if (meta.color == 2) {
            drop();
            exit;
        }
        if (!hdr.ipv4.isValid()) {
            send_to_cpu();
            exit;
        }
        if (standard_metadata.checksum_error == 1 || hdr.ipv4.ttl <= 1) {
            send_to_cpu();
            exit;
        }
        if (!ipv4_lpm.apply().hit) {
            if (!ecmp.apply().hit) {
                drop();
            }
        }
        acl.apply();
    }
}

control RouterEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    action set_smac(mac_addr_t mac) {
        hdr.ethernet.srcAddr = mac;
    }

    table mac_rewrite {
        key = { standard_metadata.egress_port: exact; }
        actions = { set_smac; NoAction; }
        size = 512;
        default_action = NoAction();
    }

    apply {
        if (standard_metadata.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = standard_metadata.ingress_port;
            hdr.packet_in._pad = 0;
        } else {
            mac_rewrite.apply();
        }
    }
}

control RouterComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control RouterDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(RouterParser(), RouterVerifyChecksum(), RouterIngress(), RouterEgress(),
         RouterComputeChecksum(), RouterDeparser()) main;
