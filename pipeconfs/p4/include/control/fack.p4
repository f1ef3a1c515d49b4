// P4TE rate adaptation with fake TCP ACKs (FACKs, §6.4), at the sender's leaf.
//
// Fack runs at egress on normal TCP packets:
//  - a real ACK leaving toward a host is remembered per flow (its ACK number
//    and window field), under the hash of the data direction's flow;
//  - a data segment that came from a host, of a class fack_classes enables,
//    is judged by the paper's decision table:
//      incoming colour GREEN                      -> nothing
//      incoming not GREEN, link colour not GREEN  -> FACK, window w - w/4
//      incoming not GREEN, link colour GREEN      -> FACK, window w + w/256
//    (the CE mark of the first case is EcnMarking's). A FACK is sent only when
//    a real ACK of the flow was seen, at most once per min_bytes of sequence
//    space, and not when egress sensing already cloned an event this pass.
// The FACK is an E2E clone (session FACK_CLONE_SESSION_BASE + ingress port)
// that FackBuild turns into a pure ACK: see docs/pipeline.md, "P4TE FACK".
#ifndef __FAIRFABRIC_FACK__
#define __FAIRFABRIC_FACK__

control Fack(inout headers_t hdr,
             inout local_metadata_t meta,
             in standard_metadata_t standard_metadata) {
    register<bit<32>>(FACK_FLOW_SLOTS) fack_real_ack;    // last real ACK number toward the sender
    register<bit<16>>(FACK_FLOW_SLOTS) fack_real_window; // its window field (0 = none seen)
    register<bit<32>>(FACK_FLOW_SLOTS) fack_last_seq;    // data seq of the last FACK (0 = none)
    // FACKs sent, per port they leave by (the sender's host port): read by the
    // controller's port-stats poller, the monitor's view of FACK activity
    counter(PORT_STATE_SIZE, CounterType.packets) fack_decrease_counter;
    counter(PORT_STATE_SIZE, CounterType.packets) fack_increase_counter;
    bit<32> min_bytes = 0;

    action enable_fack(bit<32> min_bytes_between) {
        min_bytes = min_bytes_between;
    }

    direct_counter(CounterType.packets_and_bytes) fack_classes_counter;
    table fack_classes {
        key = {
            hdr.ipv4.dscp: exact;
        }
        actions = {
            enable_fack;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = FACK_CLASS_TABLE_SIZE;
        counters = fack_classes_counter;
    }

    apply {
        bit<32> slot;
        if (meta.out_port_kind == PORT_KIND_HOST && (hdr.tcp.flags & TCP_FLAG_ACK) != 0) {
            // Toward the data sender: the data direction is the reverse one.
            hash(slot, HashAlgorithm.crc32, (bit<32>) 0,
                 { hdr.ipv4.dst_addr, hdr.ipv4.src_addr, hdr.tcp.dst_port, hdr.tcp.src_port },
                 (bit<32>) FACK_FLOW_SLOTS);
            fack_real_ack.write(slot, hdr.tcp.ack_no);
            fack_real_window.write(slot, hdr.tcp.window);
        }

        bit<16> header_bytes = (((bit<16>) hdr.ipv4.ihl) << 2) + (((bit<16>) hdr.tcp.data_offset) << 2);
        bool segment = meta.in_port_kind == PORT_KIND_HOST
                && meta.incoming_color != COLOR_GREEN
                && !meta.egress_event
                && (hdr.tcp.flags & TCP_FLAGS_SYN_FIN_RST) == 0
                && hdr.ipv4.total_len > header_bytes;
        if (!segment) {
            return;
        }
        if (!fack_classes.apply().hit) {
            return;
        }
        hash(slot, HashAlgorithm.crc32, (bit<32>) 0,
             { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.tcp.src_port, hdr.tcp.dst_port },
             (bit<32>) FACK_FLOW_SLOTS);
        bit<16> window;
        fack_real_window.read(window, slot);
        bit<32> last_seq;
        fack_last_seq.read(last_seq, slot);
        if (window == 0 || (last_seq != 0 && hdr.tcp.seq_no - last_seq < min_bytes)) {
            return;
        }
        fack_last_seq.write(slot, hdr.tcp.seq_no);
        fack_real_ack.read(meta.fack_ack_no, slot);
        bit<32> sender_port = (bit<32>) standard_metadata.ingress_port;
        if (meta.link_color != COLOR_GREEN) {
            meta.fack_window = window - (window >> 2);
            fack_decrease_counter.count(sender_port);
        } else {
            fack_increase_counter.count(sender_port);
            bit<17> wider = (bit<17>) window + (bit<17>) (window >> 8);
            meta.fack_window = wider[15:0];
            if (wider[16:16] == 1) {
                meta.fack_window = 0xFFFF;
            }
        }
        meta.fack_clone = true;
        clone_preserving_field_list(CloneType.E2E,
            FACK_CLONE_SESSION_BASE + (bit<32>) standard_metadata.ingress_port, FL_FACK);
    }
}

// The FACK clone's egress pass: the data segment becomes a pure ACK from its
// receiver to its sender (untagged, no shim, no options, no payload); the
// checksums are FabricComputeChecksum's, the MACs EgressRewrite's.
control FackBuild(inout headers_t hdr,
                  inout local_metadata_t meta) {
    apply {
        hdr.ethernet.ether_type = ETHERTYPE_IPV4;
        hdr.vlan.setInvalid();
        hdr.fabric.setInvalid();

        ipv4_addr_t receiver = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = receiver;
        hdr.ipv4.ihl = 5;
        hdr.ipv4.ecn = 0;
        hdr.ipv4.total_len = 40;
        hdr.ipv4.identification = 0;
        hdr.ipv4.frag_offset = 0;
        hdr.ipv4.ttl = 64;

        bit<16> receiver_port = hdr.tcp.dst_port;
        hdr.tcp.dst_port = hdr.tcp.src_port;
        hdr.tcp.src_port = receiver_port;
        hdr.tcp.seq_no = hdr.tcp.ack_no;
        hdr.tcp.ack_no = meta.fack_ack_no;
        hdr.tcp.data_offset = 5;
        hdr.tcp.res = 0;
        hdr.tcp.flags = TCP_FLAG_ACK;
        hdr.tcp.window = meta.fack_window;
        hdr.tcp.urgent_ptr = 0;
        meta.fack_built = true;
        truncate(FACK_FRAME_BYTES);
    }
}

#endif
