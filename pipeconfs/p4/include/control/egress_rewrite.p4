// Per-port egress rewrite for routed packets: MAC addresses of the link (one
// neighbour per port in a fat-tree), and the encapsulation the port expects:
// fabric ports carry the fabric shim (stamped with T^Source and the AQ fields),
// host ports never get the shim, and lose the pinned-path VLAN tag unless
// host_port_keep_tag lists them (their host runs the fairfabric shim, which
// counts bytes per path and strips the tag itself).
#ifndef __FAIRFABRIC_EGRESS_REWRITE__
#define __FAIRFABRIC_EGRESS_REWRITE__

control EgressPortKind(inout local_metadata_t meta,
                       in standard_metadata_t standard_metadata) {
    action set_egress_port_kind(bit<2> kind) {
        meta.out_port_kind = kind;
    }

    direct_counter(CounterType.packets_and_bytes) egress_port_kind_counter;
    table egress_port_kind {
        key = {
            standard_metadata.egress_port: exact;
        }
        actions = {
            set_egress_port_kind;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = PORT_KIND_TABLE_SIZE;
        counters = egress_port_kind_counter;
    }

    apply {
        egress_port_kind.apply();
    }
}

control EgressRewrite(inout headers_t hdr,
                      inout local_metadata_t meta,
                      in standard_metadata_t standard_metadata) {
    action rewrite_macs(mac_t src_mac, mac_t dst_mac) {
        hdr.ethernet.src_addr = src_mac;
        hdr.ethernet.dst_addr = dst_mac;
    }

    direct_counter(CounterType.packets_and_bytes) port_macs_counter;
    table port_macs {
        key = {
            standard_metadata.egress_port: exact;
        }
        actions = {
            rewrite_macs;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = PORT_KIND_TABLE_SIZE;
        counters = port_macs_counter;
    }

    bool keep_tag = false;

    action keep_vlan_tag() {
        keep_tag = true;
    }

    // Host ports whose host counts bytes per pinned path (Promenade Eq. 5):
    // the VLAN tag (VID = path id) is delivered to the host. Default: strip.
    direct_counter(CounterType.packets_and_bytes) host_port_keep_tag_counter;
    table host_port_keep_tag {
        key = {
            standard_metadata.egress_port: exact;
        }
        actions = {
            keep_vlan_tag;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = PORT_KIND_TABLE_SIZE;
        counters = host_port_keep_tag_counter;
    }

    apply {
        port_macs.apply();
        if (meta.out_port_kind == PORT_KIND_FABRIC) {
            if (!hdr.fabric.isValid()) {
                hdr.fabric.setValid();
                hdr.fabric.ether_type = ETHERTYPE_IPV4;
                if (hdr.vlan.isValid()) {
                    hdr.vlan.ether_type = ETHERTYPE_FABRIC;
                } else {
                    hdr.ethernet.ether_type = ETHERTYPE_FABRIC;
                }
            }
            hdr.fabric.t_source = meta.now_ingress;
            hdr.fabric.ing_aq_id = meta.ing_aq_id;
            hdr.fabric.egr_aq_id = meta.egr_aq_id;
            hdr.fabric.vdelay_ns = meta.vdelay_ns;
        } else {
            if (hdr.fabric.isValid()) {
                if (hdr.vlan.isValid()) {
                    hdr.vlan.ether_type = hdr.fabric.ether_type;
                } else {
                    hdr.ethernet.ether_type = hdr.fabric.ether_type;
                }
                hdr.fabric.setInvalid();
            }
            if (hdr.vlan.isValid()) {
                host_port_keep_tag.apply();
                if (!keep_tag) {
                    hdr.ethernet.ether_type = hdr.vlan.ether_type;
                    hdr.vlan.setInvalid();
                }
            }
        }
    }
}

#endif
