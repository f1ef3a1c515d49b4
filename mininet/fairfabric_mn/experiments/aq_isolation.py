"""Augmented Queue isolation (AQ paper §2.1, Figs. 8-9, Table 2), on the controller-run fabric.

A 2-leaf, 1-spine leaf-spine of p4switch processes at BW Mbit/s per link; two tenants of equal
weight share leaf1's uplink (the bottleneck): "solo" sends ONE TCP flow h1 -> h3, "crowd" sends
from h2 to h4 either MANY TCP flows, one UDP flow at twice the link rate, or one TCP flow with
BBR (a congestion-control mix: this kernel has reno, cubic and bbr, no DCTCP). The allocation gives
each tenant BW/2. Two configurations on the same fabric, one after the other:
  - plain FIFO: no guarantees, so no AQs (the switches' single physical queue, the paper's "PQ");
  - AQ: both tenants get a guarantee below their share (PATCH minBandwidthBps), so the controller's
    guarantees component installs an outbound AQ per host at its allocated rate (first hop) and an
    inbound one at the last hop (docs/pipeline.md, Augmented Queue).
Measured: each tenant's received rate (iperf3's receiver side), per workload and configuration."""

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
MANY = 8
PREFIX = "xq"
AQ_TABLES = ("FabricIngress.aq_classify_outbound.aq_classify_outbound", "FabricIngress.aq_ingress.aq_table")


