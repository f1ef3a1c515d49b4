"""The soak (issue 21), run by `./fairfabric soak [--minutes N]`: the chaos scenario
(mininet/fairfabric_mn/chaos.py: the demo's three competing tenants with host shims, a broker,
a monitor instance and the controller, on a 2-leaf, 2-spine p4switch fabric) under churn, and
every report period a figure per process and the invariants.

Churn, one step every --churn-every seconds, in a cycle: a tenant created with two VMs, a
session declared between them, a competing tenant's weight changed, a spine uplink failed
(emulated, POST /emulation/link-state), bad requests (each must answer 4xx in the JSON error
shape and change nothing), the uplink restored, the weight put back, the session deleted, the
tenant deleted.

Every --report-every seconds: RSS (MiB), open file descriptors and threads of every process;
the Kafka consumer lag of every consumer group; invariants: every switch available (none
stuck), every allocation feasible (no link and no server cable carries more than its capacity),
the competing tenants' traffic served (each achieves at least half its allocation: a link
flapping meanwhile may cost some), no ERROR line in the log of the controller, the monitor, the
broker or a switch (checked again once everything has shut down).

At the end: each JVM's RSS and every process's descriptors and threads, from the first report
after the warm-up to the last, must not grow beyond --rss-growth (RSS, default 10 %) and
--fd-growth (descriptors and threads, default 20 % or 10, whichever is more). Exit status 1
when an invariant failed (each failure is printed)."""

import argparse
import glob
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "mininet"))

from mininet.log import setLogLevel  # noqa: E402

from fairfabric_mn.chaos import RECEIVER, SENDER, ChaosFabric, process_figures  # noqa: E402
from fairfabric_mn.competition import TENANTS  # noqa: E402

FEASIBLE_SLACK = 1e-6   # relative: rates are doubles
SERVED = 0.5            # a competing tenant achieves at least this share of its allocation
JVMS = ("controller", "kafka", "monitor")


def say(msg):
    print("[soak] " + msg, flush=True)


