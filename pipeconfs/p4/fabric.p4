// fairfabric: one v1model pipeline for every switch of the fabric (leaf, spine,
// core); the role of a switch comes from its table entries. See
// docs/pipeline.md for every table, register, meter and counter.
#include <core.p4>
#include <v1model.p4>

#include "include/define.p4"
#include "include/size.p4"
#include "include/header.p4"
#include "include/parser.p4"
#include "include/port_bitmap.p4"
#include "include/control/clock.p4"
#include "include/control/packetio.p4"
#include "include/control/port_kind.p4"
#include "include/control/arp.p4"
#include "include/control/acl.p4"
#include "include/control/downward_routing.p4"
#include "include/control/pinned_path.p4"
#include "include/control/upward_routing.p4"
#include "include/control/failure_detection.p4"
#include "include/control/probe_bounce.p4"
#include "include/control/delay_sensing.p4"
#include "include/control/safe_rate.p4"
#include "include/control/port_utilization.p4"
#include "include/control/egress_sensing.p4"
#include "include/control/augmented_queue.p4"
#include "include/control/ecn.p4"
#include "include/control/fack.p4"
#include "include/control/egress_rewrite.p4"
#include "include/control/port_counters.p4"

control FabricIngress(inout headers_t hdr,
                      inout local_metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    IngressClock() clock;
    PortUtilization() port_utilization;
    FailureDetection() failure_detection;
    IngressPortKind() port_kind;
    DelaySensing() delay_sensing;
    SafeRate() safe_rate;
    Arp() arp;
    MyStation() my_station;
    Acl() acl;
    AqClassifyOutbound() aq_classify_outbound;
    AugmentedQueue() aq_ingress;
    DownwardRouting() downward_routing;
    PathClassifier() path_classifier;
    PinnedPath() pinned_path;
    UpwardRouting() upward_routing;
    ProbeBounce() probe_bounce;
    DownstreamMeter() downstream_meter;
    IngressPortCounters() port_counters;

    apply {
        // Flat, in the style of fabric-tna: each block runs under flags that
        // earlier blocks set, instead of nested ifs and early returns.
        //   done:   the frame's forwarding is decided; no later forwarding block runs
        //   meter:  DownstreamMeter accounts the frame at the end
        //   count:  IngressPortCounters counts the frame at the end
        //   routed: IPv4 to the router MAC that neither the ACL, the TTL nor an
        //           AQ dropped: the routing blocks run
        clock.apply(hdr, meta, standard_metadata);
        // A recirculated utilisation event only updates port_utilizations.
        port_utilization.apply(meta, standard_metadata);
        bool done = standard_metadata.instance_type == PKT_INSTANCE_TYPE_RECIRC;
        bool meter = !done;
        bool count = !done;
        bool first_pass = standard_metadata.instance_type != PKT_INSTANCE_TYPE_RESUBMIT;

        if (!done) {
            // Whatever no block forwards is dropped.
            mark_to_drop(standard_metadata);
            if (hdr.echo.isValid()) {
                standard_metadata.priority = ECHO_PRIORITY;
            }
            failure_detection.apply(hdr, meta, standard_metadata);
        }
        if (!done && hdr.packet_out.isValid()) {
            if (hdr.packet_out.do_forward == 0 && !hdr.port_status.isValid()) {
                // Sent as is: no meter, no pipeline.
                standard_metadata.egress_spec = hdr.packet_out.egress_port;
                done = true;
                meter = false;
            }
            hdr.packet_out.setInvalid();
        }
        // Echo requests are answered by DownstreamMeter; port-status frames
        // are FailureDetection's alone (from a wire port: dropped).
        done = done || hdr.echo.isValid() || hdr.port_status.isValid();

        if (!done) {
            port_kind.apply(meta, standard_metadata);
        }
        if (!done && hdr.fabric.isValid()) {
            meta.ing_aq_id = hdr.fabric.ing_aq_id;
            meta.egr_aq_id = hdr.fabric.egr_aq_id;
            if (first_pass) {
                meta.vdelay_ns = hdr.fabric.vdelay_ns;
                delay_sensing.apply(hdr, meta, standard_metadata);
            }
        }
        if (!done && hdr.arp.isValid()) {
            arp.apply(hdr, meta, standard_metadata);
            done = true;
        }
        bool router_mac = false;
        if (!done && hdr.ipv4.isValid()) {
            my_station.apply(hdr, router_mac);
        }
        // Only IPv4 to the router MAC with a correct header checksum is
        // routed; a corrupted header is dropped (and, for vFab, is a fault).
        done = done || !router_mac || standard_metadata.checksum_error != 0;

        if (!done) {
            hash(meta.flow_hash, HashAlgorithm.crc32, (bit<32>) 0,
                 { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
                   meta.l4_src_port, meta.l4_dst_port },
                 (bit<32>) 0xFFFFFFFF);
            // Salted per switch by its router MAC (what my_station matched): with the 5-tuple
            // alone every tier picked the same member index for a flow, and in a k=4 fat-tree
            // ECMP reached two of the four core switches. A product, not another CRC input:
            // CRCs are linear, so a salt hashed in only flips each choice by a constant.
            meta.flow_hash = meta.flow_hash * ((((bit<32>) hdr.ethernet.dst_addr) << 1) | 1);
            acl.apply(hdr, meta, standard_metadata);
        }
        if (!done && !meta.drop_policy && hdr.ipv4.ttl <= 1) {
            meta.drop_ttl = true;
        }
        bool routed = !done && !meta.drop_policy && !meta.drop_ttl;
        if (routed) {
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        }
        if (routed && first_pass) {
            safe_rate.apply(hdr, meta, standard_metadata);
            if (meta.in_port_kind == PORT_KIND_HOST) {
                aq_classify_outbound.apply(hdr, meta);
            }
            aq_ingress.apply(meta, meta.ing_aq_id, meta.now_ingress,
                             (bit<32>) hdr.ipv4.total_len);
            meta.drop_policy = meta.aq_drop;
        }
        routed = routed && !meta.drop_policy;
        if (routed && meta.aq_mark && hdr.ipv4.ecn != 0) {
            hdr.ipv4.ecn = 3;
        }
        if (routed && meta.in_port_kind == PORT_KIND_HOST && !hdr.vlan.isValid()) {
            path_classifier.apply(hdr, meta, standard_metadata);
        }
        if (routed) {
            downward_routing.apply(hdr, meta, standard_metadata);
        }
        if (routed && !meta.routed && hdr.vlan.isValid()) {
            pinned_path.apply(hdr, meta, standard_metadata);
            // Data pinned to a failed uplink fails over to the routing
            // groups; probes are bounced below.
            if (meta.routed && !hdr.probe.isValid()
                    && port_failed(meta.failed_ports, standard_metadata.egress_spec)) {
                meta.routed = false;
                mark_to_drop(standard_metadata);
            }
        }
        if (routed && !meta.routed) {
            upward_routing.apply(hdr, meta, standard_metadata);
        }
        if (routed && meta.routed && hdr.probe.isValid()
                && port_failed(meta.failed_ports, standard_metadata.egress_spec)) {
            probe_bounce.apply(hdr, meta, standard_metadata);
        }
        if (!done && (meta.drop_ttl || meta.drop_policy)) {
            mark_to_drop(standard_metadata);
        }

        if (meter) {
            downstream_meter.apply(hdr, meta, standard_metadata);
        }
        if (count) {
            port_counters.apply(meta, standard_metadata);
        }
    }
}

