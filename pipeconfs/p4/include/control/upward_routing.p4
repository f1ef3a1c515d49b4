// P4TE upward routing (§6.2.1.2, Algorithm 3) with vFab local fast failover.
//
// Three upward tables (MAT_Up^Delay, MAT_Up^Queue_Depth, MAT_Up^Link_Util)
// each hold one ternary entry per non-empty routing group, matching the DCN
// prefix, with the group's priority; each entry points to an action-selector
// group of uplinks. The controller deletes the entry of a group that becomes
// empty, so the lookup falls through to the next group by priority (the
// empty-group skip). All uplinks in one group is ECMP.
#ifndef __FAIRFABRIC_UPWARD_ROUTING__
#define __FAIRFABRIC_UPWARD_ROUTING__

control UpwardRouting(inout headers_t hdr,
                      inout local_metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    // Flowlet state: last packet time and the port used (bit 15 = valid).
    register<timestamp_t>(FLOWLET_TABLE_SIZE) flowlet_last_seen;
    register<bit<16>>(FLOWLET_TABLE_SIZE) flowlet_port;
    // Packets dropped because every candidate uplink had failed.
    counter(1, CounterType.packets) failover_drops;

    action_selector(HashAlgorithm.crc16, UPWARD_SELECTOR_SIZE, UPWARD_SELECTOR_WIDTH) up_delay_selector;
    action_selector(HashAlgorithm.crc16, UPWARD_SELECTOR_SIZE, UPWARD_SELECTOR_WIDTH) up_queue_selector;
    action_selector(HashAlgorithm.crc16, UPWARD_SELECTOR_SIZE, UPWARD_SELECTOR_WIDTH) up_util_selector;

    action set_low_delay_port(port_t port) {
        meta.low_delay_port = port;
        meta.has_delay_port = true;
    }

    action set_low_queue_port(port_t port) {
        meta.low_queue_port = port;
        meta.has_queue_port = true;
    }

    action set_low_util_port(port_t port) {
        meta.low_util_port = port;
        meta.has_util_port = true;
    }

    direct_counter(CounterType.packets_and_bytes) up_delay_counter;
    table up_delay {
        key = {
            hdr.ipv4.dst_addr: ternary;
            meta.flow_hash: selector;
            meta.failover_tries: selector;
        }
        actions = {
            set_low_delay_port;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        implementation = up_delay_selector;
        size = UPWARD_TABLE_SIZE;
        counters = up_delay_counter;
    }

    direct_counter(CounterType.packets_and_bytes) up_queue_counter;
    table up_queue {
        key = {
            hdr.ipv4.dst_addr: ternary;
            meta.flow_hash: selector;
            meta.failover_tries: selector;
        }
        actions = {
            set_low_queue_port;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        implementation = up_queue_selector;
        size = UPWARD_TABLE_SIZE;
        counters = up_queue_counter;
    }

    direct_counter(CounterType.packets_and_bytes) up_util_counter;
    table up_util {
        key = {
            hdr.ipv4.dst_addr: ternary;
            meta.flow_hash: selector;
            meta.failover_tries: selector;
        }
        actions = {
            set_low_util_port;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        implementation = up_util_selector;
        size = UPWARD_TABLE_SIZE;
        counters = up_util_counter;
    }

    apply {
        up_delay.apply();
        up_queue.apply();
        up_util.apply();

        // A metric table without entries borrows another table's choice.
        if (!meta.has_queue_port) {
            if (meta.has_util_port) {
                meta.low_queue_port = meta.low_util_port;
                meta.has_queue_port = true;
            } else if (meta.has_delay_port) {
                meta.low_queue_port = meta.low_delay_port;
                meta.has_queue_port = true;
            }
        }
        if (!meta.has_queue_port) {
            return;  // no upward route: the packet stays dropped
        }
        if (!meta.has_util_port) {
            meta.low_util_port = meta.low_queue_port;
        }
        if (!meta.has_delay_port) {
            meta.low_delay_port = meta.low_queue_port;
        }

        bool low_delay_class = hdr.ipv4.dscp == DSCP_LOW_DELAY;
        bool throughput_class = hdr.ipv4.dscp == DSCP_HIGH_THROUGHPUT;
        bit<32> flowlet_index = meta.flow_hash & (FLOWLET_TABLE_SIZE - 1);
        port_t chosen = meta.low_queue_port;

        if (low_delay_class || throughput_class) {
            timestamp_t last_seen;
            bit<16> last_word;
            flowlet_last_seen.read(last_seen, flowlet_index);
            flowlet_port.read(last_word, flowlet_index);
            flowlet_last_seen.write(flowlet_index, meta.now_ingress);
            port_t last_port = last_word[8:0];
            bool last_failed = port_failed(meta.failed_ports, last_port);
            bool new_flowlet = last_word[15:15] == 0
                || (meta.now_ingress - last_seen) > FLOWLET_GAP_US
                || last_failed;
            if (new_flowlet) {
                if (low_delay_class) {
                    bit<2> status = port_color(meta.port_colors, meta.low_delay_port);
                    if (status == COLOR_GREEN) {
                        chosen = meta.low_delay_port;
                    } else if (status == COLOR_YELLOW) {
                        chosen = meta.low_queue_port;
                    } else {
                        chosen = meta.low_util_port;
                    }
                } else {
                    bit<2> status = port_color(meta.port_colors, meta.low_util_port);
                    if (status == COLOR_GREEN) {
                        chosen = meta.low_util_port;
                    } else if (status == COLOR_YELLOW) {
                        chosen = meta.low_queue_port;
                    } else {
                        chosen = meta.low_delay_port;
                    }
                }
                flowlet_port.write(flowlet_index, 0x8000 | (bit<16>) chosen);
            } else {
                chosen = last_port;
            }
        }

        // Local fast failover: skip failed uplinks among the candidates; if
        // all failed, resubmit with another hash salt a few times, then drop.
        if (port_failed(meta.failed_ports, chosen)) {
            if (!port_failed(meta.failed_ports, meta.low_queue_port)) {
                chosen = meta.low_queue_port;
            } else if (!port_failed(meta.failed_ports, meta.low_util_port)) {
                chosen = meta.low_util_port;
            } else if (!port_failed(meta.failed_ports, meta.low_delay_port)) {
                chosen = meta.low_delay_port;
            } else {
                if (meta.failover_tries < MAX_FAILOVER_TRIES) {
                    meta.failover_tries = meta.failover_tries + 1;
                    meta.resubmitting = true;
                    resubmit_preserving_field_list(FL_RESUBMIT);
                } else {
                    failover_drops.count(0);
                }
                return;
            }
            if (low_delay_class || throughput_class) {
                flowlet_port.write(flowlet_index, 0x8000 | (bit<16>) chosen);
            }
        }

        standard_metadata.egress_spec = chosen;
        meta.routed = true;
    }
}

#endif
