// The role of each port (host-facing or fabric-facing) comes from table
// entries; a switch's role (leaf, spine, core) follows from its port kinds
// and routes.
#ifndef __FAIRFABRIC_PORT_KIND__
#define __FAIRFABRIC_PORT_KIND__

control IngressPortKind(inout local_metadata_t meta,
                        in standard_metadata_t standard_metadata) {
    action set_ingress_port_kind(bit<2> kind) {
        meta.in_port_kind = kind;
    }

    direct_counter(CounterType.packets_and_bytes) ingress_port_kind_counter;
    table ingress_port_kind {
        key = {
            standard_metadata.ingress_port: exact;
        }
        actions = {
            set_ingress_port_kind;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = PORT_KIND_TABLE_SIZE;
        counters = ingress_port_kind_counter;
    }

    apply {
        ingress_port_kind.apply();
    }
}

#endif
