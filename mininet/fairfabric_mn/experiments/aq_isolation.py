"""Augmented Queue isolation (AQ paper §2.1, Figs. 8-9, Table 2), on the controller-run fabric.

A 2-leaf, 1-spine leaf-spine of p4switch processes at BW Mbit/s per link; two tenants of equal
weight share leaf1's uplink (the bottleneck): "solo" sends ONE TCP flow (CUBIC) h1 -> h3, "crowd"
sends from h2 to h4 either MANY CUBIC flows, one UDP flow at 1.5 times the link rate, or one TCP
flow with Reno or BBR (the congestion controls this kernel has: no DCTCP). Every sender names its
congestion control: the machine's default may not be Linux's (here it is BBR). The allocation
gives each tenant BW/2. Two configurations on the same fabric, one after the other:
  - plain FIFO: no guarantees, so no AQs (the switches' single physical queue, the paper's "PQ");
  - AQ: both tenants get a guarantee below their share (PATCH minBandwidthBps), so the controller's
    guarantees component installs an outbound AQ per host at its allocated rate (first hop) and an
    inbound one at the last hop (docs/pipeline.md, Augmented Queue).
Measured: each tenant's received rate (iperf3's receiver side), per workload and configuration,
turned into the bits leaf1's uplink carries for it (ON_LINK), the unit of the allocation."""

import json
import subprocess
import time

from fairfabric_mn.experiments import plot
from fairfabric_mn.experiments.fabric_run import ControlledFabric
from fairfabric_mn.experiments.runner import Result, progress

NAME = "aq-isolation"
SUMMARY = "Augmented Queue: one TCP flow vs many TCP flows / a UDP flood on one uplink, FIFO vs AQ"
PAPER = "Augmented Queue (Kim et al.), §2.1, Figs. 8-9 and Table 2: shares independent of flow count and protocol"
NEEDS_ROOT = True
BW = 10
MANY = 16
# Bits on leaf1's uplink per bit of payload, full-size packets: TCP (MSS 1448 with timestamps)
# 1534/1448 (IP 1500, Ethernet 14, the fabric header 20), UDP (-l 1400) 1462/1400.
ON_LINK = {"tcp": 1534 / 1448, "udp": 1462 / 1400}
CROWD = {"tcp": ["-P", str(MANY), "-C", "cubic"], "udp": ["-u", "-b", "%gM" % (1.5 * BW), "-l", "1400"],
         "reno": ["-C", "reno"], "bbr": ["-C", "bbr"]}
CROWD_LABEL = {"tcp": "%d CUBIC flows" % MANY, "udp": "1 UDP flow at %g Mbit/s" % (1.5 * BW),
               "reno": "1 Reno flow", "bbr": "1 BBR flow"}
PREFIX = "xq"


def on_link_bps(name, client, seconds):
    """An iperf3 -J client's received rate (TCP; UDP: sent x (1 - loss)) in bits on the link."""
    doc = json.loads(client.communicate(timeout=seconds + 60)[0].decode())
    if "error" in doc:
        raise RuntimeError("iperf3 (%s): %s" % (name, doc["error"]))
    end = doc["end"]
    if "sum_received" in end:
        return end["sum_received"]["bits_per_second"] * ON_LINK["tcp"]
    return end["sum"]["bits_per_second"] * (1 - end["sum"].get("lost_percent", 0) / 100.0) * ON_LINK["udp"]


