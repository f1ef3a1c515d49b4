// Pinned paths: allocator-managed sub-flows carry their path id as the 802.1Q
// VID; each switch maps the id to its uplink (table filled by the controller).
// Only consulted when no downward route matches.
#ifndef __FAIRFABRIC_PINNED_PATH__
#define __FAIRFABRIC_PINNED_PATH__

control PinnedPath(inout headers_t hdr,
                   inout local_metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets_and_bytes) pinned_path_counter;

    action set_pinned_uplink(port_t port) {
        standard_metadata.egress_spec = port;
        meta.routed = true;
        pinned_path_counter.count();
    }

    table pinned_path {
        key = {
            hdr.vlan.vid: exact;
        }
        actions = {
            set_pinned_uplink;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        counters = pinned_path_counter;
        size = PINNED_PATH_TABLE_SIZE;
    }

    apply {
        pinned_path.apply();
    }
}

#endif
