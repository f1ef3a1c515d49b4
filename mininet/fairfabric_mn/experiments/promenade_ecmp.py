"""Promenade's multipath sessions against single-path ECMP TCP, through the controller in both of
its routing modes (docs/controller.md, "Routing modes"): `--routing pinned` (the allocator's
per-path rates, tagged by the shims, pinned in the switches: a session may use several paths) and
`--routing ecmp` (each TCP flow takes the uplink the switches' CRC of its 5-tuple picks; the shims
still cap each session at its total). In the full run the pinned fabric then carries the same
sessions coded with RLNC (bin/rlnc, Promenade's own transport, as the paper ran them): the senders'
shims stop and `rlnc send` paces each session's coded packets over its pinned paths at their rates.

The uplinks that leave the senders' part of the fabric are the bottleneck: three sessions from
pod 0 of a k=4 fat-tree over its 4 core uplinks (a quarter of the other links' rate); --quick runs
15 s instead of 30. The exact weighted-PF optimum gives each session a third of the uplinks'
total, more than one uplink carries, so every session needs more than one path; with one path
per flow (ECMP) no session can reach its share, and flows that hash onto the same uplink share it.

Measured per session: iperf3's receiver goodput x 1514/1448 (frames on the wire) after OMIT_S s;
per uplink: the bytes its sending interface transmitted (Linux counters of the switch's veth),
as utilisation of its rate and Jain's index over the uplinks."""

import json
import os
import subprocess
import time

from fairfabric_mn import runstate
from fairfabric_mn.experiments import allocate, plot, rlnc_transfer
from fairfabric_mn.experiments.fabric_run import ControlledFabric, jain_index, stop_processes, tx_bytes
from fairfabric_mn.experiments.runner import Result, progress

NAME = "promenade-ecmp"
SUMMARY = "Promenade multipath sessions (pinned paths) vs single-path ECMP TCP through the controller: per session and aggregate"
PAPER = "Promenade (Chen et al.), §7.5 Figs. 6-8: multipath sessions reach their PF share and a higher total rate than single-path TCP"
NEEDS_ROOT = True
OMIT_S = 3
WIRE_PER_PAYLOAD = 1514.0 / 1448.0
PREFIX = "xe"

# full: k=4 fat-tree, 8 Mbit/s links, 2 Mbit/s aggregation-core cables; pod 0's hosts h1, h2, h3 send to pods 1, 2, 3
# The controller keeps HEADROOM of every link out of allocations (--headroom, docs/controller.md): with
# the uplinks allocated to the full, RLNC's paced packets met standing queues there and one session
# stalled now and then on a full flow-control window (docs/results.md).
FULL = {"kind": "fattree", "params": {"k": 4, "core_bw": 2}, "bw": 8, "uplink_bw": 2, "headroom": 0.03,
        "pairs": ((1, 5), (2, 9), (3, 13)), "seconds": 30, "rlnc": True,
        "uplinks": [("agg00", "core1"), ("agg00", "core2"), ("agg01", "core3"), ("agg01", "core4")]}
# quick: the same fabric, 15 s of traffic per mode (the fabric starts in ~35 s here), no RLNC phase
QUICK = dict(FULL, seconds=15, rlnc=False)


def problem(setup):
    """The allocation problem in ./fairfabric allocate's format, links at what the controller's headroom
    leaves of them: the senders' cables, the uplinks
    (a session's path j crosses uplink j and the far side's link from that core or spine), the
    receivers' cables."""
    usable = 1 - setup["headroom"]
    bw, up = setup["bw"] * 1e6 * usable, setup["uplink_bw"] * 1e6 * usable
    pairs, uplinks = setup["pairs"], setup["uplinks"]
    links = [{"id": "h%d>edge" % s, "capacity": bw} for s, _ in pairs]
    links += [{"id": "%s>%s" % u, "capacity": up} for u in uplinks]
    links += [{"id": "%s>to-h%d" % (u[1], d), "capacity": up} for _, d in pairs for u in uplinks]
    links += [{"id": "edge>h%d" % d, "capacity": bw} for _, d in pairs]
    sessions = [{"id": "h%d>h%d" % (s, d), "weight": 1,
                 "paths": [["h%d>edge" % s, "%s>%s" % u, "%s>to-h%d" % (u[1], d), "edge>h%d" % d] for u in uplinks]}
                for s, d in pairs]
    return {"links": links, "sessions": sessions}


