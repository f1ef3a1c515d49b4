// P4TE Algorithm 1, egress-stage monitoring (§6.1.1, §6.1.3).
//
// Queue depth: an event when the depth moved by at least Δ from the depth last
// reported for the port (INCREASE if depth >= last + Δ, DECREASE if
// depth <= last - Δ: both boundaries inclusive, see docs/pipeline.md); the
// stored value changes only when an event fires.
// Utilisation: a two-rate three-colour meter per egress port (fixed CIR/PIR);
// a colour different from the port's previous colour is an event.
// Events leave as an E2E clone to the CPU session (utilisation events via a
// recirculation that updates port_utilizations first).
#ifndef __FAIRFABRIC_EGRESS_SENSING__
#define __FAIRFABRIC_EGRESS_SENSING__

control EgressSensing(inout headers_t hdr,
                      inout local_metadata_t meta,
                      in standard_metadata_t standard_metadata) {
    register<bit<32>>(PORT_STATE_SIZE) old_queue_depths;
    register<bit<2>>(PORT_STATE_SIZE) old_packet_colors;
    direct_meter<bit<2>>(MeterType.bytes) link_util_meter;
    bit<32> delta = 0;
    bit<2> new_color = COLOR_GREEN;

    action set_queue_delta(bit<32> queue_delta) {
        delta = queue_delta;
    }

    direct_counter(CounterType.packets_and_bytes) queue_sensing_counter;
    table queue_sensing {
        key = {
            standard_metadata.egress_port: exact;
        }
        actions = {
            set_queue_delta;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = SENSING_TABLE_SIZE;
        counters = queue_sensing_counter;
    }

    action read_link_color() {
        link_util_meter.read(new_color);
    }

    direct_counter(CounterType.packets_and_bytes) link_util_counter;
    table link_util {
        key = {
            standard_metadata.egress_port: exact;
        }
        actions = {
            read_link_color;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        meters = link_util_meter;
        size = SENSING_TABLE_SIZE;
        counters = link_util_counter;
    }

    apply {
        bit<32> index = (bit<32>) standard_metadata.egress_port;
        bit<8> queue_direction = DIR_NONE;
        if (queue_sensing.apply().hit) {
            bit<32> last;
            old_queue_depths.read(last, index);
            if (meta.queue_depth >= last + delta) {
                queue_direction = DIR_INCREASE;
            } else if (meta.queue_depth + delta <= last) {
                queue_direction = DIR_DECREASE;
            }
            if (queue_direction != DIR_NONE) {
                old_queue_depths.write(index, meta.queue_depth);
            }
        }

        bit<8> util_direction = DIR_NONE;
        if (link_util.apply().hit) {
            bit<2> last_color;
            old_packet_colors.read(last_color, index);
            old_packet_colors.write(index, new_color);
            if (last_color < new_color) {
                util_direction = DIR_INCREASE;
            } else if (last_color > new_color) {
                util_direction = DIR_DECREASE;
            }
        }
        meta.link_color = new_color;

        meta.report_in_port = standard_metadata.ingress_port;
        meta.report_reason = REASON_EVENT;
        meta.report_port = standard_metadata.egress_port;
        if (util_direction != DIR_NONE) {
            meta.report_metric = METRIC_LINK_UTIL;
            meta.report_direction = util_direction;
            meta.report_value = (bit<32>) new_color;
            if (queue_direction != DIR_NONE) {
                meta.pending_metric = METRIC_QUEUE_DEPTH;
                meta.pending_direction = queue_direction;
                meta.pending_value = meta.queue_depth;
            }
            clone_preserving_field_list(CloneType.E2E, CPU_CLONE_SESSION_ID, FL_EVENT);
            meta.egress_event = true;
        } else if (queue_direction != DIR_NONE) {
            meta.report_metric = METRIC_QUEUE_DEPTH;
            meta.report_direction = queue_direction;
            meta.report_value = meta.queue_depth;
            clone_preserving_field_list(CloneType.E2E, CPU_CLONE_SESSION_ID, FL_EVENT);
            meta.egress_event = true;
        }
    }
}

#endif
