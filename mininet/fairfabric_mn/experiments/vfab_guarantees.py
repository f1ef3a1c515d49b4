"""vFab, minimum-bandwidth guarantees with work conservation against a weight-only baseline (vFab
Fig. 12d analogue; digest papers/notes/vfab.md §4.4 and test plan item 19).

A leaf-spine of p4switch processes (2 leaves, 2 spines, 3 servers per leaf, BW Mbit/s per link),
the controller allocating and a host shim on every server. Five virtual fabrics (VFs: tenants with
one VM pair each) join one at a time, JOIN_S apart, each sending greedy TCP (iperf3) from its join
to the end:
  - gold (minimum 50 % of BW, weight 5): h1 -> h4;
  - silver a1, a2 (minimum 20 %, weight 2): h1 -> h5, h1 -> h6 — they share gold's sending cable;
  - silver b1, b2 (minimum 20 %, weight 2): h2 -> h4, h3 -> h4 — they share gold's receiving cable.
The minimums fit every cable (h1 and h4 carry 90 % of BW in guarantees). Gold crosses two
bottlenecks and each silver one, so weights alone (even weights in proportion to the guarantees,
the baseline here) give gold less than its minimum: weighted PF prices both of its cables (its
rate is w / (μ_h1 + μ_h4)). Two runs, the same joins on a fresh fabric each:
  - vfab: the tenants with minBandwidthBps (the controller's two-stage admission, the allocation's
    minimum rates, AQs in the switches; docs/guarantees.md);
  - weight-only: the same tenants and weights, no minimum.
Measured per VF and second: iperf3's receiver goodput x 1514/1448 (frames on the wire). The
dissatisfaction of a second is Σ max(0, G − achieved) / Σ G over the VFs that joined at least
RAMP_S before (vFab's metric, over VFs with demand: all of them are greedy)."""

import json
import subprocess
import time

from fairfabric_mn import runstate, vms
from fairfabric_mn.experiments import allocate, plot
from fairfabric_mn.experiments.fabric_run import ControlledFabric, stop_processes
from fairfabric_mn.experiments.runner import Result, progress

NAME = "vfab-guarantees"
SUMMARY = "vFab minimum-bandwidth guarantees vs a weight-only baseline while VFs join (dissatisfaction, Fig. 12d)"
PAPER = "vFab (SoC prototype), §IV-B and Fig. 12d: dissatisfaction ratio ≈ 0 for vFab, > 40 % (PWC) and > 10 % (ES+Clove)"
NEEDS_ROOT = True
BW = 10
# (tenant, minimum as a share of BW, weight, src server, dst server), in join order
VFS = (("gold", 0.5, 5, 1, 4), ("silver-a1", 0.2, 2, 1, 5), ("silver-b1", 0.2, 2, 2, 4),
       ("silver-a2", 0.2, 2, 1, 6), ("silver-b2", 0.2, 2, 3, 4))
MODES = ("vfab", "weight-only")
RAMP_S = 2
WIRE_PER_PAYLOAD = 1514.0 / 1448.0
PREFIX = "xg"


def guarantee_bps(vf):
    return vf[1] * BW * 1e6


def provision(f, n, vf, with_guarantee):
    """One VF: its tenant (with or without a minimum), its two VMs (10.200.n.S on server S), its session."""
    tid, _, weight, src, dst = vf
    body = {"id": tid, "name": "VF " + tid, "weight": weight}
    if with_guarantee:
        body["minBandwidthBps"] = int(guarantee_bps(vf))
    status, reply = f.ctl.send("POST", "/tenants", body)
    if status != 201:
        raise RuntimeError("POST /tenants %s: %s %s" % (tid, status, reply))
    ends = []
    for s in (src, dst):
        name, ip = "%s-vm%d" % (tid, s), "10.200.%d.%d" % (n, s)
        vms.add_vm(f.ctl, tid, f.host(s), name, ip, "02:ff:00:00:%02x:%02x" % (n, s))
        ends.append((name, ip))
    status, reply = f.ctl.send("POST", "/sessions", {"srcHost": ends[0][0], "dstHost": ends[1][0]})
    if status != 201:
        raise RuntimeError("POST /sessions %s: %s %s" % (tid, status, reply))
    return reply["id"], ends[0][1], ends[1][1]


