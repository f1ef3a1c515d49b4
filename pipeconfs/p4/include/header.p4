// Headers and metadata of the fairfabric pipeline.
#ifndef __FAIRFABRIC_HEADER__
#define __FAIRFABRIC_HEADER__

#include "define.p4"

// Controller -> switch. do_forward = 0: send the frame out egress_port as is;
// do_forward = 1: run it through the pipeline as if it arrived on the CPU port.
@controller_header("packet_out")
header packet_out_t {
    port_t  egress_port;
    bit<1>  do_forward;
    bit<6>  _pad;
}

// Switch -> controller: every packet-in carries one event (docs/pipeline.md).
@controller_header("packet_in")
header packet_in_t {
    port_t  ingress_port;
    bit<7>  _pad0;
    bit<8>  reason;
    port_t  event_port;
    bit<7>  _pad1;
    bit<8>  metric;
    bit<8>  direction;
    bit<32> value;
}

#ifdef FAIRFABRIC_TEST_CLOCK
// Test builds only: a prefix on every frame from a port that supplies the
// clock and the queue depth, so STF tests control time exactly.
header test_clock_t {
    timestamp_t ingress_ts;
    timestamp_t egress_ts;
    bit<32>     enq_qdepth;
}
#endif

header ethernet_t {
    mac_t   dst_addr;
    mac_t   src_addr;
    bit<16> ether_type;
}

// 802.1Q tag: VID = pinned path id, PCP 0.
header vlan_t {
    bit<3>    pcp;
    bit<1>    dei;
    path_id_t vid;
    bit<16>   ether_type;
}

// Carried on switch-to-switch links only: P4TE T^Source and the AQ fields.
header fabric_t {
    timestamp_t t_source;    // ingress timestamp at the previous switch (µs)
    aq_id_t     ing_aq_id;   // AQ applied at ingress pipelines (0 = none)
    aq_id_t     egr_aq_id;   // AQ applied at egress pipelines (0 = none)
    bit<32>     vdelay_ns;   // accumulated AQ virtual queuing delay
    bit<16>     ether_type;
}

// vFab echo between neighbours: UM snapshot of the sender, DM of the receiver.
header echo_t {
    bit<8>  echo_type;
    bit<8>  miss_after_10ms;  // request: the controller's miss floor (10 ms units); copied into the reply
    bit<16> sender_port;
    bit<32> um_pass;
    bit<32> um_ttl;
    bit<32> um_acl;
    bit<32> dm_pass;
    bit<32> dm_ttl;
    bit<32> dm_acl;
}

// Carrier change of port packet_out.egress_port, from the switch itself.
header port_status_t {
    bit<8>  state;  // PORT_STATUS_DOWN or PORT_STATUS_UP
}

header arp_t {
    bit<16>     htype;
    bit<16>     ptype;
    bit<8>      hlen;
    bit<8>      plen;
    bit<16>     oper;
    mac_t       sha;
    ipv4_addr_t spa;
    mac_t       tha;
    ipv4_addr_t tpa;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<6>      dscp;
    bit<2>      ecn;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header tcp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<32> seq_no;
    bit<32> ack_no;
    bit<4>  data_offset;
    bit<4>  res;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent_ptr;
}

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> len;
    bit<16> checksum;
}

// vFab path probe (fixed part of vFab App. D), after UDP port PROBE_UDP_PORT.
header probe_t {
    bit<4>  probe_type;
    bit<4>  n_hop;
    bit<16> phi;
    bit<8>  errno;
}

struct headers_t {
    packet_out_t packet_out;
    packet_in_t  packet_in;
#ifdef FAIRFABRIC_TEST_CLOCK
    test_clock_t test_clock;
#endif
    ethernet_t   ethernet;
    vlan_t       vlan;
    fabric_t     fabric;
    echo_t       echo;
    port_status_t port_status;
    arp_t        arp;
    ipv4_t       ipv4;
    tcp_t        tcp;
    udp_t        udp;
    probe_t      probe;
}

// Flat on purpose: field lists annotate top-level fields.
struct local_metadata_t {
    // clock and queue (set from standard_metadata, or from test_clock in tests)
    timestamp_t now_ingress;
    timestamp_t now_egress;
    bit<32>     queue_depth;     // enq_qdepth of the egress queue (packets)

    bit<2>  in_port_kind;
    bit<2>  out_port_kind;
    bit<16> l4_src_port;
    bit<16> l4_dst_port;
    bool    routed;          // an egress port was chosen by the L3 pipeline
    bool    resubmitting;    // this pass ends in a failover resubmission
    bit<32> flow_hash;

    // non-fault drops (vFab DM): ttl, acl, aq policing
    bool    drop_ttl;
    bool    drop_policy;

    // port state read once per packet (bit p / bits 2p+1..2p = port p)
    bit<64>  failed_ports;    // vFab failed[port]
    bit<128> port_colors;     // P4TE port_utilizations[port]
    bool     event_raised;

    // P4TE
    bit<2>  incoming_color;  // per-class safe-rate meter
    port_t  low_delay_port;
    port_t  low_queue_port;
    port_t  low_util_port;
    bool    has_delay_port;
    bool    has_queue_port;
    bool    has_util_port;
    bit<32> flowlet_id;
    @field_list(2)
    bit<8>  failover_tries;

    // Augmented Queue
    aq_id_t ing_aq_id;
    aq_id_t egr_aq_id;
    @field_list(2)
    bit<32> vdelay_ns;
    bool    aq_drop;
    @field_list(2)
    bool    aq_mark;
    bit<2>  link_color;      // this packet's utilisation colour at egress
    bool    egress_event;    // egress sensing cloned an event (one E2E clone per pass)

    // P4TE FACK: what the clone needs (preserved), and "this pass built one"
    @field_list(3)
    bool    fack_clone;
    @field_list(3)
    bit<32> fack_ack_no;
    @field_list(3)
    bit<16> fack_window;
    bool    fack_built;

    // the event a packet-in reports (report_*) and a second pending event
    @field_list(1)
    port_t  report_in_port;
    @field_list(1)
    bit<8>  report_reason;
    @field_list(1)
    port_t  report_port;
    @field_list(1)
    bit<8>  report_metric;
    @field_list(1)
    bit<8>  report_direction;
    @field_list(1)
    bit<32> report_value;
    @field_list(1)
    bit<8>  pending_metric;
    @field_list(1)
    bit<8>  pending_direction;
    @field_list(1)
    bit<32> pending_value;
}

#endif
