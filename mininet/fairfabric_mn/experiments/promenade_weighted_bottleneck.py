"""Promenade, weighted fairness on one bottleneck, achieved vs allocated: three senders with
weights 1:2:3 to one receiver whose link (a Linux bridge port shaped with tbf to CAPACITY) is
the shared bottleneck. The exact weighted-PF allocation (./fairfabric allocate --mode exact:
C/6, 2C/6, 3C/6) is published to the senders' host shims, which enforce it; each session's
achieved rate is measured at the receiver. Baseline in the same run: the same TCP senders
without shims (plain TCP sharing the bottleneck, no weights). The paper's Figs. 5-9 show
weighted shares without numbers; the reference is the allocation itself (the issue: within 5%)."""

import json
import os
import signal
import subprocess
import time

from mininet.net import Mininet
from mininet.nodelib import LinuxBridge
from mininet.topo import Topo

from fairfabric_mn import runstate, shim
from fairfabric_mn.experiments import allocate, plot
from fairfabric_mn.experiments.runner import Result, progress

NAME = "promenade-weighted-bottleneck"
SUMMARY = "Promenade weights 1:2:3 on one bottleneck: achieved (host shims) vs exact PF, vs plain TCP"
PAPER = "Promenade (Chen et al.), Figs. 5-9: weighted proportional shares (no numbers in the text)"
NEEDS_ROOT = True
CAPACITY_MBPS = 12
WEIGHTS = (1, 2, 3)
# The rates are read in steady state, from OMIT_S to OMIT_S + seconds of sending: counting to the end of the
# senders' run missed what their socket buffers still held when the sinks stopped (5-7 % at 2-6 Mbit/s).
OMIT_S = 2
WIRE_PER_PAYLOAD = 1514.0 / 1448.0  # frames on the wire per TCP payload byte (MSS 1448, timestamps)
PREFIX = "xw" + "".join("0123456789abcdefghijklmnopqrstuvwxyz"[(os.getpid() // 36 ** k) % 36] for k in (1, 0))


class Star(Topo):
    def build(self):
        sw = self.addSwitch(PREFIX + "s1")
        for i in range(1, 5):
            self.addLink(self.addHost("%sh%d" % (PREFIX, i)), sw)


def problem():
    c = CAPACITY_MBPS * 1e6
    links = [{"id": "s1>h1", "capacity": c}] + [{"id": "h%d>s1" % i, "capacity": c} for i in (2, 3, 4)]
    sessions = [{"id": "h%d-h1" % i, "weight": w, "paths": [["h%d>s1" % i, "s1>h1"]]} for i, w in zip((2, 3, 4), WEIGHTS)]
    return {"links": links, "sessions": sessions}


def snapshot(sinks):
    """Bytes each sink has read so far (shimctl sink prints its counts on SIGUSR1)."""
    for p in sinks:
        p.send_signal(signal.SIGUSR1)
    return [sum(json.loads(p.stdout.readline().decode()).values()) for p in sinks]


def measure(rates_bps, seconds):
    """Achieved rate (bit/s of frames) of each sender -> receiver session; rates_bps None: no shims."""
    net = Mininet(topo=Star(), switch=LinuxBridge, controller=None, autoSetMacs=True)
    net.start()
    runstate.register(net)
    shims, sinks = None, []
    try:
        recv, senders = net.hosts[0], net.hosts[1:]
        bott = PREFIX + "s1-eth1"  # the bridge's port towards the receiver
        out = subprocess.run(["tc", "qdisc", "replace", "dev", bott, "root", "tbf", "rate", "%dmbit" % CAPACITY_MBPS,
                              "burst", "30kb", "latency", "100ms"], capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("tc on %s: %s" % (bott, out.stderr))
        if rates_bps is not None:
            shims = shim.ShimSet(net, hosts=senders, topic_suffix=shim.unique_suffix(), period="500ms")
            for s, r in zip(senders, rates_bps):
                shims.publish(s.name, shim.table(s.name, 1, [("w-" + s.name, recv.IP(), [(0, r)])]))
            for s in senders:
                shims[s.name].wait_version(1)
        for k in range(len(senders)):
            p = recv.popen([shim.binary("shimctl"), "sink", "-listen", ":%d" % (5401 + k), "-dur", "%ds" % (seconds + 30)],
                           stderr=subprocess.STDOUT)
            if "listening" not in p.stdout.readline().decode():
                raise RuntimeError("sink did not start")
            sinks.append(p)
        blasts = [s.popen([shim.binary("shimctl"), "blast", "-dst", "%s:%d" % (recv.IP(), 5401 + k),
                           "-dur", "%ds" % (OMIT_S + seconds + 1)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for k, s in enumerate(senders)]
        time.sleep(OMIT_S)
        t0, start = time.time(), snapshot(sinks)
        time.sleep(seconds)
        t1, end = time.time(), snapshot(sinks)
        for b in blasts:
            b.wait(timeout=seconds + 60)
        got = [(e - b) * 8 * WIRE_PER_PAYLOAD / (t1 - t0) for b, e in zip(start, end)]
        for p in sinks:
            p.send_signal(signal.SIGTERM)
            p.communicate(timeout=10)
        sinks = []
        return got
    finally:
        for p in sinks:
            p.kill()
            p.wait()
        if shims:
            shims.stop()
        net.stop()
        runstate.unregister(net)


def run(quick=False):
    seconds = 6 if quick else 15
    prob = problem()
    res = Result(NAME, PAPER, quick, {"topology": "star: 3 senders + 1 receiver on one Linux bridge",
                                      "bottleneck": "bridge port to the receiver, tbf %d Mbit/s (burst 30 kB, latency 100 ms)" % CAPACITY_MBPS,
                                      "weights": WEIGHTS, "seconds": seconds,
                                      "measured": "bytes read by the receiver's sinks from %d s to %d s after the senders started x 1514/1448 (frames on the wire) / seconds" % (OMIT_S, OMIT_S + seconds),
                                      "scale": "paper: 1 Mbit/s links in a k=4 fat-tree; here one 12 Mbit/s bottleneck"})
    res.problem("bottleneck", prob)
    res.paper_value("shares", "proportional to the weights 1:2:3")
    progress(NAME, "allocating (./fairfabric allocate --mode exact)")
    alloc = allocate.session_rates(allocate.solve(prob, "exact"))
    ids = [s["id"] for s in prob["sessions"]]
    allocated = [alloc[i] for i in ids]
    progress(NAME, "with shims: %s Mbit/s for %d s" % (", ".join("%.2f" % (r / 1e6) for r in allocated), seconds))
    achieved = measure(allocated, seconds)
    progress(NAME, "baseline, plain TCP without shims, %d s" % seconds)
    baseline = measure(None, seconds)
    res.series("sessions", ids)
    res.series("allocated_bps", allocated)
    res.series("achieved_bps", achieved)
    res.series("baseline_tcp_bps", baseline)
    errs = [(a - b) / b for a, b in zip(achieved, allocated)]
    for i, w, al, ac, bl, e in zip(ids, WEIGHTS, allocated, achieved, baseline, errs):
        res.row("%s (w=%d) Mbit/s" % (i, w), "%.2f (w/6 of C)" % (w * CAPACITY_MBPS / 6.0),
                "allocated %.2f, achieved %.2f (%+.1f%%), plain TCP %.2f" % (al / 1e6, ac / 1e6, e * 100, bl / 1e6))
    res.row("total Mbit/s", "%d" % CAPACITY_MBPS, "achieved %.2f, plain TCP %.2f" % (sum(achieved) / 1e6, sum(baseline) / 1e6))
    res.check("exact allocation is C*w/6", all(abs(a - w * CAPACITY_MBPS * 1e6 / 6) < 1e-3 * CAPACITY_MBPS * 1e6 for a, w in zip(allocated, WEIGHTS)),
              str([round(a / 1e6, 4) for a in allocated]))
    res.check("achieved shares follow the weights: each session above the lighter one's",
              achieved[0] < achieved[1] < achieved[2], str([round(a / 1e6, 2) for a in achieved]))
    bound = 0.10 if quick else 0.05  # a quick run's 6 s on a loaded CI machine: the direction, with room
    res.check("achieved within %d%% of allocated (the issue's 5%%; quick runs 10%%)" % round(bound * 100),
              max(abs(e) for e in errs) <= bound, "errors %s" % ["%+.1f%%" % (e * 100) for e in errs])
    res.finish()

    fig, (ax,) = plot.figure(1, width=7.5)
    xs = list(range(len(ids)))
    ax.bar([x - 0.27 for x in xs], [a / 1e6 for a in allocated], 0.27, label="allocated, exact PF (= paper's weighted share)", color="C0")
    ax.bar(xs, [a / 1e6 for a in achieved], 0.27, label="achieved with host shims", color="C2")
    ax.bar([x + 0.27 for x in xs], [b / 1e6 for b in baseline], 0.27, label="plain TCP, no shims (baseline)", color="0.6")
    ax.scatter(xs, [w * CAPACITY_MBPS / 6.0 for w in WEIGHTS], marker="_", s=900, color="red", zorder=3,
               label="paper: share w/6 of the bottleneck")
    ax.set_xticks(xs, ["%s\nweight %d" % (i, w) for i, w in zip(ids, WEIGHTS)])
    ax.set_ylabel("session rate (Mbit/s, frames on the wire)")
    ax.set_title("Weights 1:2:3 on one %d Mbit/s bottleneck" % CAPACITY_MBPS)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_ylim(0, CAPACITY_MBPS * 1.05)
    plot.caption(fig, res)
    return res, fig
