"""vFab, the incast queue bound (vFab Fig. 13 and Eq. 4; digest papers/notes/vfab.md §2.5 and test
plan item 20): WORKERS workers answer one aggregator at once (Partition-Aggregate over persistent
TCP connections, `shimctl pa-worker` / `pa-aggregator`), all on one p4switch (l3router) whose port
toward the aggregator is the bottleneck: BW Mbit/s, ONE_WAY_MS of delay on every switch port, so
the base RTT T is 2 x ONE_WAY_MS and BDP = BW x T. Each worker's session to the aggregator is rated
by its host shim at its share of the bottleneck (0.95 x BW / WORKERS: the allocation's equal
shares, which never add up to more than the link). The same workload twice, on one fabric:
  - edge windows on: host-shim -edge-window T (each session's bucket holds r x T, vFab's sending
    window at the allocated rate; docs/host-shim.md, "Edge windows"): vFab;
  - edge windows off: the shim's rates alone (a 64 KB GSO packet of burst per session): vFab'
    without its window bound, as far as the edge goes.
For each response size the switch's traffic manager records the queue's peak toward the aggregator
(DELETE /ports/1/peak) while the aggregator runs its queries."""

import time

from fairfabric_mn import l3router, partition_aggregate, shim
from fairfabric_mn.experiments import plot
from fairfabric_mn.experiments.runner import Result, progress

NAME = "vfab-incast"
SUMMARY = "vFab incast queue bound: bottleneck queue peak with and without edge windows vs 3 x BDP (Fig. 13)"
PAPER = "vFab, §III-D Eq. 4 and Fig. 13: in-flight bytes ≤ 3 x BDP, latency ≤ 3BDP/C + baseRTT (14-to-1 incast)"
NEEDS_ROOT = True
WORKERS = 14
BW = 10
ONE_WAY_MS = 20
BASE_RTT_S = 2 * ONE_WAY_MS / 1000.0
BDP_BYTES = BW * 1e6 / 8 * BASE_RTT_S
SHARE_BPS = 0.95 * BW * 1e6 / WORKERS
MODES = (("off", ()), ("on", ("-edge-window", "%dms" % (BASE_RTT_S * 1000))))
PREFIX = "xi"


def run_mode(net, extra, sizes, budget, min_reps):
    """One shim set-up (edge windows per extra): per response size, the queue peak toward the
    aggregator, its drops and the aggregator's completion times."""
    sw = net.switches[0]
    agg, workers = net.hosts[0], net.hosts[1:]
    shims = shim.ShimSet(net, topic_suffix=shim.unique_suffix(), period="500ms", mode="lossy", extra=extra)
    procs = []
    try:
        procs = partition_aggregate.start_workers(shims, agg, workers, SHARE_BPS)
        time.sleep(0.6)
        out = []
        for size in sizes:
            _, _, drops0 = partition_aggregate.queue_peak(sw, 1)
            q = partition_aggregate.query(agg, workers, [size], budget, min_reps)[0]
            packets, nbytes, drops = partition_aggregate.queue_peak(sw, 1)
            out.append({"size_mtu": size, "peak_packets": packets, "peak_bytes": nbytes, "peak_bdp": nbytes / BDP_BYTES,
                        "queue_drops": drops - drops0, "queries": q["queries"], "mean_qct_ms": q["mean_qct_ms"],
                        "max_qct_ms": q["max_qct_ms"]})
        return out
    finally:
        for p in procs:
            p.kill()
            p.wait()
        shims.stop()