class Soak:
    def __init__(self, fab, args):
        self.fab = fab
        self.args = args
        self.failures = []
        self.samples = []    # (elapsed s, {process: (rss KiB, fds, threads)})
        self.step = 0
        self.counts = {}
        self.churn_id = 0
        self.uplink_down = False
        self.log_errors = {}  # log name -> ERROR lines already reported

    def fail(self, what):
        self.failures.append(what)
        say("INVARIANT FAILED: " + what)

    def call(self, method, path, body, expect):
        status, reply = self.fab.ctl.send(method, path, body)
        if status != expect:
            self.fail("%s %s %s: %s %s (expected %s)" % (method, path, body, status, reply, expect))
        return reply

    # ---- churn
    def churn(self):
        ctl, k = self.fab.ctl, self.churn_id
        tid = "churn%d" % k
        action = self.step % 9
        if action == 0:
            self.call("POST", "/tenants", {"id": tid, "name": "Churn %d" % k, "weight": 1 + k % 3}, 201)
            for side, server in ((1, SENDER), (2, RECEIVER)):
                loc = self.fab.comp and self._location(server)
                self.call("POST", "/tenants/%s/hosts" % tid, {
                    "id": "%s-vm%d" % (tid, side), "ip": "10.201.%d.%d" % (k % 250, side),
                    "mac": "02:fe:00:%02x:%02x:%02x" % (k // 256 % 256, k % 256, side), "location": loc}, 201)
        elif action == 1:
            reply = self.call("POST", "/sessions", {"srcHost": tid + "-vm1", "dstHost": tid + "-vm2"}, 201)
            self.session = reply and reply.get("id")
        elif action == 2:
            self.call("PATCH", "/tenants/green", {"weight": 4}, 200)
        elif action == 3:
            self.call("POST", "/emulation/link-state", {"device": "device:chleaf1", "port": 3, "up": False}, 200)
            self.uplink_down = True
        elif action == 4:
            self.bad_requests(tid)
        elif action == 5:
            self.call("POST", "/emulation/link-state", {"device": "device:chleaf1", "port": 3, "up": True}, 200)
            self.uplink_down = False
        elif action == 6:
            self.call("PATCH", "/tenants/green", {"weight": 2}, 200)
        elif action == 7:
            if getattr(self, "session", None):
                self.call("DELETE", "/sessions/%s" % self.session, None, 204)
        elif action == 8:
            self.call("DELETE", "/tenants/%s" % tid, None, 204)
            self.churn_id += 1
        self.counts[action] = self.counts.get(action, 0) + 1
        self.step += 1

    def _location(self, server):
        h = self.fab.net.get(server)
        intf = h.defaultIntf()
        peer = intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1
        return {"device": "device:" + peer.node.name, "port": peer.node.ports[peer]}

    def bad_requests(self, tid):
        ctl = self.fab.ctl
        before = (ctl.get("/tenants/%s" % tid), len(ctl.get("/sessions")), len(ctl.get("/tenants")))
        for method, path, body in (("PATCH", "/tenants/%s" % tid, {"weight": 0}),
                                   ("PATCH", "/tenants/%s" % tid, {"minBandwidthBps": 10 ** 12}),
                                   ("POST", "/sessions", {"srcHost": tid + "-vm1", "dstHost": "amber-vm2"}),
                                   ("POST", "/tenants/%s/hosts" % tid, {"id": "x", "ip": "10.200.1.1"}),
                                   ("DELETE", "/sessions/none", None)):
            status, reply = ctl.send(method, path, body)
            if not (400 <= status < 500 and isinstance(reply, dict) and set(reply) == {"status", "field", "message"}):
                self.fail("bad request %s %s %s answered %s %s" % (method, path, body, status, reply))
        after = (ctl.get("/tenants/%s" % tid), len(ctl.get("/sessions")), len(ctl.get("/tenants")))
        strip = lambda t: {k: v for k, v in t[0].items() if k != "achievedBps"}
        if strip(before) != strip(after) or before[1:] != after[1:]:
            self.fail("bad requests changed state: %s -> %s" % (before, after))

    # ---- reports
    def report(self, elapsed):
        figures = {}
        for name, pid in sorted(self.fab.processes().items()):
            got = process_figures(pid) if pid else None
            if got is None:
                self.fail("process %s (pid %s) is gone" % (name, pid))
                continue
            figures[name] = got
        self.samples.append((elapsed, figures))
        say("t=%4.0fs  load %s" % (elapsed, open("/proc/loadavg").read().split(" ", 3)[:3]))
        for name, (rss, fds, threads) in figures.items():
            say("        %-18s RSS %7.1f MiB  fds %4d  threads %4d" % (name, rss / 1024, fds, threads))
        for line in self.consumer_lag():
            say("        lag " + line)
        self.check_invariants()

    def consumer_lag(self):
        """'group topic lag' per consumer group and topic (Kafka's own consumer-groups tool)."""
        libs = os.path.join(self.fab.broker.run, "kafka", "libs")
        tool = ("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"
                if glob.glob(os.path.join(libs, "kafka-tools-[0-9]*.jar")) else "kafka.admin.ConsumerGroupCommand")
        out = subprocess.run(["java", "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", os.path.join(libs, "*"), tool,
                              "--bootstrap-server", self.fab.broker.address, "--describe", "--all-groups"],
                             capture_output=True, text=True, timeout=120)
        lag = {}
        for line in out.stdout.splitlines():
            cols = line.split()
            if len(cols) >= 6 and cols[0] != "GROUP" and cols[5].isdigit():
                lag[(cols[0], cols[1])] = lag.get((cols[0], cols[1]), 0) + int(cols[5])
        if not lag:
            # under load the tool sometimes prints no rows: say what it printed instead
            said = [l for l in (out.stderr + out.stdout).splitlines() if l.strip() and not l.startswith("log4j:")]
            return ["(no rows; consumer-groups tool exit %d: %s)" % (out.returncode, " | ".join(said[-2:]) or "no output")]
        return ["%s %s %d" % (g, t, n) for (g, t), n in sorted(lag.items())]

    def check_invariants(self):
        ctl = self.fab.ctl
        down = [d["id"] for d in ctl.get("/topology")["devices"] if not d["available"]]
        if down:
            self.fail("switches not available: %s" % down)
        allocs = ctl.get("/allocations")
        capacity = self.fab.bw * 1e6
        load = {}
        hosts = {h["id"]: h for t in ctl.get("/tenants") for h in ctl.get("/tenants/%s/hosts" % t["id"])}
        src_of = {s["id"]: s["srcHost"] for s in ctl.get("/sessions")}
        for a in allocs:
            loc = (hosts.get(src_of.get(a["sessionId"])) or {}).get("location")
            # a session the monitor detected is not in /sessions: its paths start at the sender's leaf
            cable = ("cable", loc["device"], loc["port"]) if loc else ("cable from", a["paths"][0]["devices"][0] if a["paths"] else None)
            load[cable] = load.get(cable, 0.0) + a["totalBps"]
            for p in a["paths"]:
                for u, v in zip(p["devices"], p["devices"][1:]):
                    load[(u, v)] = load.get((u, v), 0.0) + p["rateBps"]
        over = {k: v for k, v in load.items() if v > capacity * (1 + FEASIBLE_SLACK)}
        if over:
            self.fail("allocation infeasible (capacity %.0f bit/s): %s" % (capacity, over))
        alloc = self.fab.allocations()
        got = self.fab.achieved()
        if any(alloc.get(tid) and got.get(tid, 0.0) < SERVED * alloc[tid] for tid, _, _ in TENANTS):
            # one shim period can predate the traffic or a rates change: judge the best of the next few
            got = {tid: max(rates) for tid, rates in self.fab.sample(5).items()}
        for tid, _, _ in TENANTS:
            if alloc.get(tid) and got.get(tid, 0.0) < SERVED * alloc[tid]:
                self.fail("tenant %s achieves %.2f of its %.2f Mbit/s" % (tid, got.get(tid, 0.0) / 1e6, alloc[tid] / 1e6))
        self.check_logs(self.fab.logs())

    def check_logs(self, logs, when=""):
        """No ERROR line in any levelled log (each reported once)."""
        for name, path in sorted(logs.items()):
            errors = log_errors(path)
            if len(errors) > self.log_errors.get(name, 0):
                self.fail("%s log has %d ERROR lines%s, first new: %s" % (
                    name, len(errors), when, errors[self.log_errors.get(name, 0)].strip()[:300]))
                self.log_errors[name] = len(errors)

    def check_growth(self, warmup_s):
        after = [s for s in self.samples if s[0] >= warmup_s]
        if len(after) < 2:
            say("growth: fewer than two reports after the %d s warm-up; not checked" % warmup_s)
            return
        (t0, first), (t1, last) = after[0], after[-1]
        say("growth from t=%.0fs to t=%.0fs (after the %d s warm-up):" % (t0, t1, warmup_s))
        for name in sorted(set(first) & set(last)):
            (r0, f0, h0), (r1, f1, h1) = first[name], last[name]
            say("        %-18s RSS %+6.1f%%  fds %+d  threads %+d" % (name, 100.0 * (r1 - r0) / r0, f1 - f0, h1 - h0))
            if name in JVMS and r1 > r0 * (1 + self.args.rss_growth):
                self.fail("%s RSS grew %.1f%% (bound %.0f%%)" % (name, 100.0 * (r1 - r0) / r0, 100 * self.args.rss_growth))
            for what, a, b in (("fds", f0, f1), ("threads", h0, h1)):
                if b > a + max(10, a * self.args.fd_growth):
                    self.fail("%s %s grew from %d to %d" % (name, what, a, b))


def log_errors(path):
    """The ERROR lines of a log: log4j/slf4j (' ERROR '), Go's slog (level=ERROR)."""
    try:
        with open(path, errors="replace") as f:
            return [l for l in f if " ERROR " in l or l.startswith("ERROR") or "level=ERROR" in l]
    except OSError:
        return []


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--churn-every", type=float, default=10, metavar="SECONDS")
    ap.add_argument("--report-every", type=float, default=60, metavar="SECONDS")
    ap.add_argument("--warmup", type=float, default=None, metavar="SECONDS",
                    help="growth is measured from the first report after this (default: a fifth of the run, at most 5 min)")
    ap.add_argument("--rss-growth", type=float, default=0.10)
    ap.add_argument("--fd-growth", type=float, default=0.20)
    args = ap.parse_args(argv)
    if args.minutes <= 0 or args.churn_every <= 0 or args.report_every <= 0:
        ap.error("--minutes, --churn-every and --report-every must be positive")
    warmup = args.warmup if args.warmup is not None else min(300.0, args.minutes * 60 / 5)
    setLogLevel("warning")
    # The broker's heap fixed at its maximum and touched at start (as production brokers run,
    # -Xms = -Xmx): otherwise G1 growing the heap from 256 to 512 MiB as it pleases reads as RSS
    # growth (+35 % in the first 30-minute soak while the old generation after a collection was
    # back where it started; docs/reliability.md).
    os.environ.setdefault("FF_KAFKA_HEAP_OPTS", "-Xms512m -Xmx512m -XX:+AlwaysPreTouch")
    with ChaosFabric(log=say) as fab:
        soak = Soak(fab, args)
        t0 = time.time()
        end = t0 + args.minutes * 60
        next_churn, next_report = t0 + args.churn_every, t0
        while True:
            now = time.time()
            if now >= next_report:
                soak.report(now - t0)
                next_report += args.report_every
            if now >= end:
                break
            if now >= next_churn:
                try:
                    soak.churn()
                except OSError as e:
                    soak.fail("churn step %d: %s" % (soak.step, e))
                next_churn += args.churn_every
            time.sleep(max(0.0, min(next_churn, next_report, end) - time.time()))
        if soak.uplink_down:
            fab.ctl.send("POST", "/emulation/link-state", {"device": "device:chleaf1", "port": 3, "up": True})
        soak.check_growth(warmup)
        say("%d churn steps (%d tenants created and deleted), %d reports, %.1f min" % (
            soak.step, soak.churn_id, len(soak.samples), (time.time() - t0) / 60))
        logs = fab.logs()
    # every process stopped: shutting down must not log errors either
    soak.check_logs(logs, when=" after the shutdown")
    if not soak.failures:
        say("logs: no ERROR line in %s (also after the shutdown)" % ", ".join(sorted(logs)))
    if soak.failures:
        say("FAIL: %d invariant failures" % len(soak.failures))
        return 1
    say("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
