"""Promenade's multipath sessions against single-path ECMP TCP, through the controller in both of
its routing modes (docs/controller.md, "Routing modes"): `--routing pinned` (the allocator's
per-path rates, tagged by the shims, pinned in the switches) and `--routing ecmp` (the switches hash
each flow over their equal-cost uplinks; the shims limit each session's total only).

k=4 fat-tree whose aggregation-core cables run at a quarter of the other links' rate, so the four
core uplinks of pod 0 (CORE_BW each) are the bottleneck of every session leaving it. The four hosts
of pod 0 each send one greedy TCP flow (iperf3) to a host in another pod; the exact weighted-PF
optimum gives each session a quarter of pod 0's uplink capacity, which its paths can carry only
if the sessions do not pile onto the same core. Pinned: each session on its own paths, as
allocated. ECMP: each flow on the uplink its 5-tuple hashes to; flows that collide share a core.
Measured per session: iperf3's receiver goodput x 1514/1448 (frames on the wire) after OMIT_S s."""

import json
import subprocess
import time

from fairfabric_mn import runstate
from fairfabric_mn.experiments import allocate, plot
from fairfabric_mn.experiments.fabric_run import ControlledFabric
from fairfabric_mn.experiments.runner import Result, progress

NAME = "promenade-ecmp"
SUMMARY = "Promenade multipath (pinned paths) vs single-path ECMP TCP on a k=4 fat-tree with thin core links: per session and aggregate"
PAPER = "Promenade (Chen et al.): multipath sessions reach their PF share where single-path ECMP flows collide"
NEEDS_ROOT = True
BW = 8
CORE_BW = 2
PAIRS = ((1, 5), (2, 9), (3, 13), (4, 6))  # pod 0's hosts to hosts of pods 1, 2, 3, 1
OMIT_S = 3
WIRE_PER_PAYLOAD = 1514.0 / 1448.0
PREFIX = "xe"


def pod(h):
    return (h - 1) // 4


def problem():
    """The allocation problem in ./fairfabric allocate's format: the senders' cables, pod 0's four
    core uplinks, each core's downlink to the destination pods, the receivers' cables; a session's
    path j crosses core j."""
    c, core = BW * 1e6, CORE_BW * 1e6
    links = [{"id": "h%d>edge" % s, "capacity": c} for s, _ in PAIRS]
    links += [{"id": "pod0>core%d" % j, "capacity": core} for j in range(1, 5)]
    for p in sorted({pod(d) for _, d in PAIRS}):
        links += [{"id": "core%d>pod%d" % (j, p), "capacity": core} for j in range(1, 5)]
    links += [{"id": "edge>h%d" % d, "capacity": c} for _, d in PAIRS]
    sessions = [{"id": "h%d>h%d" % (s, d), "weight": 1,
                 "paths": [["h%d>edge" % s, "pod0>core%d" % j, "core%d>pod%d" % (j, pod(d)), "edge>h%d" % d] for j in range(1, 5)]}
                for s, d in PAIRS]
    return {"links": links, "sessions": sessions}