def measure(f, workload, seconds):
    """Runs solo's CUBIC flow and crowd's workload (a CROWD key) together; returns each one's bit/s on the uplink."""
    h1, h2, h3, h4 = (f.host(n) for n in (1, 2, 3, 4))
    servers = [h.popen(["iperf3", "-s", "-1", "-p", "5201"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for h in (h3, h4)]
    try:
        time.sleep(1)
        crowd = h2.popen(["iperf3", "-c", h4.IP(), "-p", "5201", "-t", str(seconds), "-J"] + CROWD[workload],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        solo = h1.popen(["iperf3", "-c", h3.IP(), "-p", "5201", "-t", str(seconds), "-J", "-C", "cubic"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = {}
        for name, p in (("solo", solo), ("crowd", crowd)):
            out[name] = on_link_bps(name, p, seconds)
        return out
    finally:
        for s in servers:
            if s.poll() is None:
                s.kill()
            s.wait()


def run(quick=False):
    seconds = 8 if quick else 20
    res = Result(NAME, PAPER, quick, {
        "topology": "leaf-spine, 2 leaves x 1 spine, 2 hosts per leaf, p4switch processes, %d Mbit/s every link" % BW,
        "tenants": "solo: h1->h3, 1 TCP flow (CUBIC); crowd: h2->h4, %s; weights 1:1" % ", ".join(CROWD_LABEL.values()),
        "bottleneck": "leaf1's uplink (both tenants), %d Mbit/s" % BW, "seconds": seconds,
        "aq": "guarantee %.1f Mbit/s per tenant (below the allocation); AQs at the allocated rate, drop type" % (BW / 4),
        "measured": "iperf3 receiver-side goodput (TCP) or sent x (1 - loss) (UDP), times the bits on the uplink per payload bit "
                    "(TCP 1534/1448, UDP 1462/1400), bit/s",
        "scale": "paper: 10 Gbit/s dumbbell in ns-3/BMv2 and a 25 Gbit/s Tofino; here 10 Mbit/s, p4switch"})
    res.paper_value("table2_pq_1udp_vs_tcp_gbps", {"udp": 8.9, "tcp_total": 0.4})
    res.paper_value("fig9b_aq_share_of_allocation", ">95%")
    res.paper_value("fig8_aq_split", "even at equal weights, whatever the flow counts")
    res.paper_value("table2_aq_5cubic_5cubic_gbps", [4.7, 4.7])
    res.paper_value("table2_cubic_vs_dctcp_gbps", {"pq": [0.7, 8.7], "aq": [4.6, 4.7]})
    f = ControlledFabric(PREFIX, BW, leaves=2, spines=1, hosts_per_leaf=2)
    results = {}
    try:
        f.provision("solo", [1, 3], [(1, 3)])
        f.provision("crowd", [2, 4], [(2, 4)])
        fair = BW * 1e6 / 2
        alloc = f.allocations(until=lambda a: len(a) == 2 and all(abs(v - fair) < 1e-3 * fair for v in a.values()))
        res.series("allocated_bps", {"%s h%d->h%d" % k: v for k, v in alloc.items()})
        for config in ("fifo", "aq"):
            if config == "aq":
                for t in ("solo", "crowd"):
                    status, reply = f.ctl.send("PATCH", "/tenants/" + t, {"minBandwidthBps": int(BW * 1e6 / 4)})
                    if status != 200:
                        raise RuntimeError("PATCH %s: %s %s" % (t, status, reply))
                aqs = f.wait_aqs("leaf1", outbound=2)
                res.series("leaf1_aq_entries", aqs)
            for workload in CROWD:
                progress(NAME, "%s: solo 1 CUBIC flow vs crowd %s, %d s" % (config, CROWD_LABEL[workload], seconds))
                got = measure(f, workload, seconds)
                progress(NAME, "  solo %.2f, crowd %.2f Mbit/s" % (got["solo"] / 1e6, got["crowd"] / 1e6))
                results["%s/%s" % (config, workload)] = got
    finally:
        f.close()
    res.series("received_bps", results)
    share = lambda k: results[k]["solo"] / (results[k]["solo"] + results[k]["crowd"])
    paper = {"tcp": ("PQ: split follows flow counts (Fig. 8)", "AQ: even split (Fig. 8)"),
             "udp": ("PQ: UDP 8.9, TCP 0.4 Gbps of 10 (Table 2)", "AQ: each > 95% of its allocation (Fig. 9b)"),
             "reno": ("PQ: CC mixes split unevenly (CUBIC vs DCTCP 0.7/8.7 Gbps, Table 2)", "AQ: even (Table 2)"),
             "bbr": ("PQ: CC mixes split unevenly (CUBIC vs DCTCP 0.7/8.7 Gbps, Table 2)", "AQ: even (CUBIC vs DCTCP 4.6/4.7 Gbps, Table 2)")}
    for workload in CROWD:
        for i, config in enumerate(("fifo", "aq")):
            r = results["%s/%s" % (config, workload)]
            res.row("%s, 1 CUBIC flow vs %s (Mbit/s on the uplink)" % (config.upper(), CROWD_LABEL[workload]), paper[workload][i],
                    "solo %.2f, crowd %.2f (solo's share %.0f%%; %+.1f%% and %+.1f%% of the allocation)" % (
                        r["solo"] / 1e6, r["crowd"] / 1e6, 100 * share("%s/%s" % (config, workload)),
                        100 * (r["solo"] / fair - 1), 100 * (r["crowd"] / fair - 1)))
    res.check("allocation: BW/2 per tenant", len(alloc) == 2 and all(abs(v - fair) < 1e-3 * fair for v in alloc.values()),
              str(alloc))
    res.check("FIFO: the crowd of TCP flows takes more than the single flow", results["fifo/tcp"]["crowd"] > results["fifo/tcp"]["solo"],
              "solo %.2f, crowd %.2f" % (results["fifo/tcp"]["solo"] / 1e6, results["fifo/tcp"]["crowd"] / 1e6))
    res.check("FIFO: the UDP flood starves the TCP flow (solo below a third of its share)",
              results["fifo/udp"]["solo"] < fair / 3, "solo %.2f Mbit/s" % (results["fifo/udp"]["solo"] / 1e6))
    # Issue 17: each tenant within 3 % of its share under AQ, whatever the crowd does. The quick
    # run (8 s a workload) checks the direction only: at least 90 % for the single flow.
    bound = 0.90 if quick else 0.97
    for workload in CROWD:
        r = results["aq/" + workload]
        ok = r["solo"] >= bound * fair and (quick or abs(r["crowd"] / fair - 1) <= 0.03)
        res.check("AQ, crowd %s: solo at least %.0f%% of its allocation%s" % (
            CROWD_LABEL[workload], 100 * bound, "" if quick else ", crowd within 3 %"), ok,
            "solo %.2f, crowd %.2f Mbit/s of %.2f" % (r["solo"] / 1e6, r["crowd"] / 1e6, fair / 1e6))
    res.finish()

    fig, (ax,) = plot.figure(1, width=10)
    keys = ["%s/%s" % (c, w) for w in CROWD for c in ("fifo", "aq")]
    xs = list(range(len(keys)))
    ax.bar([x - 0.2 for x in xs], [results[k]["solo"] / 1e6 for k in keys], 0.4, label="solo: 1 CUBIC flow", color="C0")
    ax.bar([x + 0.2 for x in xs], [results[k]["crowd"] / 1e6 for k in keys], 0.4,
           label="crowd: %d CUBIC flows / UDP flood / 1 Reno / 1 BBR flow" % MANY, color="C3")
    ax.axhline(fair / 1e6, color="red", ls="--", lw=1.2, label="allocation = paper's AQ share (C/2)")
    ax.set_xticks(xs, ["%s\nvs %s" % (k.split("/")[0].upper(), {"tcp": "%d CUBIC" % MANY, "udp": "UDP flood", "reno": "Reno",
                                                                    "bbr": "BBR"}[k.split("/")[1]]) for k in keys])
    ax.set_ylabel("rate on the uplink (Mbit/s)")
    ax.set_title("Two tenants on one %d Mbit/s uplink" % BW)
    ax.set_ylim(0, BW * 1.25)
    ax.legend(fontsize=8, loc="upper right")
    plot.caption(fig, res)
    return res, fig