def run(quick=False):
    sizes = [64] if quick else [8, 16, 32, 64, 128]
    budget, min_reps = ("3s", 3) if quick else ("6s", 5)
    res = Result(NAME, PAPER, quick, {
        "topology": "star: 1 aggregator + %d workers on one p4switch (l3router), %d Mbit/s, %d ms one-way delay per switch port"
                    % (WORKERS, BW, ONE_WAY_MS),
        "base_rtt_ms": BASE_RTT_S * 1000, "bdp_bytes": BDP_BYTES, "worker_session_bps": SHARE_BPS,
        "response_sizes_mtu": sizes, "time_per_size": budget, "min_queries_per_size": min_reps,
        "edge_window": "host-shim -edge-window %d ms (= the base RTT) when on" % (BASE_RTT_S * 1000),
        "tcp": "CUBIC (kernel default), persistent connections, no slow start after idle",
        "scale": "paper: 10 Gbit/s, 14 senders, base RTT 24 us; here %d Mbit/s and %.0f ms (the same BDP in packets order)"
                 % (BW, BASE_RTT_S * 1000)})
    res.paper_value("queue_bound_bdp", 3)
    res.paper_value("fig13", "vFab stays under 3BDP/C + baseRTT; vFab' (no window bound) exceeds it; PWC P99 2.2 ms")
    progress(NAME, "star of %d hosts on one p4switch, %d Mbit/s, base RTT %.0f ms, BDP %.0f bytes"
             % (WORKERS + 1, BW, BASE_RTT_S * 1000, BDP_BYTES))
    net = l3router.start(prefix=PREFIX, n=WORKERS + 1, bw=BW, delay="%dms" % ONE_WAY_MS, max_queue_size=4000)
    runs = {}
    try:
        l3router.program_routes(net)
        for h in net.hosts:
            h.cmd("sysctl -qw net.ipv4.tcp_slow_start_after_idle=0")
        for name, extra in MODES:
            progress(NAME, "edge windows %s: %d sizes, %s each" % (name, len(sizes), budget))
            runs[name] = run_mode(net, extra, sizes, budget, min_reps)
            for r in runs[name]:
                progress(NAME, "edge windows %s, %d MTUs: queue peak %.2f x BDP, %d drops, mean completion %.1f ms"
                         % (name, r["size_mtu"], r["peak_bdp"], r["queue_drops"], r["mean_qct_ms"]))
    finally:
        l3router.stop(net)
    res.series("runs", runs)
    bound_ms = 3 * BDP_BYTES * 8 / (BW * 1e6) * 1000 + BASE_RTT_S * 1000
    res.paper_value("latency_bound_ms_here", bound_ms)
    for i, size in enumerate(sizes):
        on, off = runs["on"][i], runs["off"][i]
        res.row("%d MTUs: queue peak (x BDP)" % size, "≤ 3 (vFab)", "on %.2f, off %.2f" % (on["peak_bdp"], off["peak_bdp"]))
    worst_on = max(r["peak_bdp"] for r in runs["on"])
    res.row("worst RTT through the queue (ms)", "≤ 3BDP/C + baseRTT = %.0f" % bound_ms,
            "on %.0f, off %.0f" % (max(rtt_at_peak_ms(r) for r in runs["on"]), max(rtt_at_peak_ms(r) for r in runs["off"])))
    res.row("mean query completion at %d MTUs (ms)" % sizes[-1], "—",
            "on %.1f, off %.1f" % (runs["on"][-1]["mean_qct_ms"], runs["off"][-1]["mean_qct_ms"]))
    res.check("an incast happened: a queue built at the bottleneck", all(r["peak_bytes"] > 0 for r in runs["on"] + runs["off"]),
              str([r["peak_packets"] for r in runs["on"] + runs["off"]]))
    res.check("with edge windows the bottleneck queue stays within 3 x BDP at every size", worst_on <= 3,
              "worst %.2f x BDP" % worst_on)
    res.check("without them the queue peaks higher at the largest size", runs["off"][-1]["peak_bdp"] > runs["on"][-1]["peak_bdp"],
              "%.2f vs %.2f x BDP" % (runs["off"][-1]["peak_bdp"], runs["on"][-1]["peak_bdp"]))
    res.finish()

    return res, figure(res)


def figure(res):
    """The figure of a result (also from a written JSON: figure(Result.load(path)))."""
    runs = res.doc["series"]["runs"]
    sizes = [r["size_mtu"] for r in runs["on"]]
    bound_ms = res.doc["paper_values"]["latency_bound_ms_here"]
    fig, (ax, bx) = plot.figure(2, width=6.4)
    for name, color, marker in (("on", "C2", "o"), ("off", "C3", "s")):
        ax.plot(sizes, [r["peak_bdp"] for r in runs[name]], marker=marker, color=color, label="edge windows %s" % name)
        bx.plot(sizes, [rtt_at_peak_ms(r) for r in runs[name]], marker=marker, color=color, label="edge windows %s" % name)
    ax.axhline(3, color="k", ls="--", lw=1, label="paper: bound 3 x BDP (Eq. 4)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("response size per worker (MTUs)")
    ax.set_ylabel("bottleneck queue peak (x BDP = %.0f bytes)" % BDP_BYTES)
    ax.set_ylim(0, max(4, max(r["peak_bdp"] for r in runs["off"]) * 1.15))
    ax.set_title("%d-to-1 incast, %d Mbit/s, base RTT %.0f ms" % (WORKERS, BW, BASE_RTT_S * 1000))
    ax.legend(fontsize=8, loc="upper left")
    bx.axhline(bound_ms, color="k", ls="--", lw=1, label="paper: bound 3BDP/C + baseRTT (%.0f ms)" % bound_ms)
    bx.set_xscale("log", base=2)
    bx.set_xlabel("response size per worker (MTUs)")
    bx.set_ylabel("RTT through the queue at its peak (ms)")
    bx.set_ylim(0, max(bound_ms, max(rtt_at_peak_ms(r) for r in runs["off"])) * 1.15)
    bx.set_title("worst-case latency: base RTT + peak queue / C")
    bx.legend(fontsize=8, loc="upper left")
    plot.caption(fig, res)
    return fig


def rtt_at_peak_ms(r):
    return BASE_RTT_S * 1000 + r["peak_bytes"] * 8 / (BW * 1e6) * 1000