def one_mode(setup, mode, seconds):
    """The fabric with the controller in `mode`; returns allocated, achieved, paths per session and uplink bit/s."""
    pairs = setup["pairs"]
    progress(NAME, "%s: building the %s (%d Mbit/s, uplinks %d) with host shims and the controller (--routing %s)"
             % (mode, setup["kind"], setup["bw"], setup["uplink_bw"], mode))
    f = ControlledFabric(PREFIX, setup["bw"], kind=setup["kind"], shim_hosts="all", start_shims=True,
                         controller_args=["--routing", mode, "--headroom", str(setup["headroom"])], **setup["params"])
    procs = []
    try:
        hosts = sorted({h for pair in pairs for h in pair})
        allocated = f.provision("t", hosts, pairs)
        names = {f.host(s).name: s for s in hosts}
        sessions = {x["id"]: (names[x["srcHost"]], names[x["dstHost"]]) for x in f.ctl.get("/sessions")}
        f.wait_rates_in_force(list(sessions))
        paths = {}
        for a in f.ctl.get("/allocations"):
            pair = sessions.get(a["sessionId"])
            if pair:
                paths["h%d>h%d" % pair] = [[p["pathId"], round(p["rateBps"])] for p in a["paths"] if p["rateBps"] >= 8000]
        progress(NAME, "%s: allocated %s; %d s of greedy TCP" % (
            mode, ", ".join("h%d>h%d %.2f Mbit/s over %d path(s)" % (s, d, allocated[(s, d)] / 1e6, len(paths.get("h%d>h%d" % (s, d), [])))
                            for s, d in pairs), seconds + OMIT_S))
        intfs = f.uplink_interfaces(setup["uplinks"])
        for n, (s, d) in enumerate(pairs):
            procs.append(f.host(d).popen(["iperf3", "-s", "-1", "-p", str(5301 + n)], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL))
        time.sleep(1)
        clients = []
        for n, (s, d) in enumerate(pairs):
            p = f.host(s).popen(["iperf3", "-c", f.host(d).IP(), "-p", str(5301 + n), "-t", str(seconds + OMIT_S),
                                 "-O", str(OMIT_S), "-J"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            clients.append(p)
            procs.append(p)
        runstate.extend(f.net, pids=[p.pid for p in procs])
        time.sleep(OMIT_S)
        before = {u: tx_bytes(i) for u, i in intfs.items()}
        t0 = time.time()
        time.sleep(seconds)
        after = {u: tx_bytes(i) for u, i in intfs.items()}
        uplink_bps = {"%s>%s" % u: 8.0 * (after[u] - before[u]) / (time.time() - t0) for u in intfs}
        shims = {}
        for s, _ in pairs:  # what the senders' shims had in force and sent, per path (explains a shortfall)
            shim = f.shims[f.host(s).name]
            try:
                shims["h%d" % s] = {"rates": json.loads(shim.get("/rates")), "stats": shim.stats()}
            except (OSError, ValueError) as e:
                shims["h%d" % s] = {"error": str(e)}
        achieved, retransmits = {}, {}
        for (s, d), p in zip(pairs, clients):
            doc = json.loads(p.communicate(timeout=seconds + 120)[0].decode())
            if "error" in doc:
                raise RuntimeError("iperf3 h%d>h%d: %s" % (s, d, doc["error"]))
            achieved["h%d>h%d" % (s, d)] = doc["end"]["sum_received"]["bits_per_second"] * WIRE_PER_PAYLOAD
            retransmits["h%d>h%d" % (s, d)] = doc["end"]["sum_sent"].get("retransmits")
        progress(NAME, "%s: achieved %s Mbit/s (TCP retransmits %s); uplinks %s Mbit/s" % (
            mode, ", ".join("%s %.2f" % (k, v / 1e6) for k, v in achieved.items()), retransmits,
            ", ".join("%s %.2f" % (k, v / 1e6) for k, v in uplink_bps.items())))
        out = {"allocated_bps": {"h%d>h%d" % k: v for k, v in allocated.items()}, "achieved_bps": achieved,
               "paths": paths, "uplink_bps": uplink_bps, "tcp_retransmits": retransmits, "sender_shims": shims}
        if mode == "pinned" and setup["rlnc"]:
            out["rlnc"] = rlnc_sessions(f, setup, sessions, allocated, seconds, procs)
        return out
    finally:
        stop_processes(procs)
        f.close()


def rlnc_sessions(f, setup, sessions, allocated, seconds, procs):
    """The same sessions coded with RLNC (Promenade's transport) over the same pinned paths: each sender
    takes the rates table its shim had in force, the senders' shims stop (the coded datagrams carry
    their path tags and `rlnc send` paces them itself), and each sender transfers its allocation x
    seconds of bytes, all at once. Returns per session the transfer's figures and the uplinks' rates
    meanwhile."""
    pairs = setup["pairs"]
    tables = {}
    for s, _ in pairs:
        shim = f.shims[f.host(s).name]
        tables["h%d" % s] = json.loads(shim.get("/rates"))
        shim.stop()
    ids = {pair: sid for sid, pair in sessions.items()}
    logs, receivers, senders = {}, {}, {}
    for s, d in pairs:
        key = "h%d>h%d" % (s, d)
        logs[key] = open(os.path.join(f.workdir, "rlnc-recv-%s.log" % key.replace(">", "-")), "w+")
        receivers[key] = rlnc_transfer.start_receiver(f.host(d), ids[(s, d)], logs[key])
        procs.append(receivers[key])
    time.sleep(1)
    progress(NAME, "pinned + RLNC: the senders' shims stopped; each session sends its allocation x %d s of coded packets" % seconds)
    inputs = {}
    for s, d in pairs:
        inputs[(s, d)] = (rlnc_transfer.write_table(tables["h%d" % s], os.path.join(f.workdir, "rates-h%d.json" % s)),
                          rlnc_transfer.random_file(os.path.join(f.workdir, "rlnc-input-h%d" % s), int(allocated[(s, d)] / 8 * seconds)))
    intfs = f.uplink_interfaces(setup["uplinks"])
    before = {u: tx_bytes(i) for u, i in intfs.items()}
    t0 = time.time()
    for (s, d), (rates, data) in inputs.items():
        key = "h%d>h%d" % (s, d)
        senders[key] = rlnc_transfer.start_sender(f.host(s), rates, ids[(s, d)], data)
        procs.append(senders[key])
    runstate.extend(f.net, pids=[p.pid for p in procs])
    out = {key: rlnc_transfer.finish(senders[key], receivers[key], logs[key], seconds * 6 + 60) for key in senders}
    elapsed = time.time() - t0
    after = {u: tx_bytes(i) for u, i in intfs.items()}
    for log in logs.values():
        log.close()
    progress(NAME, "pinned + RLNC: on the fabric %s Mbit/s (goodput %s)" % (
        ", ".join("%s %.2f" % (k, v["fabric_bps"] / 1e6) for k, v in out.items()),
        ", ".join("%.2f" % (v["goodput_bps"] / 1e6) for v in out.values())))
    return {"sessions": out, "uplink_bps": {"%s>%s" % u: 8.0 * (after[u] - before[u]) / elapsed for u in intfs}}


def run(quick=False):
    setup = QUICK if quick else FULL
    seconds = setup["seconds"]
    n_up, up = len(setup["uplinks"]), setup["uplink_bw"]
    res = Result(NAME, PAPER, quick, {
        "topology": "k=4 fat-tree, 20 p4switch processes, 16 hosts, %d Mbit/s links, %d Mbit/s aggregation-core cables; "
                    "a host shim on every host" % (setup["bw"], up),
        "bottleneck": "the %d uplinks %s, %d Mbit/s each" % (n_up, ", ".join("%s>%s" % u for u in setup["uplinks"]), up),
        "sessions": "one tenant, weights 1; %s, one greedy iperf3 TCP flow (CUBIC) each" % ", ".join("h%d->h%d" % p for p in setup["pairs"]),
        "modes": "controller --routing pinned (Promenade: per-path rates, pinned paths) and --routing ecmp "
                 "(CRC32 of the 5-tuple per switch; the shims cap each session at its total); one fabric each"
                 + ("; then on the pinned fabric the same sessions with RLNC (bin/rlnc, window 8, 1 KB symbols; the "
                    "allocation x the seconds of bytes each, all at once; rate = frames on the fabric / the sender's time)"
                    if setup["rlnc"] else ""),
        "headroom": "%g of every link kept out of allocations (controller --headroom); the exact PF below is of what is "
                    "left" % setup["headroom"],
        "seconds": seconds, "omitted_s": OMIT_S,
        "measured": "per session: iperf3 receiver goodput x 1514/1448 (frames on the wire) after the first %d s; "
                    "per uplink: tx bytes of the switch's interface over the same %d s" % (OMIT_S, seconds),
        "scale": "paper: Mininet 2.0, k=4 fat-tree of 1 Mbit/s links, UDP, 10 sessions x 2 paths; here p4switch on 2 "
                 "shared cores, %d/%d Mbit/s, TCP, %d sessions whose PF share needs more than one path" % (setup["bw"], up, len(setup["pairs"]))})
    res.paper_value("fig7", "multipath sessions get their weighted PF share; single-path TCP (Hedera) fails where flows compete")
    res.paper_value("fig8", "Promenade utilises links better and reaches a higher total rate than single-path TCP")
    res.paper_value("numbers", "none in the text (the figures are not in our copy: digest §7.5)")
    prob = problem(setup)
    res.problem("uplinks", prob)
    exact = allocate.session_rates(allocate.solve(prob, "exact"))
    res.series("exact_pf_bps", exact)
    out = {mode: one_mode(setup, mode, seconds) for mode in ("pinned", "ecmp")}
    res.series("modes", out)
    ids = ["h%d>h%d" % p for p in setup["pairs"]]
    total = {m: sum(out[m]["achieved_bps"].values()) for m in out}
    worst = {m: min(out[m]["achieved_bps"].values()) for m in out}
    util = {m: [out[m]["uplink_bps"]["%s>%s" % u] / (up * 1e6) for u in setup["uplinks"]] for m in out}
    jfi = {m: jain_index(util[m]) for m in out}
    res.series("aggregate_bps", total)
    res.series("uplink_jain_index", jfi)
    rlnc = out["pinned"].get("rlnc")
    for sid in ids:
        res.row("%s Mbit/s (exact PF %.2f, headroom %g)" % (sid, exact[sid] / 1e6, setup["headroom"]), "its PF share (Fig. 7)", "pinned %.2f over %d path(s), ECMP %.2f%s" % (
            out["pinned"]["achieved_bps"][sid] / 1e6, len(out["pinned"]["paths"].get(sid, [])), out["ecmp"]["achieved_bps"][sid] / 1e6,
            ", pinned + RLNC %.2f (%+.1f%%)" % (rlnc["sessions"][sid]["fabric_bps"] / 1e6, 100 * (rlnc["sessions"][sid]["fabric_bps"] / exact[sid] - 1))
            if rlnc else ""))
    res.row("aggregate Mbit/s (uplinks: %d)" % (n_up * up), "Promenade higher (Fig. 8)",
            "pinned %.2f, ECMP %.2f (ECMP/pinned %.2f)" % (total["pinned"] / 1e6, total["ecmp"] / 1e6, total["ecmp"] / total["pinned"]))
    res.row("uplink utilisation, Jain's index", "Promenade better (Fig. 8, as a CDF)",
            "pinned %.3f (%s), ECMP %.3f (%s)" % (jfi["pinned"], " ".join("%.2f" % x for x in util["pinned"]),
                                                   jfi["ecmp"], " ".join("%.2f" % x for x in util["ecmp"])))
    tol = 1e-3 * up * 1e6
    res.check("the controller's allocation is the exact weighted PF in both modes",
              all(abs(out[m]["allocated_bps"][s] - exact[s]) <= tol for s in ids for m in out),
              str({m: [round(out[m]["allocated_bps"][s] / 1e6, 3) for s in ids] for m in out}))
    res.check("pinned: some session is split over more than one path (no single path carries its PF share)",
              any(len(out["pinned"]["paths"].get(s, [])) >= 2 for s in ids), str(out["pinned"]["paths"]))
    res.check("multipath carries more in aggregate than single-path ECMP",
              total["pinned"] > total["ecmp"], "%.2f vs %.2f Mbit/s" % (total["pinned"] / 1e6, total["ecmp"] / 1e6))
    res.check("the worst-off session does better with multipath than with ECMP",
              worst["pinned"] > worst["ecmp"], "%.2f vs %.2f Mbit/s" % (worst["pinned"] / 1e6, worst["ecmp"] / 1e6))
    res.check("the uplinks are more evenly used with multipath (Jain's index)", jfi["pinned"] >= jfi["ecmp"],
              "%.3f vs %.3f" % (jfi["pinned"], jfi["ecmp"]))
    if rlnc:
        res.row("pinned + RLNC (Promenade's transport): uplinks Mbit/s", "-", " ".join(
            "%.2f" % (v / 1e6) for v in rlnc["uplink_bps"].values()))
        res.check("pinned + RLNC: every session within 5% of its exact PF share (frames on the fabric)",
                  all(abs(rlnc["sessions"][s]["fabric_bps"] / exact[s] - 1) <= 0.05 for s in ids),
                  " ".join("%s %+.1f%%" % (s, 100 * (rlnc["sessions"][s]["fabric_bps"] / exact[s] - 1)) for s in ids))
    res.finish()

    fig, (ax, bx) = plot.figure(2, width=6.2)
    xs = list(range(len(ids)))
    bars = [("pinned multipath, TCP", "C0", [out["pinned"]["achieved_bps"][s] for s in ids])]
    if rlnc:
        bars.append(("pinned multipath, RLNC (Promenade)", "C2", [rlnc["sessions"][s]["fabric_bps"] for s in ids]))
    bars.append(("ECMP, one path per flow", "C1", [out["ecmp"]["achieved_bps"][s] for s in ids]))
    width = 0.8 / len(bars)
    for n, (label, color, values) in enumerate(bars):
        ax.bar([x + (n - (len(bars) - 1) / 2) * width for x in xs], [v / 1e6 for v in values], width, label=label, color=color)
    ax.scatter(xs, [exact[s] / 1e6 for s in ids], marker="_", s=900, color="red", zorder=3, linewidths=2,
               label="exact PF share (the paper's target), links less %g %% headroom" % (100 * setup["headroom"]))
    ax.set_xticks(xs, ids)
    ax.set_ylabel("achieved (Mbit/s, frames on the wire)")
    ax.set_title("per session; aggregate: pinned TCP %.2f,%s ECMP %.2f of %d" % (
        total["pinned"] / 1e6, " RLNC %.2f," % (sum(v["fabric_bps"] for v in rlnc["sessions"].values()) / 1e6) if rlnc else "",
        total["ecmp"] / 1e6, n_up * up), fontsize=9)
    ax.set_ylim(0, max(exact.values()) / 1e6 * 1.5)
    ax.legend(fontsize=7, loc="upper right")
    ux = list(range(n_up))
    ubars = [("pinned, TCP (JFI %.3f)" % jfi["pinned"], "C0", util["pinned"])]
    if rlnc:
        rutil = [rlnc["uplink_bps"]["%s>%s" % u] / (up * 1e6) for u in setup["uplinks"]]
        ubars.append(("pinned, RLNC (JFI %.3f)" % jain_index(rutil), "C2", rutil))
    ubars.append(("ECMP (JFI %.3f)" % jfi["ecmp"], "C1", util["ecmp"]))
    width = 0.8 / len(ubars)
    for n, (label, color, values) in enumerate(ubars):
        bx.bar([x + (n - (len(ubars) - 1) / 2) * width for x in ux], values, width, label=label, color=color)
    bx.axhline(1.0, color="red", ls="--", lw=1, label="uplink rate (%d Mbit/s)" % up)
    bx.set_xticks(ux, ["%s>%s" % u for u in setup["uplinks"]], fontsize=8)
    bx.set_ylabel("uplink utilisation (tx / rate)")
    bx.set_ylim(0, 1.35)
    bx.set_title("bottleneck uplinks", fontsize=9)
    bx.legend(fontsize=7, loc="upper right")
    plot.caption(fig, res)
    return res, fig
