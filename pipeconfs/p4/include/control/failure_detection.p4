// vFab data-plane failure detection (§2.7 of the digest, vFab §III-E/§IV-B).
//
// Upstream meters (UM, egress of the sending switch) and downstream meters
// (DM, end of ingress of the receiving switch) count passing packets, TTL drops
// and policy (ACL, AQ) drops per port. The controller sends an echo request
// out of port p (packet-out): the egress snapshots and resets UM[p]; the
// neighbour's ingress adds and resets its DM and returns an echo reply; the
// reply's arrival here computes the batch's loss without division:
//   sent = um_pass - um_ttl - um_acl, lost = sent - (dm_pass + dm_ttl + dm_acl)
//   summed, with its sign, over replies until sent >= MIN_BATCH_PACKETS (an echo with no
//   traffic while nothing has accumulated is a good batch, and on a failed
//   port any echo with no traffic is one, dropping what had accumulated), then
//   bad  = lost * 100 > LOSS_PERCENT * sent
// failed[p] is set after FAIL_BATCHES consecutive bad batches and cleared after
// RECOVER_BATCHES good ones; each change is a packet-in (metric LINK_FAILURE).
// A missing reply is 100% loss: an echo request sent while the previous one is
// unanswered counts as a bad batch, but only when the unanswered request is
// older than max(the request's miss_after_10ms floor, ECHO_MISS_RTTS x the
// port's smoothed echo round trip). The round trip is measured from the oldest
// unanswered request to the next reply (srtt = 7/8 srtt + 1/8 sample); after a
// counted miss the measurement restarts at the new request. The reply that
// follows an unanswered request is not judged: if the request was lost, the
// neighbour's DM was not reset and the reply's DM spans two intervals. Without this a
// starved controller or switch that delivers requests in a burst, or answers
// late, would have a healthy link declared failed.
// A port whose carrier goes down (a port-status frame p4switch injects on the
// CPU port, like an ASIC's port-down trigger) fails at once: fail-stop needs no
// echo to be missed. Carrier up changes nothing here: the port recovers after
// RECOVER_BATCHES good echo batches, as after any failure.
#ifndef __FAIRFABRIC_FAILURE_DETECTION__
#define __FAIRFABRIC_FAILURE_DETECTION__

