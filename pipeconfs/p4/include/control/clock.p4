// Where "now" and the queue depth come from: v1model's standard metadata, or,
// in test builds (FAIRFABRIC_TEST_CLOCK), the test_clock prefix of the frame.
#ifndef __FAIRFABRIC_CLOCK__
#define __FAIRFABRIC_CLOCK__

control IngressClock(inout headers_t hdr,
                     inout local_metadata_t meta,
                     in standard_metadata_t standard_metadata) {
    apply {
        meta.now_ingress = standard_metadata.ingress_global_timestamp;
#ifdef FAIRFABRIC_TEST_CLOCK
        if (hdr.test_clock.isValid()) {
            meta.now_ingress = hdr.test_clock.ingress_ts;
            meta.now_egress = hdr.test_clock.egress_ts;
            meta.queue_depth = hdr.test_clock.enq_qdepth;
            hdr.test_clock.setInvalid();
        }
#endif
    }
}

control EgressClock(inout local_metadata_t meta,
                    in standard_metadata_t standard_metadata) {
    apply {
#ifndef FAIRFABRIC_TEST_CLOCK
        meta.now_egress = standard_metadata.egress_global_timestamp;
        meta.queue_depth = (bit<32>) standard_metadata.enq_qdepth;
#endif
    }
}

#endif
