"""A controller-run fabric for experiments: the Mininet leaf-spine of p4switch processes, the
controller programming it (with extra options, e.g. --fack-dscp), one tenant's hosts and sessions
provisioned over REST, and helpers to read switch entries. Everything is stopped by close()."""

import json
import os
import subprocess
import tempfile
import time

from fairfabric_mn import fabric, runstate, vms
from fairfabric_mn.controller import P4INFO, ControllerProcess, classpath
from fairfabric_mn.experiments.runner import progress
from fairfabric_mn.shim import ShimSet


def tx_bytes(intf):
    """Bytes the interface (a switch's veth, in this namespace) has sent: what its p4switch put on the cable."""
    with open("/sys/class/net/%s/statistics/tx_bytes" % intf) as fh:
        return int(fh.read())


def stop_processes(procs):
    """Kills the processes an experiment started (iperf3 servers and clients, ...) that still run, and reaps them all."""
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait()


def jain_index(xs):
    """Jain's fairness index of the values: 1 when all are equal, 1/n when one carries everything."""
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs)) if any(xs) else 0.0


def routing_fabric(name, prefix, mode, bw, spines, hosts_per_leaf):
    """A 2-leaf leaf-spine without shims whose controller routes in mode "p4te" (--routing pinned, the
    P4TE loop moving the upward routing groups) or "ecmp" (--routing ecmp), with every host in one
    tenant and no session declared, so nothing is pinned and every packet takes the routing groups."""
    routing = "ecmp" if mode == "ecmp" else "pinned"
    progress(name, "%s: building the leaf-spine (2 x %d x %d, %d Mbit/s) and the controller (--routing %s)"
             % (mode, spines, hosts_per_leaf, bw, routing))
    f = ControlledFabric(prefix, bw, leaves=2, spines=spines, hosts_per_leaf=hosts_per_leaf,
                         controller_args=["--routing", routing])
    try:
        f.provision("t", list(range(1, 2 * hosts_per_leaf + 1)), [])
    except Exception:
        f.close()
        raise
    return f


