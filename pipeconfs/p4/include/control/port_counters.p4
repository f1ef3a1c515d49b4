// Per-port counters for the controller's port-stats poller (contract C1). The
// poller finds them by the last component of their P4Info names, so the names
// below are fixed; indices are port numbers.
//
//   port_rx_counter   ingress_port  every frame received (not resubmitted or
//                                   recirculated copies), packet-outs on CPU_PORT
//   port_drop_counter ingress_port  frames the ingress pipeline drops
//   port_tx_counter   egress_port   every frame that leaves, after all drop decisions
//   port_qdepth       egress_port   deq_qdepth of the last frame dequeued (packets)
//
// Frames the egress pipeline drops (egress Augmented Queue) are counted per AQ
// in aq_dropped, not here: an extern lives in one control, and a frame dropped
// in egress already left the ingress. Tail drops of the traffic manager never
// reach P4 at all; see docs/p4switch.md for how p4switch reports them.
#ifndef __FAIRFABRIC_PORT_COUNTERS__
#define __FAIRFABRIC_PORT_COUNTERS__

// Applied once per frame, at the end of every path through FabricIngress.
control IngressPortCounters(in local_metadata_t meta,
                            in standard_metadata_t standard_metadata) {
    counter(PORT_STATE_SIZE, CounterType.packets_and_bytes) port_rx_counter;
    counter(PORT_STATE_SIZE, CounterType.packets) port_drop_counter;

    apply {
        bit<32> port = (bit<32>) standard_metadata.ingress_port;
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_NORMAL) {
            port_rx_counter.count(port);
        }
        // A pass that ends in a resubmission is not a drop (BMv2 resubmits
        // before it looks at egress_spec).
        if (standard_metadata.egress_spec == DROP_PORT && !meta.resubmitting) {
            port_drop_counter.count(port);
        }
    }
}

// port_qdepth is written for every frame dequeued; port_tx_counter counts the
// frames that leave, so FabricEgress applies it only where a frame is sent.
control EgressPortCounters(in standard_metadata_t standard_metadata) {
    counter(PORT_STATE_SIZE, CounterType.packets_and_bytes) port_tx_counter;
    register<bit<32>>(PORT_STATE_SIZE) port_qdepth;

    apply {
        bit<32> port = (bit<32>) standard_metadata.egress_port;
        port_qdepth.write(port, (bit<32>) standard_metadata.deq_qdepth);
        if (standard_metadata.egress_spec != DROP_PORT) {
            port_tx_counter.count(port);
        }
    }
}

#endif