def measure(f, workload, seconds):
    """Runs solo's 1 TCP flow and crowd's workload ("tcp" or "udp") together; returns received bit/s of each."""
    h1, h2, h3, h4 = (f.host(n) for n in (1, 2, 3, 4))
    servers = [h.popen(["iperf3", "-s", "-1", "-p", "5201"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for h in (h3, h4)]
    try:
        time.sleep(1)
        crowd_args = {"tcp": ["-P", str(MANY)], "udp": ["-u", "-b", "%dM" % (2 * BW), "-l", "1400"],
                      "bbr": ["-C", "bbr"]}[workload]
        crowd = h2.popen(["iperf3", "-c", h4.IP(), "-p", "5201", "-t", str(seconds), "-J"] + crowd_args,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        solo = h1.popen(["iperf3", "-c", h3.IP(), "-p", "5201", "-t", str(seconds), "-J"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = {}
        for name, p in (("solo", solo), ("crowd", crowd)):
            doc = json.loads(p.communicate(timeout=seconds + 60)[0].decode())
            if "error" in doc:
                raise RuntimeError("iperf3 (%s): %s" % (name, doc["error"]))
            end = doc["end"]
            out[name] = end["sum_received"]["bits_per_second"] if "sum_received" in end else end["sum"]["bits_per_second"] * (
                1 - end["sum"].get("lost_percent", 0) / 100.0)
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
        "tenants": "solo: h1->h3, 1 TCP flow (CUBIC); crowd: h2->h4, %d TCP flows, 1 UDP flow at %d Mbit/s, or 1 TCP flow with BBR "
                   "(the CC mix this kernel offers: reno, cubic, bbr); weights 1:1" % (MANY, 2 * BW),
        "bottleneck": "leaf1's uplink (both tenants), %d Mbit/s" % BW, "seconds": seconds,
        "aq": "guarantee %.1f Mbit/s per tenant (below the allocation); AQs at the allocated rate, drop type" % (BW / 4),
        "measured": "iperf3 receiver-side goodput (TCP) or sent x (1 - loss) (UDP), bit/s",
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
                deadline = time.time() + 60
                while True:
                    aqs = f.read_entries("leaf1", *AQ_TABLES)
                    if len([e for e in aqs if e["table"].endswith("aq_classify_outbound")]) == 2:
                        break
                    if time.time() > deadline:
                        raise RuntimeError("no outbound AQs on leaf1 within 60 s: %s\n%s" % (aqs, f.ctl.log_tail()))
                    time.sleep(1)
                res.series("leaf1_aq_entries", aqs)
            for workload in ("tcp", "udp", "bbr"):
                progress(NAME, "%s: solo 1 TCP flow vs crowd %s, %d s" % (config, {
                    "tcp": "%d TCP flows" % MANY, "udp": "1 UDP flow at %d Mbit/s" % (2 * BW), "bbr": "1 TCP flow with BBR"}[workload],
                    seconds))
                got = measure(f, workload, seconds)
                progress(NAME, "  solo %.2f, crowd %.2f Mbit/s" % (got["solo"] / 1e6, got["crowd"] / 1e6))
                results["%s/%s" % (config, workload)] = got
    finally:
        f.close()
    res.series("received_bps", results)
    share = lambda k: results[k]["solo"] / (results[k]["solo"] + results[k]["crowd"])
    for k, label, paper in (("fifo/tcp", "FIFO, 1 vs %d TCP flows" % MANY, "PQ: split follows flow counts (Fig. 8)"),
                            ("aq/tcp", "AQ, 1 vs %d TCP flows" % MANY, "AQ: even split (Fig. 8)"),
                            ("fifo/udp", "FIFO, 1 TCP vs UDP flood", "PQ: UDP 8.9, TCP 0.4 Gbps of 10 (Table 2)"),
                            ("aq/udp", "AQ, 1 TCP vs UDP flood", "AQ: each > 95% of its allocation (Fig. 9b)"),
                            ("fifo/bbr", "FIFO, CUBIC vs BBR (1 flow each)", "PQ: CC mixes split unevenly (CUBIC vs DCTCP 0.7/8.7 Gbps, Table 2)"),
                            ("aq/bbr", "AQ, CUBIC vs BBR", "AQ: even (CUBIC vs DCTCP 4.6/4.7 Gbps, Table 2)")):
        r = results[k]
        res.row(label + " (Mbit/s)", paper, "solo %.2f, crowd %.2f (solo's share %.0f%%, %.0f%% of its allocation)" % (
            r["solo"] / 1e6, r["crowd"] / 1e6, 100 * share(k), 100 * r["solo"] / fair))
    res.check("allocation: BW/2 per tenant", len(alloc) == 2 and all(abs(v - fair) < 1e-3 * fair for v in alloc.values()),
              str(alloc))
    res.check("FIFO: the crowd of TCP flows takes more than the single flow", results["fifo/tcp"]["crowd"] > results["fifo/tcp"]["solo"],
              "solo %.2f, crowd %.2f" % (results["fifo/tcp"]["solo"] / 1e6, results["fifo/tcp"]["crowd"] / 1e6))
    res.check("FIFO: the UDP flood starves the TCP flow (solo below a third of its share)",
              results["fifo/udp"]["solo"] < fair / 3, "solo %.2f Mbit/s" % (results["fifo/udp"]["solo"] / 1e6))
    res.check("AQ (aq/bbr): the CUBIC flow gets at least half its allocation against BBR (FIFO's split is recorded, not asserted)",
              results["aq/bbr"]["solo"] >= 0.5 * fair, "solo %.2f Mbit/s = %.0f%% of %.2f; FIFO: solo %.2f, crowd %.2f" % (
                  results["aq/bbr"]["solo"] / 1e6, 100 * results["aq/bbr"]["solo"] / fair, fair / 1e6,
                  results["fifo/bbr"]["solo"] / 1e6, results["fifo/bbr"]["crowd"] / 1e6))
    for k in ("aq/tcp", "aq/udp"):
        res.check("AQ (%s): solo gets over twice its FIFO rate and at least half its allocation (paper: >95%%; loaded 2-core host)" % k,
                  results[k]["solo"] > 2 * results["fifo/" + k.split("/")[1]]["solo"] and results[k]["solo"] >= 0.5 * fair,
                  "solo %.2f Mbit/s = %.0f%% of %.2f" % (results[k]["solo"] / 1e6, 100 * results[k]["solo"] / fair, fair / 1e6))
    res.finish()

    fig, (ax,) = plot.figure(1, width=10)
    keys = ["fifo/tcp", "aq/tcp", "fifo/udp", "aq/udp", "fifo/bbr", "aq/bbr"]
    xs = list(range(len(keys)))
    ax.bar([x - 0.2 for x in xs], [results[k]["solo"] / 1e6 for k in keys], 0.4, label="solo: 1 TCP flow", color="C0")
    ax.bar([x + 0.2 for x in xs], [results[k]["crowd"] / 1e6 for k in keys], 0.4, label="crowd: %d TCP flows / UDP flood / 1 BBR flow" % MANY,
           color="C3")
    ax.axhline(fair / 1e6, color="red", ls="--", lw=1.2, label="allocation = paper's AQ share (C/2)")
    ax.set_xticks(xs, ["FIFO\n1 vs %d TCP" % MANY, "AQ\n1 vs %d TCP" % MANY, "FIFO\nTCP vs UDP", "AQ\nTCP vs UDP",
                       "FIFO\nCUBIC vs BBR", "AQ\nCUBIC vs BBR"])
    ax.set_ylabel("received rate (Mbit/s)")
    ax.set_title("Two tenants on one %d Mbit/s uplink" % BW)
    ax.set_ylim(0, BW * 1.25)
    ax.legend(fontsize=8, loc="upper right")
    plot.caption(fig, res)
    return res, fig
