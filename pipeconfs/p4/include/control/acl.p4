// A small 5-tuple ACL. Its drops are non-fault drops for vFab's failure
// detection (counted in dm_acl).
#ifndef __FAIRFABRIC_ACL__
#define __FAIRFABRIC_ACL__

control Acl(inout headers_t hdr,
            inout local_metadata_t meta,
            inout standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets_and_bytes) acl_counter;

    action acl_drop() {
        mark_to_drop(standard_metadata);
        meta.drop_policy = true;
        acl_counter.count();
    }

    action acl_permit() {
        acl_counter.count();
    }

    table acl {
        key = {
            standard_metadata.ingress_port: ternary;
            hdr.ipv4.src_addr: ternary;
            hdr.ipv4.dst_addr: ternary;
            hdr.ipv4.protocol: ternary;
            meta.l4_src_port: ternary;
            meta.l4_dst_port: ternary;
        }
        actions = {
            acl_drop;
            acl_permit;
        }
        default_action = acl_permit();
        counters = acl_counter;
        size = ACL_TABLE_SIZE;
    }

    apply {
        acl.apply();
    }
}

#endif