// Ingress, start: failed[] state, echo replies, echo requests from the CPU.
control FailureDetection(inout headers_t hdr,
                         inout local_metadata_t meta,
                         inout standard_metadata_t standard_metadata) {
    register<bit<64>>(1) failed_ports;
    register<bit<8>>(PORT_STATE_SIZE) bad_batches;
    register<bit<8>>(PORT_STATE_SIZE) good_batches;
    register<bit<1>>(PORT_STATE_SIZE) echo_outstanding;
    // 1: a request went out while the previous one was unanswered (see above)
    register<bit<1>>(PORT_STATE_SIZE) echo_unjudged;
    register<timestamp_t>(PORT_STATE_SIZE) echo_sent_at;
    register<bit<32>>(PORT_STATE_SIZE) echo_srtt_us;
    register<bit<32>>(PORT_STATE_SIZE) batch_sent;
    register<bit<32>>(PORT_STATE_SIZE) batch_lost;

    register<bit<8>>(PORT_STATE_SIZE) echo_misses;

    // A judged batch (miss = false) or a missing reply (miss = true). Loss
    // batches and misses are counted apart: any reply ends a run of misses,
    // only a good batch ends a run of bad ones (so that echoes lost on a lossy
    // link do not add up with the replies that are still judging a batch).
    action record_batch(in port_t port, in bool miss, in bool bad, in bit<32> lost) {
        bit<32> index = (bit<32>) port;
        bit<8> bads;
        bit<8> goods;
        bit<8> misses;
        bit<64> failed;
        bad_batches.read(bads, index);
        good_batches.read(goods, index);
        echo_misses.read(misses, index);
        failed_ports.read(failed, 0);
        bit<64> mask = port_failed_mask(port);
        if (miss) {
            if (misses != 0xFF) {
                misses = misses + 1;
            }
            goods = 0;
        } else if (bad) {
            misses = 0;
            if (bads != 0xFF) {
                bads = bads + 1;
            }
            goods = 0;
        } else {
            misses = 0;
            if (goods != 0xFF) {
                goods = goods + 1;
            }
            bads = 0;
        }
        meta.report_direction = DIR_NONE;
        if ((failed & mask) == 0 && (bads >= FAIL_BATCHES || misses >= FAIL_BATCHES)) {
            failed = failed | mask;
            meta.report_direction = DIR_INCREASE;
        } else if ((failed & mask) != 0 && goods >= RECOVER_BATCHES) {
            failed = failed & ~mask;
            meta.report_direction = DIR_DECREASE;
        }
        bad_batches.write(index, bads);
        good_batches.write(index, goods);
        echo_misses.write(index, misses);
        failed_ports.write(0, failed);
        meta.failed_ports = failed;
        meta.event_raised = meta.report_direction != DIR_NONE;
        meta.report_in_port = standard_metadata.ingress_port;
        meta.report_reason = REASON_EVENT;
        meta.report_port = port;
        meta.report_metric = METRIC_LINK_FAILURE;
        meta.report_value = lost;
    }

    // Carrier down on port: failed at once (one LINK_FAILURE event unless it
    // already was), counted as FAIL_BATCHES misses so echoes keep it failed.
    action carrier_down(in port_t port) {
        bit<32> index = (bit<32>) port;
        bit<64> failed;
        failed_ports.read(failed, 0);
        bit<64> mask = port_failed_mask(port);
        meta.event_raised = (failed & mask) == 0 && mask != 0;
        failed = failed | mask;
        failed_ports.write(0, failed);
        meta.failed_ports = failed;
        good_batches.write(index, 0);
        echo_misses.write(index, FAIL_BATCHES);
        batch_sent.write(index, 0);
        batch_lost.write(index, 0);
        meta.report_direction = DIR_INCREASE;
        meta.report_in_port = standard_metadata.ingress_port;
        meta.report_reason = REASON_EVENT;
        meta.report_port = port;
        meta.report_metric = METRIC_LINK_FAILURE;
        meta.report_value = 0xFFFFFFFF;
    }

    apply {
        failed_ports.read(meta.failed_ports, 0);
        if (hdr.port_status.isValid()) {
            meta.event_raised = false;
            if (hdr.packet_out.isValid() && hdr.port_status.state == PORT_STATUS_DOWN) {
                carrier_down(hdr.packet_out.egress_port);
            }
            if (meta.event_raised) {
                standard_metadata.egress_spec = CPU_PORT;
            } else {
                mark_to_drop(standard_metadata);
            }
            return;
        }
        if (!hdr.echo.isValid()) {
            return;
        }
        if (hdr.packet_out.isValid()) {
            // An echo request leaving for its port.
            if (hdr.echo.echo_type == ECHO_REQUEST) {
                bit<32> out_index = (bit<32>) hdr.packet_out.egress_port;
                bit<1> outstanding;
                echo_outstanding.read(outstanding, out_index);
                timestamp_t sent_at;
                echo_sent_at.read(sent_at, out_index);
                bit<32> srtt;
                echo_srtt_us.read(srtt, out_index);
                timestamp_t waited = meta.now_ingress - sent_at;
                if (outstanding == 1) {
                    echo_unjudged.write(out_index, 1);
                }
                timestamp_t floor = ((timestamp_t) hdr.echo.miss_after_10ms) * 10000;
                timestamp_t by_rtt = ((timestamp_t) srtt) * ECHO_MISS_RTTS;
                if (outstanding == 0) {
                    echo_sent_at.write(out_index, meta.now_ingress);
                } else if (waited > floor && waited > by_rtt) {
                    record_batch(hdr.packet_out.egress_port, true, true, 0xFFFFFFFF);
                    if (meta.event_raised) {
                        clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, FL_EVENT);
                    }
                    echo_sent_at.write(out_index, meta.now_ingress);
                }
                echo_outstanding.write(out_index, 1);
            }
        } else if (hdr.echo.echo_type == ECHO_REPLY) {
            port_t port = standard_metadata.ingress_port;
            bit<1> answered;
            echo_outstanding.read(answered, (bit<32>) port);
            if (answered == 1) {
                timestamp_t asked_at;
                echo_sent_at.read(asked_at, (bit<32>) port);
                bit<32> sample = (bit<32>) (meta.now_ingress - asked_at);
                bit<32> smoothed;
                echo_srtt_us.read(smoothed, (bit<32>) port);
                if (smoothed == 0) {
                    smoothed = sample;
                } else {
                    smoothed = smoothed - (smoothed >> 3) + (sample >> 3);
                }
                echo_srtt_us.write((bit<32>) port, smoothed);
            }
            echo_outstanding.write((bit<32>) port, 0);
            bit<1> unjudged;
            echo_unjudged.read(unjudged, (bit<32>) port);
            echo_unjudged.write((bit<32>) port, 0);
            meta.event_raised = false;
            if (unjudged == 1) {
                echo_misses.write((bit<32>) port, 0);
            } else {
                // The loss is accumulated with its sign (two's complement) and
                // clamped only when the batch is judged: a frame that reaches the
                // neighbour after the echo (reordered on the way, e.g. by veth
                // queues on different CPUs) is lost for one reply and found by the
                // next; clamping each reply at zero turned such shifts into loss.
                bit<32> sent = 0;
                if (hdr.echo.um_pass > hdr.echo.um_ttl + hdr.echo.um_acl) {
                    sent = hdr.echo.um_pass - hdr.echo.um_ttl - hdr.echo.um_acl;
                }
                bit<32> arrived = hdr.echo.dm_pass + hdr.echo.dm_ttl + hdr.echo.dm_acl;
                bit<32> acc_sent;
                bit<32> acc_lost;
                batch_sent.read(acc_sent, (bit<32>) port);
                batch_lost.read(acc_lost, (bit<32>) port);
                bool idle = sent == 0 && acc_sent == 0;
                acc_sent = acc_sent + sent;
                acc_lost = acc_lost + sent - arrived;
                bit<32> lost = acc_lost;
                if (acc_lost[31:31] == 1) {
                    lost = 0;
                }
                if ((meta.failed_ports & port_failed_mask(port)) != 0 && sent == 0) {
                    // A failed port whose traffic has moved away: an echo that crossed
                    // with nothing else is a good batch, whatever the open batch held.
                    record_batch(port, false, false, 0);
                    acc_sent = 0;
                    acc_lost = 0;
                } else if (idle || acc_sent >= MIN_BATCH_PACKETS) {
                    record_batch(port, false, lost * 100 > LOSS_PERCENT * acc_sent, lost);
                    acc_sent = 0;
                    acc_lost = 0;
                } else {
                    echo_misses.write((bit<32>) port, 0);
                }
                batch_sent.write((bit<32>) port, acc_sent);
                batch_lost.write((bit<32>) port, acc_lost);
            }
            if (meta.event_raised) {
                standard_metadata.egress_spec = CPU_PORT;
            } else {
                mark_to_drop(standard_metadata);
            }
        }
    }
}