control FabricEgress(inout headers_t hdr,
                     inout local_metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    EgressClock() clock;
    PacketInEgress() packet_in;
    EgressPortKind() port_kind;
    AqClassifyInbound() aq_classify_inbound;
    AugmentedQueue() aq_egress;
    EgressSensing() sensing;
    EcnMarking() ecn;
    Fack() fack;
    FackBuild() fack_build;
    EgressRewrite() rewrite;
    UpstreamMeter() upstream_meter;
    EgressPortCounters() port_counters;

    apply {
        clock.apply(meta, standard_metadata);
        bool to_cpu = standard_metadata.egress_port == CPU_PORT;
        if (to_cpu) {
            packet_in.apply(hdr, meta, standard_metadata);
        }
        // Other clones (and recirculated copies) leave as they are; echo
        // frames only pass the upstream meter.
        bool normal = !to_cpu && standard_metadata.instance_type == PKT_INSTANCE_TYPE_NORMAL;
        bool data = normal && !hdr.echo.isValid();
        bool aq = data && meta.routed && hdr.ipv4.isValid();
        // A FACK clone (fack.p4) is rebuilt and rewritten for its port.
        bool fack_clone = standard_metadata.instance_type == PKT_INSTANCE_TYPE_EGRESS_CLONE
                && meta.fack_clone && hdr.tcp.isValid();
        if (data || fack_clone) {
            port_kind.apply(meta, standard_metadata);
        }
        if (aq && meta.out_port_kind == PORT_KIND_HOST) {
            aq_classify_inbound.apply(hdr, meta);
        }
        if (aq) {
            aq_egress.apply(meta, meta.egr_aq_id, meta.now_egress,
                            (bit<32>) hdr.ipv4.total_len);
        }
        bool dropped = aq && meta.aq_drop;
        if (dropped) {
            mark_to_drop(standard_metadata);
        }
        if (data && !dropped) {
            sensing.apply(hdr, meta, standard_metadata);
        }
        if (aq && !dropped) {
            ecn.apply(hdr, meta, standard_metadata);
        }
        if (aq && !dropped && hdr.tcp.isValid()) {
            fack.apply(hdr, meta, standard_metadata);
        }
        if (fack_clone) {
            fack_build.apply(hdr, meta);
        }
        if ((aq && !dropped) || fack_clone) {
            rewrite.apply(hdr, meta, standard_metadata);
        }
        if (normal && !dropped) {
            upstream_meter.apply(hdr, meta, standard_metadata);
        }
        // An event recirculated to the ingress does not leave.
        if (!to_cpu || hdr.packet_in.isValid()) {
            port_counters.apply(standard_metadata);
        }
    }
}

V1Switch(FabricParser(),
         FabricVerifyChecksum(),
         FabricIngress(),
         FabricEgress(),
         FabricComputeChecksum(),
         FabricDeparser()) main;
