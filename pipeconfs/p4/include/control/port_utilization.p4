// P4TE port_utilizations at ingress (§6.1.3): the latest utilisation colour of
// each egress port, written by recirculated utilisation events and read by
// Algorithm 3. A recirculated event then goes on to the controller.
#ifndef __FAIRFABRIC_PORT_UTILIZATION__
#define __FAIRFABRIC_PORT_UTILIZATION__

control PortUtilization(inout local_metadata_t meta,
                        inout standard_metadata_t standard_metadata) {
    register<bit<128>>(1) port_utilizations;

    apply {
        port_utilizations.read(meta.port_colors, 0);
        if (standard_metadata.instance_type != PKT_INSTANCE_TYPE_RECIRC) {
            return;
        }
        bit<128> colors = with_port_color(meta.port_colors, meta.report_port, (bit<2>) meta.report_value);
        port_utilizations.write(0, colors);
        meta.port_colors = colors;
        standard_metadata.egress_spec = CPU_PORT;
        if (meta.pending_metric != METRIC_NONE) {
            clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, FL_EVENT);
        }
    }
}

#endif