// Ingress, end: echo requests from the neighbour, and DM accounting.
control DownstreamMeter(inout headers_t hdr,
                        inout local_metadata_t meta,
                        inout standard_metadata_t standard_metadata) {
    register<bit<32>>(PORT_STATE_SIZE) dm_pass;
    register<bit<32>>(PORT_STATE_SIZE) dm_ttl;
    register<bit<32>>(PORT_STATE_SIZE) dm_acl;

    apply {
        if (standard_metadata.ingress_port == CPU_PORT || meta.resubmitting) {
            return;
        }
        bit<32> index = (bit<32>) standard_metadata.ingress_port;
        if (hdr.echo.isValid()) {
            if (hdr.echo.echo_type == ECHO_REQUEST) {
                dm_pass.read(hdr.echo.dm_pass, index);
                dm_ttl.read(hdr.echo.dm_ttl, index);
                dm_acl.read(hdr.echo.dm_acl, index);
                dm_pass.write(index, 0);
                dm_ttl.write(index, 0);
                dm_acl.write(index, 0);
                hdr.echo.echo_type = ECHO_REPLY;
                mac_t requester = hdr.ethernet.src_addr;
                hdr.ethernet.src_addr = hdr.ethernet.dst_addr;
                hdr.ethernet.dst_addr = requester;
                standard_metadata.egress_spec = standard_metadata.ingress_port;
            }
            return;
        }
        bit<32> count;
        if (meta.drop_ttl) {
            dm_ttl.read(count, index);
            dm_ttl.write(index, count + 1);
        } else if (meta.drop_policy) {
            dm_acl.read(count, index);
            dm_acl.write(index, count + 1);
        } else if (standard_metadata.egress_spec != DROP_PORT) {
            dm_pass.read(count, index);
            dm_pass.write(index, count + 1);
        }
    }
}

// Egress: UM accounting and the UM snapshot into echo requests. Runs after
// the egress AQ, so AQ policing drops never count as sent.
control UpstreamMeter(inout headers_t hdr,
                      inout local_metadata_t meta,
                      in standard_metadata_t standard_metadata) {
    register<bit<32>>(PORT_STATE_SIZE) um_pass;
    register<bit<32>>(PORT_STATE_SIZE) um_ttl;
    register<bit<32>>(PORT_STATE_SIZE) um_acl;

    apply {
        bit<32> index = (bit<32>) standard_metadata.egress_port;
        if (hdr.echo.isValid()) {
            if (hdr.echo.echo_type == ECHO_REQUEST) {
                um_pass.read(hdr.echo.um_pass, index);
                um_ttl.read(hdr.echo.um_ttl, index);
                um_acl.read(hdr.echo.um_acl, index);
                um_pass.write(index, 0);
                um_ttl.write(index, 0);
                um_acl.write(index, 0);
            }
        } else if (!meta.aq_drop) {
            bit<32> count;
            um_pass.read(count, index);
            um_pass.write(index, count + 1);
        }
    }
}

#endif