class ControlledFabric:
    """kind "leafspine" (params leaves, spines, hosts_per_leaf), "fattree" (param k) or another
    name in fabric.TOPOLOGIES. shim_hosts: host numbers marked as running the host shim in the
    network configuration ("all": every host), so the controller publishes their rates over Kafka;
    start_shims: also start a host shim on each of them."""

    def __init__(self, prefix, bw, kind="leafspine", controller_args=(), depth=None, shim_hosts=(), start_shims=False,
                 **params):
        self.workdir = tempfile.mkdtemp(prefix="fairfabric-experiment.")
        self.net, self.topo = fabric.build(kind, prefix=prefix, bw=bw, depth=depth, **params)
        self.prefix = prefix
        self.ctl = None
        self.shims = None
        fabric.start(self.net)
        try:
            cfg = os.path.join(self.workdir, "netcfg.json")
            doc = fabric.netcfg(self.net, self.topo)
            kafka = None
            if shim_hosts:
                kafka = os.environ.get("FAIRFABRIC_KAFKA")
                if not kafka:
                    raise RuntimeError("no Kafka broker: FAIRFABRIC_KAFKA is not set (./fairfabric experiment starts one)")
                names = {h.name for h in self.net.hosts} if shim_hosts == "all" else {self.host(n).name for n in shim_hosts}
                for entry in doc["hosts"].values():
                    if entry["basic"]["name"] in names:
                        entry.setdefault("fairfabric", {})["shim"] = True
                if start_shims:
                    self.shims = ShimSet(self.net, hosts=[self.net.get(n) for n in sorted(names)], kafka=kafka)
            with open(cfg, "w") as fh:
                json.dump(doc, fh, indent=2, sort_keys=True)
            # vFab echoes every 1 s, not 250 ms: p4switch processes starved of CPU on the shared host
            # otherwise miss 3 echoes now and then, and the controller fails a healthy link
            self.ctl = ControllerProcess(self.workdir, cfg, kafka=kafka,
                                         extra_args=["--echo-interval-ms", "1000"] + list(controller_args)).start()
            runstate.extend(self.net, pids=[self.ctl.pid])
            self.ctl.wait_devices_available(180)
        except Exception:
            self.close()
            raise

    def host(self, n):
        return self.net.get("%sh%d" % (self.prefix, n))

    def switch(self, name):
        return self.net.get(self.prefix + name)

    def provision(self, tenant, host_numbers, pairs, weight=1, guarantee_bps=None):
        """One tenant with the given hosts and a session per (src, dst) host-number pair; waits
        until every session has an allocation and returns {(src, dst): allocated bit/s}."""
        body = {"id": tenant, "name": "Tenant " + tenant, "weight": weight}
        if guarantee_bps:
            body["minBandwidthBps"] = int(guarantee_bps)
        status, reply = self.ctl.send("POST", "/tenants", body)
        if status != 201:
            raise RuntimeError("POST /tenants: %s %s" % (status, reply))
        for n in host_numbers:
            h = self.host(n)
            status, reply = self.ctl.send("POST", "/tenants/%s/hosts" % tenant, {
                "id": h.name, "ip": h.IP(), "mac": h.MAC(), "location": vms.location(h)})
            if status != 201:
                raise RuntimeError("POST hosts: %s %s" % (status, reply))
        ids = {}
        for s, d in pairs:
            status, reply = self.ctl.send("POST", "/sessions", {"srcHost": self.host(s).name, "dstHost": self.host(d).name})
            if status != 201:
                raise RuntimeError("POST /sessions: %s %s" % (status, reply))
            ids[reply["id"]] = (s, d)
        deadline = time.time() + 60
        while time.time() < deadline:
            got = {a["sessionId"]: a["totalBps"] for a in self.ctl.get("/allocations")}
            if set(ids) <= set(got) and all(got[i] > 0 for i in ids):
                return {ids[i]: got[i] for i in ids}
            time.sleep(0.5)
        raise RuntimeError("no allocation for every session within 60 s:\n" + self.ctl.log_tail())

    def wait_rates_in_force(self, session_ids, timeout=30):
        """Waits until every one of session_ids is in force at some shim of this fabric with its
        allocated total (GET /allocations, within 1 %). A table that never arrives (a broker the shims
        cannot reach, say) is a RuntimeError naming the shims' state, not a run on unpinned traffic."""
        deadline = time.time() + timeout
        while True:
            allocated = {a["sessionId"]: a["totalBps"] for a in self.ctl.get("/allocations")}
            in_force = {}
            for shim in self.shims.shims.values():
                table = json.loads(shim.get("/rates")) or {}
                for x in table.get("sessions") or []:
                    in_force[x["id"]] = sum(p["rate_bps"] for p in x["paths"])
            missing = [i for i in session_ids if i not in in_force or abs(in_force[i] - allocated.get(i, 0)) > 0.01 * allocated.get(i, 0)]
            if not missing:
                return
            if time.time() > deadline:
                raise RuntimeError("sessions %s not in force at the shims within %d s: allocated %s, in force %s; shims %s" % (
                    missing, timeout, allocated, in_force, {n: s.health() for n, s in self.shims.shims.items()}))
            time.sleep(0.2)

    def allocations(self, until=None, timeout=60):
        """GET /allocations as {(tenant, src host number, dst host number): bit/s}; with until (a
        predicate on that dict), polls until it holds (RuntimeError after timeout seconds)."""
        number = {self.host(n).name: n for n in range(1, len(self.net.hosts) + 1)}
        sessions = {s["id"]: s for s in self.ctl.get("/sessions")}
        deadline = time.time() + timeout
        while True:
            got = {}
            for a in self.ctl.get("/allocations"):
                s = sessions.get(a["sessionId"])
                if s:
                    got[(a["tenantId"], number[s["srcHost"]], number[s["dstHost"]])] = a["totalBps"]
            if until is None or until(got):
                return got
            if time.time() > deadline:
                raise RuntimeError("allocations %s did not settle within %s s" % (got, timeout))
            time.sleep(0.5)

    def read_entries(self, switch, *tables):
        """The switch's entries of the tables (P4Runtime Read; the controller stays primary)."""
        sw = self.switch(switch)
        out = subprocess.run(["java", "-cp", classpath(), "org.fairfabric.controller.program.ReadEntries",
                              "127.0.0.1:%d" % sw.grpc_port, str(sw.device_id), P4INFO] + list(tables),
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError("reading %s: %s" % (switch, out.stderr))
        return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]

    AQ_TABLES = ("FabricIngress.aq_classify_outbound.aq_classify_outbound", "FabricIngress.aq_ingress.aq_table",
                 "FabricEgress.aq_classify_inbound.aq_classify_inbound", "FabricEgress.aq_egress.aq_table")

    def wait_aqs(self, switch, outbound, inbound=None, timeout=60):
        """Waits until the switch classifies `outbound` hosts into outbound AQs (and, if given,
        `inbound` into inbound ones); returns its AQ entries (every AQ table)."""
        deadline = time.time() + timeout
        while True:
            entries = self.read_entries(switch, *self.AQ_TABLES)
            count = lambda t: len([e for e in entries if e["table"] == t])
            if count(self.AQ_TABLES[0]) == outbound and inbound in (None, count(self.AQ_TABLES[2])):
                return entries
            if time.time() > deadline:
                raise RuntimeError("no %d outbound and %s inbound AQs on %s within %d s: %s\n%s" % (
                    outbound, inbound, switch, timeout, entries, self.ctl.log_tail()))
            time.sleep(1)

    def uplink_interfaces(self, uplinks):
        """{(a, b): the name of switch a's interface on its cable to switch b} for (a, b) pairs of switch
        names without the prefix, e.g. ("leaf1", "spine2")."""
        out = {}
        for link in self.net.links:
            ends = (link.intf1, link.intf2)
            for i, j in ((0, 1), (1, 0)):
                pair = (ends[i].node.name[len(self.prefix):], ends[j].node.name[len(self.prefix):])
                if pair in uplinks:
                    out[pair] = ends[i].name
        missing = [u for u in uplinks if u not in out]
        if missing:
            raise RuntimeError("no cable for uplinks %s" % missing)
        return out

    def close(self):
        if self.shims:
            self.shims.stop()
            self.shims = None
        if self.ctl:
            self.ctl.stop()
            self.ctl = None
        if self.net is not None:
            fabric.stop(self.net)
            self.net = None
