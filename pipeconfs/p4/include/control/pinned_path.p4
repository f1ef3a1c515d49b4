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

#ifndef __FAIRFABRIC_PATH_CLASSIFIER__
#define __FAIRFABRIC_PATH_CLASSIFIER__

// First-hop path classifier: untagged IPv4 from a host port that matches an
// entry (5-tuple, ternary, by priority) gets the 802.1Q tag of its path, as if
// the host shim had tagged it; from then on it is a pinned sub-flow.
control PathClassifier(inout headers_t hdr,
                       inout local_metadata_t meta,
                       in standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets_and_bytes) path_classifier_counter;

    action assign_path(path_id_t path_id) {
        hdr.vlan.setValid();
        hdr.vlan.pcp = 0;
        hdr.vlan.dei = 0;
        hdr.vlan.vid = path_id;
        hdr.vlan.ether_type = hdr.ethernet.ether_type;
        hdr.ethernet.ether_type = ETHERTYPE_VLAN;
        path_classifier_counter.count();
    }

    action unpinned() {
        path_classifier_counter.count();
    }

    table path_classifier {
        key = {
            hdr.ipv4.src_addr: ternary;
            hdr.ipv4.dst_addr: ternary;
            hdr.ipv4.protocol: ternary;
            meta.l4_src_port: ternary;
            meta.l4_dst_port: ternary;
        }
        actions = {
            assign_path;
            unpinned;
        }
        default_action = unpinned();
        counters = path_classifier_counter;
        size = PATH_CLASSIFIER_TABLE_SIZE;
    }

    apply {
        path_classifier.apply();
    }
}

#endif
