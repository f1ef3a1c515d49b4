"""vFab Case 3 / zOVN Partition-Aggregate incast with edge windows (docs/host-shim.md "Edge
windows"): 1 aggregator and 8 workers on one p4switch (l3router), the switch's port toward the
aggregator the bottleneck (LINK_MBPS, ONE_WAY_MS of delay on every switch port, so the base RTT is
2 x ONE_WAY_MS). Each worker's session to the aggregator is rated at its share of the bottleneck
by its shim. The aggregator asks all workers at once for RESPONSE_MTUS MTUs each over persistent
TCP connections; p4switch's traffic manager records the peak of its queue toward the aggregator
(admin: DELETE /ports/N/peak). With edge windows (host-shim -edge-window = the base RTT) the peak
stays within 3 x BDP (vFab Eq. 4); the same workload without them is measured in the same run and
printed beside it."""

import json
import time
import urllib.request

import shimnet
from fairfabric_mn import l3router, shim

WORKERS = 8
LINK_MBPS = 10
ONE_WAY_MS = 20
BASE_RTT_S = 2 * ONE_WAY_MS / 1000.0
BDP_BYTES = LINK_MBPS * 1e6 / 8 * BASE_RTT_S
# each worker's share, a little under 1/8 of the link: the shims' rates must not add up to more
# than the bottleneck carries (the allocation would not), or a queue grows whatever the windows
SHARE_BPS = 0.95 * LINK_MBPS * 1e6 / WORKERS
RESPONSE_MTUS = 64
PREFIX = "ew"


def peak(sw, port):
    """The port's queue peak since the last call (packets, bytes); starts a new measurement."""
    req = urllib.request.Request("http://%s/ports/%d/peak" % (sw.admin_addr, port), method="DELETE")
    with urllib.request.urlopen(req, timeout=10) as r:
        st = json.load(r)
    return st["peak_packets"], st["peak_bytes"], st["queue_drops"]


def run(net, extra):
    sw = net.switches[0]
    agg, workers = net.get(PREFIX + "h1"), [net.get("%sh%d" % (PREFIX, i)) for i in range(2, WORKERS + 2)]
    shims = shim.ShimSet(net, topic_suffix=shim.unique_suffix(), period="500ms", mode="lossy", extra=extra)
    procs = []
    try:
        procs = shimnet.start_pa_workers(shims, agg, workers, SHARE_BPS)
        time.sleep(0.6)
        _, _, drops0 = peak(sw, 1)
        out = agg.cmd("%s pa-aggregator -workers %s -sizes %d -budget 4s -min-reps 5"
                      % (shim.binary("shimctl"), ",".join("%s:5301" % w.IP() for w in workers), RESPONSE_MTUS))
        assert out.strip().startswith("["), out
        packets, nbytes, drops = peak(sw, 1)
        return {"peak_packets": packets, "peak_bytes": nbytes, "queue_drops": drops - drops0,
                "qct_ms": json.loads(out)[0]["mean_qct_ms"], "queries": json.loads(out)[0]["queries"]}
    finally:
        for p in procs:
            p.kill()
            p.wait()
        shims.stop()


def test_edge_windows_keep_the_incast_queue_within_three_bdp(root):
    net = l3router.start(prefix=PREFIX, n=WORKERS + 1, bw=LINK_MBPS, delay="%dms" % ONE_WAY_MS, max_queue_size=4000)
    try:
        l3router.program_routes(net)
        for h in net.hosts:
            h.cmd("sysctl -qw net.ipv4.tcp_slow_start_after_idle=0")
        off = run(net, extra=())
        on = run(net, extra=("-edge-window", "%dms" % (BASE_RTT_S * 1000)))
    finally:
        l3router.stop(net)
    print("\nincast: 1 aggregator, %d workers x %d MTUs, bottleneck %d Mbit/s, base RTT %.0f ms, BDP %.0f bytes"
          % (WORKERS, RESPONSE_MTUS, LINK_MBPS, BASE_RTT_S * 1000, BDP_BYTES))
    for name, r in (("edge windows off", off), ("edge windows on", on)):
        print("%s: bottleneck queue peak %d packets, %d bytes = %.2f x BDP; queue drops %d; mean query completion"
              " %.1f ms over %d queries" % (name, r["peak_packets"], r["peak_bytes"], r["peak_bytes"] / BDP_BYTES,
                                            r["queue_drops"], r["qct_ms"], r["queries"]))
    assert on["peak_bytes"] > 0, "no queue at the bottleneck at all: the incast did not happen"
    assert on["peak_bytes"] <= 3 * BDP_BYTES, "with edge windows the incast queue exceeded 3 x BDP: %s" % on
