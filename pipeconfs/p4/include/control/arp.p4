// ARP: requests for addresses in arp_table are answered by the switch (proxy
// ARP, typically with the switch's router MAC); all other ARP goes to the
// controller (packet-in reason ARP).
#ifndef __FAIRFABRIC_ARP__
#define __FAIRFABRIC_ARP__

control Arp(inout headers_t hdr,
            inout local_metadata_t meta,
            inout standard_metadata_t standard_metadata) {
    action arp_reply(mac_t target_mac) {
        ipv4_addr_t requester_ip = hdr.arp.spa;
        hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
        hdr.ethernet.src_addr = target_mac;
        hdr.arp.oper = ARP_OPER_REPLY;
        hdr.arp.tha = hdr.arp.sha;
        hdr.arp.sha = target_mac;
        hdr.arp.spa = hdr.arp.tpa;
        hdr.arp.tpa = requester_ip;
        standard_metadata.egress_spec = standard_metadata.ingress_port;
    }

    action arp_to_cpu() {
        standard_metadata.egress_spec = CPU_PORT;
        meta.report_in_port = standard_metadata.ingress_port;
        meta.report_reason = REASON_ARP;
        meta.report_port = standard_metadata.ingress_port;
        meta.report_metric = METRIC_NONE;
        meta.report_direction = DIR_NONE;
        meta.report_value = 0;
    }

    direct_counter(CounterType.packets_and_bytes) arp_table_counter;
    table arp_table {
        key = {
            hdr.arp.tpa: exact;
        }
        actions = {
            arp_reply;
            arp_to_cpu;
        }
        default_action = arp_to_cpu();
        size = ARP_TABLE_SIZE;
        counters = arp_table_counter;
    }

    apply {
        if (hdr.arp.oper == ARP_OPER_REQUEST) {
            arp_table.apply();
        } else {
            arp_to_cpu();
        }
    }
}

#endif
