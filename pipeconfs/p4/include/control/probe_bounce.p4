// vFab probe bounce: a path probe whose next hop is a failed port goes back
// toward its sender as a failure response (type 4, errno LINK_FAILED), routed
// by IP from the neighbour it came from (so the pinned-path tag is removed),
// and the controller gets a copy (packet-in reason BOUNCE).
#ifndef __FAIRFABRIC_PROBE_BOUNCE__
#define __FAIRFABRIC_PROBE_BOUNCE__

control ProbeBounce(inout headers_t hdr,
                    inout local_metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    counter(1, CounterType.packets) probes_bounced;

    apply {
        port_t failed_port = standard_metadata.egress_spec;
        hdr.probe.probe_type = PROBE_TYPE_FAILURE;
        hdr.probe.errno = PROBE_ERRNO_LINK_FAILED;
        ipv4_addr_t sender = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = sender;
        bit<16> sender_port = hdr.udp.src_port;
        hdr.udp.src_port = hdr.udp.dst_port;
        hdr.udp.dst_port = sender_port;
        hdr.udp.checksum = 0;  // IPv4 allows "no checksum"; the probe changed
        if (hdr.vlan.isValid()) {
            hdr.ethernet.ether_type = hdr.vlan.ether_type;
            hdr.vlan.setInvalid();
        }
        standard_metadata.egress_spec = standard_metadata.ingress_port;
        meta.routed = true;
        probes_bounced.count(0);

        meta.report_in_port = standard_metadata.ingress_port;
        meta.report_reason = REASON_BOUNCE;
        meta.report_port = failed_port;
        meta.report_metric = METRIC_LINK_FAILURE;
        meta.report_direction = DIR_INCREASE;
        meta.report_value = (bit<32>) PROBE_ERRNO_LINK_FAILED;
        clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, FL_EVENT);
    }
}

#endif
