"""zOVN's Partition-Aggregate incast (1 aggregator, 5 workers behind one switch):
lossy mode drops at host points, lossless mode drops nowhere; mean query
completion time per response size for both modes is printed."""

import time

import pytest

import shimnet
from fairfabric_mn import partition_aggregate, shim

WORKER_MBPS = 100  # each worker's session to the aggregator
SIZES = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
POINTS = ("socket_send", "qdisc", "veth", "socket_recv")


def run_mode(mode, extra=(), budget="300ms"):
    net = shimnet.start(shimnet.Star(n=6))
    shims = shim.ShimSet(net, topic_suffix=shim.unique_suffix(), period="500ms", mode=mode, extra=extra)
    try:
        agg = net.get(shimnet.h(1))
        workers = [net.get(shimnet.h(i)) for i in range(2, 7)]
        procs = partition_aggregate.start_workers(shims, agg, workers, WORKER_MBPS * 1e6)
        time.sleep(0.6)
        before = {h.name: shims[h.name].stats() for h in net.hosts}
        out = partition_aggregate.query(agg, workers, SIZES, budget, 3)
        time.sleep(1.1)
        after = {h.name: shims[h.name].stats() for h in net.hosts}
        for p in procs:
            p.kill()
            p.wait()
        drops = \
            {pt: sum(after[h]["drops"][pt] - before[h]["drops"][pt] for h in after) for pt in POINTS}
        timeouts = sum(after[h]["drops"]["tcp_timeouts"] - before[h]["drops"]["tcp_timeouts"] for h in after)
        return out, drops, timeouts
    finally:
        shims.stop()
        shimnet.stop(net)


def test_incast_lossy_drops_at_the_host_lossless_does_not(root):
    results = {mode: run_mode(mode) for mode in ("lossy", "lossless")}
    print("\nPartition-Aggregate, 1 aggregator + 5 workers, %d Mbit/s per worker session" % WORKER_MBPS)
    print("%8s  %16s  %16s  %6s" % ("size", "lossy QCT ms", "lossless QCT ms", "gain"))
    lossy, lossless = results["lossy"][0], results["lossless"][0]
    for a, b in zip(lossy, lossless):
        print("%5d MTU  %9.2f (n=%3d)  %9.2f (n=%3d)  %5.2fx" % (a["size_mtu"], a["mean_qct_ms"], a["queries"],
                                                                 b["mean_qct_ms"], b["queries"], a["mean_qct_ms"] / b["mean_qct_ms"]))
    for mode in ("lossy", "lossless"):
        print("%s: host drops %s, TCP timeouts %d" % (mode, results[mode][1], results[mode][2]))
    assert sum(results["lossy"][1].values()) > 0
    assert results["lossless"][1] == {pt: 0 for pt in POINTS}
