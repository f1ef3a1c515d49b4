"""Three tenants that compete (the demo's second half): weights 1:2:3, one VM each on the
same sending server and one VM each on a receiving server, greedy iperf3 TCP between their
VMs, and a per-tenant table every second of what the controller allocated and what the
tenants achieved.

The VMs (fairfabric_mn.vms) of one server share its cable, the bottleneck the weights split.

Achieved: the monitor's figure (GET /monitor/tenants `achieved_bps`, what GET /tenants shows as
`achievedBps`) when its period closed at most FRESH_MS ago, else the sending server's shim
(`/stats`: `sent_rate_bps` of the tenant's sessions, Ethernet frames as the allocation counts
them). The monitor's record can be stale: it closes periods late under load, and its compacted
topic keeps a previous run's record of a tenant of the same id. The table says which, per row."""

import subprocess
import tempfile
import time

from fairfabric_mn import runstate, vms

TENANTS = (("amber", "Tenant amber", 1), ("green", "Tenant green", 2), ("violet", "Tenant violet", 3))
BASE_PORT = 5301
IPERF3_MAX_SECONDS = 86400  # iperf3 refuses a longer -t
FRESH_MS = 3000
# Linux's default, named: a machine whose default is BBR (this one's) paces a single flow below
# its rate at moments, which the table would show as the shim's enforcement error.
CONGESTION_CONTROL = "cubic"


class Competition:
    def __init__(self, ctl, net, sender, receiver, say):
        self.ctl, self.net, self.say = ctl, net, say
        self.sender, self.receiver = sender, receiver
        self.vms = {}        # tenant -> (src vm id, src ip, dst vm id, dst ip)
        self.sessions = {}   # session id -> tenant
        self.procs = []

    def provision(self):
        """Tenants, their VMs (n: 10.200.n.1 on the sender, 10.200.n.2 on the receiver) and one
        session each, over REST; the VM addresses on the servers' interfaces."""
        for n, (tid, name, weight) in enumerate(TENANTS, start=1):
            self._call("POST", "/tenants", {"id": tid, "name": name, "weight": weight}, 201)
            ends = []
            for side, server in ((1, self.sender), (2, self.receiver)):
                vm, ip = "%s-vm%d" % (tid, side), "10.200.%d.%d" % (n, side)
                vms.add_vm(self.ctl, tid, server, vm, ip, "02:ff:00:00:%02x:%02x" % (n, side))
                ends += [vm, ip]
            self.vms[tid] = tuple(ends)
            body = self._call("POST", "/sessions", {"srcHost": ends[0], "dstHost": ends[2]}, 201)
            self.sessions[body["id"]] = tid
            self.say("tenant %s (weight %d): VM %s (%s) on %s -> VM %s (%s) on %s, session %s" % (
                tid, weight, ends[0], ends[1], self.sender.name, ends[2], ends[3], self.receiver.name, body["id"]))

    def _call(self, method, path, body, expect):
        status, reply = self.ctl.send(method, path, body)
        if status != expect:
            raise RuntimeError("%s %s: %s %s" % (method, path, status, reply))
        return reply

    def start_traffic(self, seconds):
        """Greedy TCP, one iperf3 per tenant, VM to VM; raises when a client exits at once."""
        for n, (tid, _, _) in enumerate(TENANTS):
            _, src_ip, _, dst_ip = self.vms[tid]
            port = BASE_PORT + n
            self.procs.append(self.receiver.popen(["iperf3", "-s", "-B", dst_ip, "-p", str(port)],
                                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(0.5)
        clients = []
        for n, (tid, _, _) in enumerate(TENANTS):
            _, src_ip, _, dst_ip = self.vms[tid]
            out = tempfile.TemporaryFile()
            clients.append((tid, out, self.sender.popen(
                ["iperf3", "-c", dst_ip, "-B", src_ip, "-p", str(BASE_PORT + n), "-C", CONGESTION_CONTROL,
                 "-t", str(min(int(seconds), IPERF3_MAX_SECONDS))],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)))
        self.procs += [p for _, _, p in clients]
        runstate.extend(self.net, pids=[p.pid for p in self.procs])
        time.sleep(1.0)
        for tid, out, p in clients:
            if p.poll() is not None:
                out.seek(0)
                raise RuntimeError("iperf3 of %s exited (%s): %s" % (tid, p.returncode, out.read().decode(errors="replace")[-500:]))

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()

    def rows(self, shim):
        """One row per tenant: (tenant, weight, guarantee, allocated, achieved, source)."""
        # every session of the tenant counts, also those added over REST while the demo runs
        alloc, owner = {}, {}
        for a in self.ctl.get("/allocations"):
            tid = a.get("tenantId")
            owner[a["sessionId"]] = tid
            alloc[tid] = alloc.get(tid, 0.0) + a["totalBps"]
        sent = {}
        try:
            for p in shim.stats().get("paths") or []:
                tid = owner.get(p["session"])
                if tid:
                    sent[tid] = sent.get(tid, 0.0) + p["sent_rate_bps"]
        except OSError:
            pass
        tenants = {t["id"]: t for t in self.ctl.get("/tenants")}
        try:
            view = {m.get("tenant"): m for m in self.ctl.get("/monitor/tenants")}
        except OSError:
            view = {}
        now_ms = time.time() * 1000
        out = []
        for tid, _, _ in TENANTS:
            t = tenants.get(tid, {})
            m = view.get(tid)
            age = now_ms - (m["period_start_ms"] + m["period_ms"]) if m and m.get("achieved_bps") is not None else None
            if age is not None and age <= FRESH_MS:
                achieved, source = m["achieved_bps"], "monitor"
            elif tid in sent:
                achieved, source = sent[tid], "shim %s (monitor: %s)" % (
                    shim.name, "none" if age is None else "%.0f s old" % (age / 1000))
            else:
                achieved, source = None, "-"
            out.append((tid, t.get("weight"), t.get("minBandwidthBps"), alloc.get(tid), achieved, source))
        return out


def mbit(bps):
    return "%9s" % ("-" if bps is None else "%.2f" % (bps / 1e6))


def error(achieved, allocated):
    return "%+6.1f%%" % (100.0 * (achieved - allocated) / allocated) if allocated and achieved is not None else "     -"


def format_table(elapsed, rows, window):
    """window: the rows of the last seconds (newest last); the mean error over them is the
    figure the fairness tests judge (10 s windows), the per-second error wanders with the
    machine's scheduling."""
    lines = ["t=%3.0fs  tenant  weight  guarantee  allocated   achieved   error  %2d s mean error  (Mbit/s; achieved from)"
             % (elapsed, len(window))]
    for tid, weight, guarantee, allocated, achieved, source in rows:
        pairs = [(r[3], r[4]) for past in window for r in past if r[0] == tid and r[3] and r[4] is not None]
        mean_err = error(sum(a for _, a in pairs) / len(pairs), sum(al for al, _ in pairs) / len(pairs)) if pairs else "     -"
        lines.append("        %-6s  %6s  %9s  %s  %s  %s  %16s  %s" % (
            tid, "-" if weight is None else "%g" % weight, "none" if guarantee is None else mbit(guarantee).strip(),
            mbit(allocated), mbit(achieved), error(achieved, allocated), mean_err, source))
    return "\n".join(lines)