def run_mode(mode, join_s, steady_s):
    """One run: the VFs join JOIN_S apart; returns per VF its join time, per-second achieved rates
    (on a timeline from the first join) and the last allocation."""
    f = ControlledFabric(PREFIX, BW, leaves=2, spines=2, hosts_per_leaf=3, shim_hosts="all", start_shims=True)
    procs, servers, joined = [], [], []
    total_s = join_s * (len(VFS) - 1) + steady_s
    try:
        t0 = time.time()
        for n, vf in enumerate(VFS, start=1):
            wait = t0 + (n - 1) * join_s - time.time()
            if wait > 0:
                time.sleep(wait)
            sid, sip, dip = provision(f, n, vf, mode == "vfab")
            port = 5300 + n
            srv = f.host(vf[4]).popen(["iperf3", "-s", "-1", "-J", "-B", dip, "-p", str(port)],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            procs.append(srv)
            time.sleep(0.3)
            start = time.time()
            procs.append(f.host(vf[3]).popen(["iperf3", "-c", dip, "-B", sip, "-p", str(port),
                                              "-t", str(max(1, int(round(t0 + total_s - start))))],
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            runstate.extend(f.net, pids=[p.pid for p in procs[-2:]])
            servers.append(srv)
            joined.append((vf, sid, start - t0))
            progress(NAME, "%s: %s joined at %.1f s (minimum %.1f Mbit/s, weight %d)" % (
                mode, vf[0], start - t0, guarantee_bps(vf) / 1e6 if mode == "vfab" else 0, vf[2]))
        allocations = {a["sessionId"]: a["totalBps"] for a in f.ctl.get("/allocations")}
        series = []
        for (vf, sid, start), srv in zip(joined, servers):
            doc = json.loads(srv.communicate(timeout=total_s + 60)[0].decode())
            if "error" in doc:
                raise RuntimeError("iperf3 server of %s: %s" % (vf[0], doc["error"]))
            seconds = [(start + iv["sum"]["end"], iv["sum"]["bits_per_second"] * WIRE_PER_PAYLOAD)
                       for iv in doc["intervals"] if iv["sum"]["seconds"] >= 0.5]  # not the last fraction of a second
            series.append({"tenant": vf[0], "session": sid, "joined_s": round(start, 2),
                           "guarantee_bps": guarantee_bps(vf), "weight": vf[2],
                           "allocated_bps": allocations.get(sid), "achieved": seconds})
        return series
    finally:
        stop_processes(procs)
        f.close()


def dissatisfaction(series, until_s):
    """[(t, ratio)] per whole second t: Σ max(0, G − achieved) / Σ G over VFs joined ≥ RAMP_S before t."""
    out = []
    for t in range(1, int(until_s) + 1):
        short = owed = 0.0
        for vf in series:
            if t - 1 < vf["joined_s"] + RAMP_S:
                continue
            got = [bps for end, bps in vf["achieved"] if t - 1 < end <= t]
            if not got:
                continue
            owed += vf["guarantee_bps"]
            short += max(0.0, vf["guarantee_bps"] - got[0])
        if owed:
            out.append((t, short / owed))
    return out


def problem(series, with_minimums):
    """The steady state (every VF present) in ./fairfabric allocate's format: the servers' cables."""
    c = BW * 1e6
    sessions = []
    for vf, s in zip(VFS, series):
        sess = {"id": s["session"], "weight": vf[2], "paths": [["h%d>fabric" % vf[3], "fabric>h%d" % vf[4]]]}
        if with_minimums:
            sess["minRate"] = guarantee_bps(vf)
        sessions.append(sess)
    cables = sorted({"h%d>fabric" % vf[3] for vf in VFS} | {"fabric>h%d" % vf[4] for vf in VFS})
    return {"links": [{"id": l, "capacity": c} for l in cables], "sessions": sessions}


def run(quick=False):
    join_s, steady_s = (4, 8) if quick else (8, 30)
    res = Result(NAME, PAPER, quick, {
        "topology": "leaf-spine, 2 leaves x 2 spines, 3 servers per leaf, %d Mbit/s every link, p4switch; host shim on every server" % BW,
        "vfs": [{"tenant": t, "minimum_bps": g * BW * 1e6, "weight": w, "src": "h%d" % s, "dst": "h%d" % d}
                for t, g, w, s, d in VFS],
        "join_every_s": join_s, "steady_s": steady_s, "ramp_s": RAMP_S,
        "modes": {"vfab": "tenants with minBandwidthBps (admission, minimum rates, AQs)",
                  "weight-only": "the same weights, no minimum"},
        "measured": "iperf3 receiver goodput per second x 1514/1448 (frames on the wire)",
        "scale": "paper: 10 Gbit/s SoC testbed, VF classes 1/2/5 Gbit/s, a VF every 20 ms; here %d Mbit/s, 0.5/0.2 of a cable, a VF every %d s" % (BW, join_s)})
    res.paper_value("dissatisfaction", {"vFab": "≈ 0", "PWC": "> 0.40", "ES+Clove": "> 0.10"})
    runs = {}
    for mode in MODES:
        progress(NAME, "%s: building the leaf-spine with shims and the controller" % mode)
        runs[mode] = run_mode(mode, join_s, steady_s)
    total_s = join_s * (len(VFS) - 1) + steady_s
    curves = {m: dissatisfaction(runs[m], total_s) for m in MODES}
    steady_from = join_s * (len(VFS) - 1) + RAMP_S
    steady = {}
    for m in MODES:
        tail = [d for t, d in curves[m] if t > steady_from + 1]
        steady[m] = sum(tail) / len(tail) if tail else float("nan")
    exact = {}
    for m in MODES:
        prob = problem(runs[m], m == "vfab")
        res.problem("steady-state-" + m, prob)
        exact[m] = allocate.session_rates(allocate.solve(prob, "exact"))
    res.series("runs", runs)
    res.series("dissatisfaction", {m: [[t, round(d, 4)] for t, d in curves[m]] for m in MODES})
    res.series("steady_dissatisfaction", steady)
    res.series("exact_steady_state_bps", exact)

    for m in MODES:
        gold = runs[m][0]
        got = [bps for end, bps in gold["achieved"] if end > steady_from + 1]
        gold_mean = sum(got) / len(got) if got else 0.0
        res.series("gold_steady_bps_" + m, gold_mean)
        res.row("gold, %s: allocated / achieved (Mbit/s)" % m, "minimum %.1f" % (guarantee_bps(VFS[0]) / 1e6),
                "%.2f / %.2f (exact PF %.2f)" % ((gold["allocated_bps"] or 0) / 1e6, gold_mean / 1e6, exact[m][gold["session"]] / 1e6))
    res.row("dissatisfaction, every VF present", "vFab ≈ 0; PWC > 0.40, ES+Clove > 0.10",
            "vfab %.3f; weight-only %.3f" % (steady["vfab"], steady["weight-only"]))
    res.check("weight-only: the exact allocation gives gold less than its minimum (two priced cables)",
              exact["weight-only"][runs["weight-only"][0]["session"]] < 0.99 * guarantee_bps(VFS[0]),
              "%.2f Mbit/s" % (exact["weight-only"][runs["weight-only"][0]["session"]] / 1e6))
    res.check("vfab: the controller allocates every VF at least its minimum",
              all((s["allocated_bps"] or 0) >= 0.999 * s["guarantee_bps"] for s in runs["vfab"]),
              str([round((s["allocated_bps"] or 0) / 1e6, 3) for s in runs["vfab"]]))
    res.check("dissatisfaction with every VF present: vfab below weight-only", steady["vfab"] < steady["weight-only"],
              "%.3f vs %.3f" % (steady["vfab"], steady["weight-only"]))
    res.finish()

    fig, (ax, bx) = plot.figure(2, width=6.4)
    colors = {"vfab": "C2", "weight-only": "C3"}
    for m in MODES:
        ax.plot([t for t, _ in curves[m]], [d for _, d in curves[m]], marker=".", color=colors[m],
                label="%s (steady %.3f)" % (m, steady[m]))
    for vf, s in zip(VFS, runs["vfab"]):
        ax.axvline(s["joined_s"], color="0.8", lw=0.8)
        ax.text(s["joined_s"], 0.98, " " + vf[0], rotation=90, va="top", fontsize=7, color="0.4",
                transform=ax.get_xaxis_transform())
    ax.axhline(0.0, color="C2", ls=":", lw=1, label="paper: vFab ≈ 0")
    ax.axhline(0.40, color="0.3", ls="--", lw=1, label="paper: PWC > 0.40")
    ax.axhline(0.10, color="0.5", ls="--", lw=1, label="paper: ES+Clove > 0.10")
    ax.set_xlabel("time since the first VF joined (s)")
    ax.set_ylabel("dissatisfaction  Σ max(0, G − achieved) / Σ G")
    ax.set_ylim(-0.02, 0.5)
    ax.set_title("VFs joining every %d s (%d Mbit/s cables)" % (join_s, BW))
    ax.legend(fontsize=7, loc="center right")
    for m, style in (("vfab", "-"), ("weight-only", "--")):
        gold = runs[m][0]
        bx.plot([e for e, _ in gold["achieved"]], [b / 1e6 for _, b in gold["achieved"]], style, color=colors[m],
                label="gold achieved, %s" % m)
    bx.axhline(guarantee_bps(VFS[0]) / 1e6, color="k", lw=1, label="gold's minimum")
    bx.set_xlabel("time since the first VF joined (s)")
    bx.set_ylabel("gold's rate (Mbit/s, per second)")
    bx.set_ylim(0, BW * 1.05)
    bx.set_title("gold: 2 shared cables, minimum %.0f Mbit/s" % (guarantee_bps(VFS[0]) / 1e6))
    bx.legend(fontsize=7, loc="upper right")
    plot.caption(fig, res)
    return res, fig
