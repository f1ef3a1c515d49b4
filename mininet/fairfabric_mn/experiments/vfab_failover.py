"""vFab's resilient reachability (Fig. 14): how fast a session leaves a failed link, for fail-stop
and gray (5 % loss) failures, with fairfabric's failure handling (docs/guarantees.md, "Failure
handling": the switches' echo detection, the controller's dead paths on ff.ctl.deadpaths.v1, the
sender's host shim moving the session, then the re-allocation without the link).

This reuses the project's benchmark rather than a second harness: `./fairfabric bench failover
REPEATS GRAY_REPEATS` runs the Mininet JUnit test FailoverFabricTest (4x4 leaf-spine at 10 Mbit/s,
a shim on every host, the controller's default 250 ms echoes; one session fobh1 -> fobh13 capped
at 6 Mbit/s carrying UDP at 8 Mbit/s; the leaf uplink of its busiest path fails: fail-stop by
cutting the cable (Mininet takes both interfaces down; p4switch sees the carrier go and its
pipeline fails the port at once, docs/pipeline.md "Port down"), gray by 5 % loss in the switch's
traffic manager; the baseline "echo-alone fail-stop" lines, same link as a black hole found by
missed echoes only, are printed by the bench and not parsed here) and prints one line per failure. This module parses those lines into the result document and
draws them. Per failure, from the moment the link failed: declared (the controller's echo
detection: the baseline every SDN fabric has), shim moved (the session off the dead path at the
sender), re-allocated (the controller's new rates in force: what restoration would take without
the shims), traffic restored (fail-stop: the receiver back at >= 90 % of the new allocation for
300 ms after the outage; since session 10 the outage is the longest gap between the session's
packets at the receiver, from tcpdump)."""

import os
import re
import subprocess
import threading
import time

from fairfabric_mn.experiments import plot
from fairfabric_mn.experiments.runner import ROOT, Result, pct, progress

NAME = "vfab-failover"
SUMMARY = "vFab failover: fail-stop and gray (5 % loss) failures, session moved by the host shim vs the controller's re-allocation"
PAPER = "vFab, §V-B Fig. 14: the edge migrates a VM-pair off a fail-stop or gray-failed link swiftly, without the control plane"
NEEDS_ROOT = True
ECHO_MS = 250  # the controller's default echo interval (Controller.ECHO_INTERVAL_MS), which the benchmark uses
K_FAIL = 3  # consecutive missed echoes / bad batches before a port fails (docs/pipeline.md)
FREEZE_MS = 50  # the shim's freeze window, at most (docs/guarantees.md)
BATCH_PACKETS = 1000  # packets per loss batch of the failure detection (docs/pipeline.md)
FRAME_BYTES = 642  # the benchmark's UDP frames: 600 B payload + UDP, IP and Ethernet headers

LINE = re.compile(r"^\s*(fail-stop|gray 5 %) (\d+): spine (\d+) \(path (\d+)\): declared (\d+) ms, shim moved (\d+) ms, "
                  r"re-allocated by (\d+) ms, traffic restored (n/a \(loss, no outage\)|\d+ ms) \(new allocation ([\d.]+) Mbit/s\)"
                  r" after the failure \(load ([\d.]+) ([\d.]+) ([\d.]+)")
FALSE = re.compile(r"other links declared failed so far: (\d+)")


def parse(text):
    """[{kind, n, spine, path, declared_ms, moved_ms, reallocated_ms, restored_ms or None, allocation_mbps, load}] and
    the last count of other links declared failed (false failures), from the benchmark's output."""
    failures, false = [], None
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            g = m.groups()
            failures.append({"kind": "fail-stop" if g[0] == "fail-stop" else "gray", "n": int(g[1]), "spine": int(g[2]),
                             "path": int(g[3]), "declared_ms": int(g[4]), "moved_ms": int(g[5]), "reallocated_ms": int(g[6]),
                             "restored_ms": None if g[7].startswith("n/a") else int(g[7].split()[0]),
                             "allocation_mbps": float(g[8]), "load": [float(g[9]), float(g[10]), float(g[11])]})
        f = FALSE.search(line)
        if f:
            false = int(f.group(1))
    return failures, false



