"""Promenade, weighted proportional fairness fabric-wide through the controller: the k=4 fat-tree
of p4switch processes, a host shim on every host, the controller allocating (exact weighted PF)
and publishing the rates to the shims over Kafka.

Four tenants of weights 1:2:3:4 each have a VM on two sending servers (h1 in pod 0, h5 in pod 1)
and on two receiving servers (h9 in pod 2, h13 in pod 3); every tenant runs one session per
server pair (h1 -> h9, h5 -> h13), greedy TCP (iperf3). The VMs of a server share its cable
(docs/controller.md, "Tenants' hosts are VMs"), so each sending server's link is a bottleneck that
the weights split: 1/10, 2/10, 3/10, 4/10 of BW. Measured per session: iperf3's receiver goodput
over the run (after OMIT_S s) x 1514/1448 (frames on the wire, as the allocation counts), against
the allocation (GET /allocations). The problem is recorded in ./fairfabric allocate's format."""

import json
import subprocess
import tempfile
import time

from fairfabric_mn import runstate, vms
from fairfabric_mn.experiments import allocate, plot
from fairfabric_mn.experiments.fabric_run import ControlledFabric, stop_processes
from fairfabric_mn.experiments.runner import Result, progress

NAME = "promenade-fabric"
SUMMARY = "Promenade weights 1:2:3:4 on the k=4 fat-tree through the controller and host shims: achieved vs exact PF"
PAPER = "Promenade (Chen et al.), Figs. 5-9: weighted proportional shares on a k=4 fat-tree"
NEEDS_ROOT = True
BW = 10
WEIGHTS = (1, 2, 3, 4)
SERVER_PAIRS = ((1, 9), (5, 13))
OMIT_S = 3
WIRE_PER_PAYLOAD = 1514.0 / 1448.0
PREFIX = "xp"


def call(ctl, method, path, body, expect):
    status, reply = ctl.send(method, path, body)
    if status != expect:
        raise RuntimeError("%s %s: %s %s" % (method, path, status, reply))
    return reply


def provision(f):
    """Tenants, their VMs (10.200.T.S on server S) and sessions; returns [(session id, tenant, weight, src server, dst server, src ip, dst ip)]."""
    out = []
    for t, w in enumerate(WEIGHTS, start=1):
        tid = "w%d" % t
        call(f.ctl, "POST", "/tenants", {"id": tid, "name": "Tenant weight %d" % w, "weight": w}, 201)
        vm = {}
        for pair in SERVER_PAIRS:
            for s in pair:
                name, ip = "%s-vm%d" % (tid, s), "10.200.%d.%d" % (t, s)
                vms.add_vm(f.ctl, tid, f.host(s), name, ip, "02:ff:00:00:%02x:%02x" % (t, s))
                vm[s] = (name, ip)
        for src, dst in SERVER_PAIRS:
            body = call(f.ctl, "POST", "/sessions", {"srcHost": vm[src][0], "dstHost": vm[dst][0]}, 201)
            out.append((body["id"], tid, w, src, dst, vm[src][1], vm[dst][1]))
    return out


def problem(sessions):
    """The bottlenecks in ./fairfabric allocate's format: the servers' cables (the fat-tree between
    them has full bisection: every other link carries at most the sessions of one server pair)."""
    c = BW * 1e6
    links = [{"id": "h%d>fabric" % s, "capacity": c} for s, _ in SERVER_PAIRS]
    links += [{"id": "fabric>h%d" % d, "capacity": c} for _, d in SERVER_PAIRS]
    return {"links": links, "sessions": [{"id": sid, "weight": w, "paths": [["h%d>fabric" % src, "fabric>h%d" % dst]]}
                                         for sid, _, w, src, dst, _, _ in sessions]}


