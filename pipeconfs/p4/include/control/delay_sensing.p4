// P4TE hop-to-hop delay gradient (the missing Algorithm 2, lines 1-10,
// reconstructed): d = now - T^Source of the previous switch, compared with the
// last reported delay of this ingress port using Algorithm 1's rule. An event
// goes to this switch's controller (I2E clone, metric DELAY, event port = the
// ingress port); the controller maps it to the neighbour's egress port.
#ifndef __FAIRFABRIC_DELAY_SENSING__
#define __FAIRFABRIC_DELAY_SENSING__

control DelaySensing(inout headers_t hdr,
                     inout local_metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    register<bit<32>>(PORT_STATE_SIZE) old_delays;
    bit<32> delta = 0;

    action set_delay_delta(bit<32> delay_delta) {
        delta = delay_delta;
    }

    direct_counter(CounterType.packets_and_bytes) delay_sensing_counter;
    table delay_sensing {
        key = {
            standard_metadata.ingress_port: exact;
        }
        actions = {
            set_delay_delta;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = SENSING_TABLE_SIZE;
        counters = delay_sensing_counter;
    }

    apply {
        if (!delay_sensing.apply().hit) {
            return;
        }
        bit<32> index = (bit<32>) standard_metadata.ingress_port;
        bit<32> delay = (bit<32>) (meta.now_ingress - hdr.fabric.t_source);
        bit<32> last;
        old_delays.read(last, index);
        bit<8> direction = DIR_NONE;
        if (delay >= last + delta) {
            direction = DIR_INCREASE;
        } else if (delay + delta <= last) {
            direction = DIR_DECREASE;
        }
        if (direction != DIR_NONE) {
            old_delays.write(index, delay);
            meta.report_in_port = standard_metadata.ingress_port;
            meta.report_reason = REASON_EVENT;
            meta.report_port = standard_metadata.ingress_port;
            meta.report_metric = METRIC_DELAY;
            meta.report_direction = direction;
            meta.report_value = delay;
            clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, FL_EVENT);
        }
    }
}

#endif
