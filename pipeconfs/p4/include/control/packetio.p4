// Packet I/O with the controller.
//
// Every packet-in carries exactly one event (reason, port, metric, direction,
// value). Events reach the CPU port in three ways:
//  - punts: the ingress sets report_* and egress_spec = CPU_PORT;
//  - ingress events (hop delay, probe bounce): an I2E clone to CPU_CLONE_SESSION_ID;
//  - egress events (queue depth, utilisation): an E2E clone to the same session.
//    A utilisation event must also update port_utilizations at ingress, so its
//    clone is recirculated first (see EventRecirculation); if a queue-depth
//    event happened on the same packet it rides along as the pending event and
//    leaves as a second packet-in (an I2E clone of the recirculated copy).
#ifndef __FAIRFABRIC_PACKETIO__
#define __FAIRFABRIC_PACKETIO__

control PacketInEgress(inout headers_t hdr,
                       inout local_metadata_t meta,
                       inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_EGRESS_CLONE
                && meta.report_metric == METRIC_LINK_UTIL) {
            // Back to ingress, where port_utilizations lives.
            recirculate_preserving_field_list(FL_EVENT);
            return;
        }
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = meta.report_in_port;
        hdr.packet_in._pad0 = 0;
        hdr.packet_in.reason = meta.report_reason;
        hdr.packet_in.event_port = meta.report_port;
        hdr.packet_in._pad1 = 0;
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE
                && meta.pending_metric != METRIC_NONE) {
            hdr.packet_in.metric = meta.pending_metric;
            hdr.packet_in.direction = meta.pending_direction;
            hdr.packet_in.value = meta.pending_value;
        } else {
            hdr.packet_in.metric = meta.report_metric;
            hdr.packet_in.direction = meta.report_direction;
            hdr.packet_in.value = meta.report_value;
        }
    }
}

#endif