def one_mode(mode, seconds):
    """Builds the fabric with the controller in `mode`, runs the flows; returns (allocated, achieved, paths) per pair."""
    progress(NAME, "%s: building the k=4 fat-tree (%d/%d Mbit/s) with shims and the controller (--routing %s)" % (mode, BW, CORE_BW, mode))
    f = ControlledFabric(PREFIX, BW, kind="fattree", k=4, core_bw=CORE_BW, shim_hosts="all", start_shims=True,
                         controller_args=["--routing", mode])
    procs = []
    try:
        hosts = sorted({h for pair in PAIRS for h in pair})
        allocated = f.provision("t", hosts, PAIRS)
        time.sleep(3)  # the rates tables reach the shims
        names = {f.host(s).name: s for s in hosts}
        paths = {}
        sessions = {x["id"]: (names[x["srcHost"]], names[x["dstHost"]]) for x in f.ctl.get("/sessions")}
        for a in f.ctl.get("/allocations"):
            pair = sessions.get(a["sessionId"])
            if pair:
                paths[pair] = [(p["pathId"], round(p["rateBps"])) for p in a["paths"] if p["rateBps"] >= 8000]
        progress(NAME, "%s: allocated %s; %d s of greedy TCP" % (
            mode, ", ".join("h%d>h%d %.2f" % (s, d, allocated[(s, d)] / 1e6) for s, d in PAIRS), seconds))
        clients = []
        for n, (s, d) in enumerate(PAIRS):
            procs.append(f.host(d).popen(["iperf3", "-s", "-1", "-p", str(5301 + n)], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL))
        time.sleep(1)
        for n, (s, d) in enumerate(PAIRS):
            p = f.host(s).popen(["iperf3", "-c", f.host(d).IP(), "-p", str(5301 + n), "-t", str(seconds + OMIT_S),
                                 "-O", str(OMIT_S), "-J"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            clients.append(p)
            procs.append(p)
        runstate.extend(f.net, pids=[p.pid for p in procs])
        achieved = {}
        for pair, p in zip(PAIRS, clients):
            doc = json.loads(p.communicate(timeout=seconds + 120)[0].decode())
            if "error" in doc:
                raise RuntimeError("iperf3 h%d>h%d: %s" % (pair[0], pair[1], doc["error"]))
            achieved[pair] = doc["end"]["sum_received"]["bits_per_second"] * WIRE_PER_PAYLOAD
        return allocated, achieved, paths
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
        f.close()


def run(quick=False):
    seconds = 10 if quick else 30
    res = Result(NAME, PAPER, quick, {
        "topology": "k=4 fat-tree, 20 p4switch processes, 16 hosts, %d Mbit/s links, %d Mbit/s aggregation-core links;"
                    " host shim on every host" % (BW, CORE_BW),
        "sessions": "one tenant; %s, one greedy iperf3 TCP flow each" % ", ".join("h%d->h%d" % p for p in PAIRS),
        "modes": "controller --routing pinned (Promenade) and --routing ecmp (baseline), one fabric each",
        "seconds": seconds, "omitted_s": OMIT_S,
        "measured": "iperf3 receiver goodput x 1514/1448 (frames on the wire) over the run after the first %d s" % OMIT_S,
        "scale": "paper: simulation at 1 Mbit/s; here p4switch on 2 shared cores, %d/%d Mbit/s" % (BW, CORE_BW)})
    res.paper_value("multipath", "sessions reach their PF share; single-path ECMP flows collide on shared uplinks")
    prob = problem()
    res.problem("pod0-uplinks", prob)
    exact = allocate.session_rates(allocate.solve(prob, "exact"))
    out = {}
    for mode in ("pinned", "ecmp"):
        out[mode] = one_mode(mode, seconds)
    rows = []
    for s, d in PAIRS:
        sid = "h%d>h%d" % (s, d)
        row = {"id": sid, "exact_pf_bps": exact[sid]}
        for mode in out:
            allocated, achieved, paths = out[mode]
            row[mode] = {"allocated_bps": allocated[(s, d)], "achieved_bps": achieved[(s, d)], "paths": paths.get((s, d), [])}
        rows.append(row)
    res.series("sessions", rows)
    total = {mode: sum(out[mode][1].values()) for mode in out}
    res.series("aggregate_bps", total)
    for r in rows:
        res.row("%s Mbit/s (exact PF %.2f)" % (r["id"], r["exact_pf_bps"] / 1e6), "its PF share",
                "pinned %.2f, ECMP %.2f" % (r["pinned"]["achieved_bps"] / 1e6, r["ecmp"]["achieved_bps"] / 1e6))
    res.row("aggregate Mbit/s (pod 0's uplinks: %d)" % (4 * CORE_BW), "multipath above ECMP",
            "pinned %.2f, ECMP %.2f" % (total["pinned"] / 1e6, total["ecmp"] / 1e6))
    res.check("the controller's allocation is the exact weighted PF in both modes",
              all(abs(r[m]["allocated_bps"] - r["exact_pf_bps"]) <= 1e-3 * BW * 1e6 for r in rows for m in out),
              str([[round(r[m]["allocated_bps"] / 1e6, 3) for m in out] for r in rows]))
    res.check("pinned multipath carries more in aggregate than ECMP (or as much, when the hash spread the flows over every core)",
              total["pinned"] >= 0.97 * total["ecmp"], "%.2f vs %.2f Mbit/s" % (total["pinned"] / 1e6, total["ecmp"] / 1e6))
    res.check("no session achieves more than its allocation (+5 %) in either mode: the shims hold the totals",
              all(r[m]["achieved_bps"] <= 1.05 * r[m]["allocated_bps"] for r in rows for m in out),
              str([[round(r[m]["achieved_bps"] / 1e6, 2) for m in out] for r in rows]))
    res.finish()

    fig, (ax,) = plot.figure(1, width=9)
    xs = list(range(len(rows)))
    ax.bar([x - 0.2 for x in xs], [r["pinned"]["achieved_bps"] / 1e6 for r in rows], 0.4, label="pinned multipath (Promenade)", color="C0")
    ax.bar([x + 0.2 for x in xs], [r["ecmp"]["achieved_bps"] / 1e6 for r in rows], 0.4, label="ECMP (5-tuple hash)", color="C1")
    ax.scatter(xs, [r["exact_pf_bps"] / 1e6 for r in rows], marker="_", s=600, color="red", zorder=3, label="exact PF share")
    ax.set_xticks(xs, ["%s" % r["id"] for r in rows])
    ax.set_ylabel("achieved (Mbit/s, frames on the wire)")
    ax.set_title("aggregate: pinned %.2f, ECMP %.2f Mbit/s of pod 0's %d" % (total["pinned"] / 1e6, total["ecmp"] / 1e6, 4 * CORE_BW))
    ax.set_ylim(0, CORE_BW * 1.6)
    ax.legend(fontsize=8, loc="upper right")
    plot.caption(fig, res)
    return res, fig
