// Router MAC check and downward routing: hierarchical fat-tree addressing
// makes MAT_down an LPM on the destination (P4TE §6.2.1.1): /32 host routes on
// a leaf, leaf prefixes on a spine, pod prefixes on a core switch.
#ifndef __FAIRFABRIC_DOWNWARD_ROUTING__
#define __FAIRFABRIC_DOWNWARD_ROUTING__

control MyStation(in headers_t hdr, out bool is_router_mac) {
    direct_counter(CounterType.packets_and_bytes) my_station_counter;
    table my_station {
        key = {
            hdr.ethernet.dst_addr: exact;
        }
        actions = {
            NoAction;
        }
        default_action = NoAction();
        size = MY_STATION_TABLE_SIZE;
        counters = my_station_counter;
    }

    apply {
        is_router_mac = my_station.apply().hit;
    }
}

control DownwardRouting(inout headers_t hdr,
                        inout local_metadata_t meta,
                        inout standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets_and_bytes) routing_down_counter;

    action route_down(port_t port) {
        standard_metadata.egress_spec = port;
        meta.routed = true;
        routing_down_counter.count();
    }

    action no_route() {
        routing_down_counter.count();
    }

    table routing_down {
        key = {
            hdr.ipv4.dst_addr: lpm;
        }
        actions = {
            route_down;
            @defaultonly no_route;
        }
        default_action = no_route();
        counters = routing_down_counter;
        size = ROUTING_DOWN_TABLE_SIZE;
    }

    apply {
        routing_down.apply();
    }
}

#endif