def run(quick=False):
    seconds = 12 if quick else 30
    res = Result(NAME, PAPER, quick, {
        "topology": "k=4 fat-tree, 20 p4switch processes, 16 hosts, %d Mbit/s every link; host shim on every host" % BW,
        "tenants": "weights %s; a VM of each on servers h1, h5 (senders), h9, h13 (receivers)" % (WEIGHTS,),
        "sessions": "per tenant h1 -> h9 and h5 -> h13, one greedy iperf3 TCP flow each",
        "seconds": seconds, "omitted_s": OMIT_S,
        "measured": "iperf3 receiver goodput x 1514/1448 (frames on the wire) over the run after the first %d s" % OMIT_S,
        "scale": "paper: 1 Mbit/s links in a k=4 fat-tree (simulation); here 10 Mbit/s, p4switch, 2 shared cores"})
    res.paper_value("shares", "proportional to the weights (1:2:3:4 here)")
    progress(NAME, "building the k=4 fat-tree with shims and the controller")
    f = ControlledFabric(PREFIX, BW, kind="fattree", k=4, shim_hosts="all", start_shims=True)
    procs = []
    try:
        sessions = provision(f)
        ids = [s[0] for s in sessions]
        deadline = time.time() + 60
        while True:
            alloc = {a["sessionId"]: a for a in f.ctl.get("/allocations") if a["sessionId"] in ids}
            if len(alloc) == len(ids) and all(a["totalBps"] > 0 for a in alloc.values()):
                break
            if time.time() > deadline:
                raise RuntimeError("no allocation for every session within 60 s:\n" + f.ctl.log_tail())
            time.sleep(0.5)
        f.wait_rates_in_force(ids)
        progress(NAME, "allocated: %s; %d s of greedy TCP" % (
            ", ".join("%s %s %.2f" % (s[1], "h%d>h%d" % (s[3], s[4]), alloc[s[0]]["totalBps"] / 1e6) for s in sessions), seconds))
        clients = []
        for n, (sid, tid, w, src, dst, sip, dip) in enumerate(sessions):
            port = 5301 + n
            procs.append(f.host(dst).popen(["iperf3", "-s", "-1", "-B", dip, "-p", str(port)],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(1)
        for n, (sid, tid, w, src, dst, sip, dip) in enumerate(sessions):
            p = f.host(src).popen(["iperf3", "-c", dip, "-B", sip, "-p", str(5301 + n), "-t", str(seconds + OMIT_S),
                                   "-O", str(OMIT_S), "-J"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            clients.append(p)
            procs.append(p)
        runstate.extend(f.net, pids=[p.pid for p in procs])
        achieved = []
        for (sid, tid, *_), p in zip(sessions, clients):
            doc = json.loads(p.communicate(timeout=seconds + 120)[0].decode())
            if "error" in doc:
                raise RuntimeError("iperf3 of %s: %s" % (tid, doc["error"]))
            achieved.append(doc["end"]["sum_received"]["bits_per_second"] * WIRE_PER_PAYLOAD)
        allocated = [alloc[s[0]]["totalBps"] for s in sessions]
        paths = [[(p["pathId"], p["rateBps"]) for p in alloc[s[0]]["paths"]] for s in sessions]
    finally:
        stop_processes(procs)
        f.close()
    prob = problem(sessions)
    res.problem("sending-servers", prob)
    exact = allocate.session_rates(allocate.solve(prob, "exact"))
    res.series("sessions", [{"id": s[0], "tenant": s[1], "weight": s[2], "src": "h%d" % s[3], "dst": "h%d" % s[4],
                             "allocated_bps": a, "paths": pa, "achieved_bps": m, "exact_pf_bps": exact[s[0]]}
                            for s, a, pa, m in zip(sessions, allocated, paths, achieved)])
    errs = [(m - a) / a for a, m in zip(allocated, achieved)]
    for s, a, m, e in zip(sessions, allocated, achieved, errs):
        res.row("%s h%d->h%d (w=%d) Mbit/s" % (s[1], s[3], s[4], s[2]), "%.2f (w/10 of C)" % (s[2] * BW / 10.0),
                "allocated %.2f, achieved %.2f (%+.1f%%)" % (a / 1e6, m / 1e6, e * 100))
    res.row("worst error", "±5% (the issue's target)", "%+.1f%%" % (100 * max(errs, key=abs)))
    res.check("the controller's allocation is the exact weighted PF (w/10 of each sending server's cable)",
              all(abs(a - exact[s[0]]) <= 1e-3 * BW * 1e6 for s, a in zip(sessions, allocated)),
              str([round(a / 1e6, 3) for a in allocated]))
    for src, _ in SERVER_PAIRS:
        mine = [m for s, m in zip(sessions, achieved) if s[3] == src]
        res.check("server h%d: achieved shares follow the weights (each above the lighter one's)" % src,
                  all(x < y for x, y in zip(mine, mine[1:])), str([round(x / 1e6, 2) for x in mine]))
    res.series("errors", errs)
    res.series("within_5_percent", all(abs(e) <= 0.05 for e in errs))
    res.finish()

    fig, (ax,) = plot.figure(1, width=9)
    xs = list(range(len(sessions)))
    ax.bar([x - 0.2 for x in xs], [a / 1e6 for a in allocated], 0.4, label="allocated by the controller (exact PF)", color="C0")
    ax.bar([x + 0.2 for x in xs], [m / 1e6 for m in achieved], 0.4, label="achieved (iperf3 goodput x 1514/1448)", color="C2")
    ax.scatter(xs, [s[2] * BW / 10.0 for s in sessions], marker="_", s=500, color="red", zorder=3, label="paper: w/Σw of the bottleneck")
    ax.set_xticks(xs, ["%s\nh%d>h%d" % (s[1], s[3], s[4]) for s in sessions], fontsize=8)
    ax.set_ylabel("session rate (Mbit/s)")
    ax.set_title("4 tenants, weights 1:2:3:4, on the k=4 fat-tree (%d Mbit/s links)" % BW)
    ax.set_ylim(0, BW * 0.6)
    ax.legend(fontsize=8, loc="upper left")
    plot.caption(fig, res)
    return res, fig