def follow(path, since, stop):
    """Shows the benchmark's per-failure lines as they come (it prints them only when it ends):
    its Maven log, which it truncates when Maven starts, once written after `since`."""
    pos = 0
    while not stop.wait(2):
        try:
            if os.path.getmtime(path) < since:
                continue
            with open(path) as fh:
                fh.seek(pos)
                chunk = fh.read()
        except OSError:
            continue
        chunk = chunk[:chunk.rfind("\n") + 1]  # whole lines only; the rest next time
        pos += len(chunk.encode())
        for line in chunk.splitlines():
            if line.startswith("[mininet]"):
                progress(NAME, line[len("[mininet] "):])


def run(quick=False):
    repeats, gray = (2, 1) if quick else (10, 3)
    res = Result(NAME, PAPER, quick, {
        "harness": "./fairfabric bench failover %d %d (FailoverFabricTest)" % (repeats, gray),
        "topology": "leaf-spine 4 leaves x 4 spines x 4 hosts, p4switch processes, 10 Mbit/s links, a host shim on every host",
        "session": "fobh1 -> fobh13 (leaf 1 -> leaf 4), demand 6 Mbit/s, UDP at 8 Mbit/s offered (600 B); allocated on one path",
        "failures": "%d fail-stop (cable cut: carrier lost on both ends) and %d gray (5 %% loss in p4switch's TM) of the busiest path's leaf uplink"
                    % (repeats, gray),
        "detection": "echo every %d ms (the controller's default), a port fails after %d missed echoes or bad loss batches"
                     % (ECHO_MS, K_FAIL),
        "measured": "from the moment the link failed: declared (controller event), shim moved (its /failover), re-allocated "
                    "(new rates at the shim), restored (receiver rx bytes in 100 ms windows, >= 90 % of the new allocation "
                    "for 300 ms after a < 50 % outage; fail-stop only)",
        "scale": "paper: 10G SmartNICs and Tofino, echo every 100 us; here p4switch on 2 shared cores, 10 Mbit/s, echo every %d ms" % ECHO_MS})
    res.paper_value("fig14", "fail-stop for 3 s: TCP stops, MPTCP shifts after several RTOs, vFab migrates swiftly; gray 5 %: "
                             "TCP falls to ~50 Mbps of 10 Gbps, vFab migrates on the core's failure signal; no vFab recovery time in numbers")
    res.paper_value("bound_ms", {"formula": "echo interval x K_fail + 2 T_e + freeze window (digest §9, test 21)",
                                 "paper_regime_ms": 0.1 * K_FAIL + FREEZE_MS, "fail_stop_here_ms": ECHO_MS * K_FAIL + FREEZE_MS,
                                 "gray_here_ms": round(gray_bound_ms())})
    progress(NAME, "./fairfabric bench failover %d %d (Mininet JUnit: ~%d min here)" % (repeats, gray, 2 + (repeats + gray) // 3))
    proc = subprocess.Popen([os.path.join(ROOT, "fairfabric"), "bench", "failover", str(repeats), str(gray)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    stop = threading.Event()
    threading.Thread(target=follow, args=(os.path.join(ROOT, ".run", "logs", "bench-failover.log"), time.time(), stop), daemon=True).start()
    lines = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
    rc = proc.wait()
    stop.set()
    progress(NAME, "benchmark exit %d" % rc)
    text = "\n".join(lines)
    failures, false = parse(text)
    res.series("bench_output", [l for l in lines if l.strip()][-60:])
    res.series("failures", failures)
    res.series("false_failures", false)
    stop = [f for f in failures if f["kind"] == "fail-stop"]
    grayf = [f for f in failures if f["kind"] == "gray"]
    for label, fs, bound in (("fail-stop", stop, ECHO_MS * K_FAIL + FREEZE_MS), ("gray 5 %", grayf, gray_bound_ms())):
        if not fs:
            continue
        d, m, r = ([f[k] for f in fs] for k in ("declared_ms", "moved_ms", "reallocated_ms"))
        res.row("%s: declared / shim moved / re-allocated, p50 (p99) ms, %d failures" % (label, len(fs)),
                "vFab migrates swiftly (no number); its bound here: %d ms" % bound,
                "%d (%d) / %d (%d) / %d (%d)" % (pct(d, 50), pct(d, 99), pct(m, 50), pct(m, 99), pct(r, 50), pct(r, 99)))
    if stop:
        rs = [f["restored_ms"] for f in stop]
        res.row("fail-stop: traffic restored, p50 (p99) ms", "swift (no number); TCP without vFab: 0 for the whole failure",
                "%d (%d)" % (pct(rs, 50), pct(rs, 99)))
        res.row("fail-stop: shim moved before the re-allocation, by (median) ms", "the edge does not wait for the control plane",
                "%d" % pct([f["reallocated_ms"] - f["moved_ms"] for f in stop], 50))
    res.row("other links declared failed (false failures)", "–", str(false))
    res.check("the benchmark ran through (FailoverFabricTest passed)", rc == 0, "exit %d" % rc)
    res.check("every failure was seen (%d fail-stop, %d gray)" % (repeats, gray), len(stop) == repeats and len(grayf) == gray,
              "%d fail-stop, %d gray lines parsed" % (len(stop), len(grayf)))
    res.check("the shim moves the session no later than the controller's re-allocation (median over fail-stop failures)",
              bool(stop) and pct([f["reallocated_ms"] - f["moved_ms"] for f in stop], 50) >= 0,
              str([(f["moved_ms"], f["reallocated_ms"]) for f in stop]))
    res.check("gray failures are left too: the shim moved off every 5 % lossy link", len(grayf) == gray and all(f["moved_ms"] > 0 for f in grayf),
              str([f["moved_ms"] for f in grayf]))
    res.check("no healthy link declared failed", false == 0, str(false))
    res.finish()

    return res, figure(res)


def gray_bound_ms():
    """Gray detection needs K_FAIL bad loss batches of BATCH_PACKETS (docs/pipeline.md): at the
    session's 6 Mbit/s of 642-byte frames (600 B of UDP payload), plus the freeze window."""
    pps = 6e6 / 8 / FRAME_BYTES
    return K_FAIL * BATCH_PACKETS / pps * 1000 + FREEZE_MS


def figure(res):
    """The figure of a result (also of one read back with Result.load)."""
    failures = res.doc["series"]["failures"]
    stop = [f for f in failures if f["kind"] == "fail-stop"]
    grayf = [f for f in failures if f["kind"] == "gray"]
    fig, (ax, bx) = plot.figure(2, width=6.2)
    bounds = {"fail-stop": (ECHO_MS * K_FAIL + FREEZE_MS, "vFab's bound at %d ms echoes: %d x %d + %d ms freeze"
                            % (ECHO_MS, K_FAIL, ECHO_MS, FREEZE_MS)),
              "gray": (gray_bound_ms(), "vFab's bound: %d loss batches of %d packets at 6 Mbit/s + freeze" % (K_FAIL, BATCH_PACKETS))}
    for a, fs, kind, title in ((ax, stop, "fail-stop", "fail-stop (link down)"), (bx, grayf, "gray", "gray (5 % loss)")):
        keys = [("declared_ms", "declared (echo detection)", "C7", "o"), ("moved_ms", "shim moved", "C0", "s"),
                ("reallocated_ms", "re-allocated (controller only)", "C1", "^")]
        if kind == "fail-stop":
            keys.append(("restored_ms", "traffic restored (receiver)", "C2", "D"))
        for j, (k, label, color, marker) in enumerate(keys):
            xs = [f["n"] + (j - 1.5) * 0.12 for f in fs]
            a.scatter(xs, [max(f[k], 1) / 1000.0 for f in fs], color=color, marker=marker, s=28, label=label, zorder=3)
        bound, label = bounds[kind]
        a.axhline(bound / 1000.0, color="red", ls="--", lw=1.2, label="%s = %.0f ms" % (label, bound))
        a.set_yscale("log")
        a.set_xlabel("failure number")
        a.set_ylabel("time after the failure (s, log)")
        a.set_xticks([f["n"] for f in fs] or [1])
        a.set_title(title, fontsize=9)
        a.legend(fontsize=7, loc="upper right")
        if fs:
            top = max(max(f[k[0]] or 1 for f in fs for k in keys), bound) / 1000.0
            bottom = min(min(max(f[k[0]] or 1, 1) for f in fs for k in keys), bound) / 1000.0
            a.set_ylim(min(0.3, bottom / 3), top * 5)  # fail-stop now takes milliseconds
    plot.caption(fig, res)
    return fig
