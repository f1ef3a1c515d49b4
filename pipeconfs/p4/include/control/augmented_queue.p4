// Augmented Queues (AQ paper §3.6-3.7, Algorithms 1-2; digest §6.2).
//
// One instance runs in ingress (key: the ingress AQ id) and one in egress
// (key: the egress AQ id). Configuration is action data of aq_table, state is
// in registers indexed by the entry's slot, and the whole read-update-decide-
// write sequence is one action:
//   gap = max(0, gap - Δt * rate) + packet_size   (Algorithm 1)
//   gap > limit: gap -= packet_size, drop         (Algorithm 2, strict >)
//   else ECN type and gap > ecn_threshold: mark CE
//   else DELAY type: vdelay += gap / rate
// rate_fp is bytes/µs * 2^16, inv_rate_fp is (1000 / bytes-per-µs) * 2^16, so
// the virtual delay is in ns without a division. packet_size is the IPv4 total length.
#ifndef __FAIRFABRIC_AUGMENTED_QUEUE__
#define __FAIRFABRIC_AUGMENTED_QUEUE__

control AugmentedQueue(inout local_metadata_t meta,
                       in aq_id_t aq_id,
                       in timestamp_t now,
                       in bit<32> packet_size) {
    register<bit<32>>(AQ_STATE_SIZE) aq_gap;
    register<timestamp_t>(AQ_STATE_SIZE) aq_last_time;
    counter(AQ_STATE_SIZE, CounterType.packets_and_bytes) aq_admitted;
    counter(AQ_STATE_SIZE, CounterType.packets) aq_dropped;
    counter(AQ_STATE_SIZE, CounterType.packets) aq_marked;
    bit<32> slot = 0;

    action aq_update(bit<32> index, bit<32> rate_fp, bit<32> limit, bit<8> cc_type,
                     bit<32> ecn_threshold, bit<32> inv_rate_fp) {
        slot = index;
        bit<32> gap;
        timestamp_t last_time;
        aq_gap.read(gap, index);
        aq_last_time.read(last_time, index);
        timestamp_t elapsed = now - last_time;
        if (elapsed > 0xFFFFFF) {
            elapsed = 0xFFFFFF;  // bounds the product below; drains any gap
        }
        bit<64> drain = (((bit<64>) elapsed) * ((bit<64>) rate_fp)) >> 16;
        bit<64> new_gap = 0;
        if ((bit<64>) gap > drain) {
            new_gap = (bit<64>) gap - drain;
        }
        new_gap = new_gap + (bit<64>) packet_size;
        meta.aq_drop = false;
        meta.aq_mark = false;
        if (new_gap > (bit<64>) limit) {
            new_gap = new_gap - (bit<64>) packet_size;
            meta.aq_drop = true;
        } else if (cc_type == AQ_CC_ECN) {
            meta.aq_mark = new_gap > (bit<64>) ecn_threshold;
        } else if (cc_type == AQ_CC_DELAY) {
            bit<64> vdelay = (new_gap * (bit<64>) inv_rate_fp) >> 16;
            meta.vdelay_ns = meta.vdelay_ns + (bit<32>) vdelay;
        }
        aq_gap.write(index, (bit<32>) new_gap);
        aq_last_time.write(index, now);
    }

    direct_counter(CounterType.packets_and_bytes) aq_table_counter;
    table aq_table {
        key = {
            aq_id: exact @name("aq_id");
        }
        actions = {
            aq_update;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = AQ_TABLE_SIZE;
        counters = aq_table_counter;
    }

    apply {
        meta.aq_drop = false;
        meta.aq_mark = false;
        if (aq_id == 0) {
            return;
        }
        if (aq_table.apply().hit) {
            if (meta.aq_drop) {
                aq_dropped.count(slot);
            } else {
                aq_admitted.count(slot);
                if (meta.aq_mark) {
                    aq_marked.count(slot);
                }
            }
        }
    }
}

// Edge classifiers: tenant outbound AQs at the first hop's ingress (by source),
// inbound AQs at the host-facing egress (by destination).
control AqClassifyOutbound(in headers_t hdr, inout local_metadata_t meta) {
    action set_aq_ids(aq_id_t ing_aq_id, aq_id_t egr_aq_id) {
        meta.ing_aq_id = ing_aq_id;
        meta.egr_aq_id = egr_aq_id;
    }

    direct_counter(CounterType.packets_and_bytes) aq_classify_outbound_counter;
    table aq_classify_outbound {
        key = {
            hdr.ipv4.src_addr: exact;
        }
        actions = {
            set_aq_ids;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = AQ_CLASSIFIER_TABLE_SIZE;
        counters = aq_classify_outbound_counter;
    }

    apply {
        aq_classify_outbound.apply();
    }
}

control AqClassifyInbound(in headers_t hdr, inout local_metadata_t meta) {
    action set_egress_aq(aq_id_t egr_aq_id) {
        meta.egr_aq_id = egr_aq_id;
    }

    direct_counter(CounterType.packets_and_bytes) aq_classify_inbound_counter;
    table aq_classify_inbound {
        key = {
            hdr.ipv4.dst_addr: exact;
        }
        actions = {
            set_egress_aq;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = AQ_CLASSIFIER_TABLE_SIZE;
        counters = aq_classify_inbound_counter;
    }

    apply {
        aq_classify_inbound.apply();
    }
}

#endif
