// ECN marking at egress, for ECN-capable (ECT) packets only:
//  - physical queue: enq_qdepth above the port's threshold (DCTCP-style K);
//  - P4TE rate adaptation (§6.4.1): the packet's class is over its safe rate
//    (incoming colour not GREEN) and its egress link is not GREEN. The paper
//    also sends a fake ACK in this case: fack.p4, for the classes it enables;
//  - an ECN-type Augmented Queue above its threshold (ingress or egress).
#ifndef __FAIRFABRIC_ECN__
#define __FAIRFABRIC_ECN__

control EcnMarking(inout headers_t hdr,
                   inout local_metadata_t meta,
                   in standard_metadata_t standard_metadata) {
    bit<32> threshold = 0;
    bool ce = false;

    action set_ecn_threshold(bit<32> queue_threshold) {
        threshold = queue_threshold;
    }

    direct_counter(CounterType.packets_and_bytes) ecn_marking_counter;
    table ecn_marking {
        key = {
            standard_metadata.egress_port: exact;
        }
        actions = {
            set_ecn_threshold;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = ECN_TABLE_SIZE;
        counters = ecn_marking_counter;
    }

    apply {
        if (ecn_marking.apply().hit && meta.queue_depth > threshold) {
            ce = true;
        }
        if (meta.incoming_color != COLOR_GREEN && meta.link_color != COLOR_GREEN) {
            ce = true;
        }
        if (meta.aq_mark) {
            ce = true;
        }
        if (ce && hdr.ipv4.ecn != 0) {
            hdr.ipv4.ecn = 3;
        }
    }
}

#endif
