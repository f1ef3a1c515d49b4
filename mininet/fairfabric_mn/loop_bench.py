"""./fairfabric bench loop, Mininet half: session arrival -> new rates in force at every affected
shim, on the k=4 fat-tree (p4switch, node prefix fl) with the embedded controller and a host
shim on every host.

One tenant holds all 16 hosts. SESSIONS sessions are declared first (background), then WARMUP
arrivals that are printed but not counted (the controller's JVM compiles the arrival path, as
the in-process half's five warm-up arrivals), then ARRIVALS sessions arrive one at a time over
REST (POST /sessions). An arrival's latency runs from just
before the POST to the moment every affected shim has the new allocation in force: its /rates
(the table the shim applied) carries, for each of the host's sessions, the per-path rates GET
/allocations shows. Affected shims are the sending hosts whose sessions' rates changed. The
shims are polled every POLL_S, so figures carry up to that much of polling delay.

Baseline, same run: a rates table published straight to one shim's key on ff.ctl.rates.v1 (the
Kafka producer, the broker and the shim's apply, without the controller): from the broker's
record timestamp to the table in force at the shim.
"""

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time

from mininet.log import setLogLevel

from fairfabric_mn import fabric, runstate
from fairfabric_mn.controller import ControllerProcess
from fairfabric_mn.shim import ShimSet, publish

POLL_S = 0.005
MIN_RATE_BPS = 8000  # RatesTable.MIN_RATE_BPS: slower paths are left out of a table


def say(msg):
    print("[bench loop] " + msg, flush=True)


def pct(values, p):
    s = sorted(values)
    i = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return s[i]


def load():
    with open("/proc/loadavg") as f:
        return f.read().strip()


def expected_tables(allocs, hosts_of):
    """host -> {session id: {path id: rate bps (whole)}} for the sending hosts."""
    out = {}
    for a in allocs:
        src = hosts_of.get(a["sessionId"])
        if src is None:
            continue
        paths = {p["pathId"]: int(p["rateBps"]) for p in a["paths"] if int(p["rateBps"]) >= MIN_RATE_BPS}
        if not paths and a["paths"]:
            best = max(a["paths"], key=lambda p: p["rateBps"])
            paths = {best["pathId"]: max(MIN_RATE_BPS, int(a["totalBps"]))}
        out.setdefault(src, {})[a["sessionId"]] = paths
    return out


def in_force(shim):
    t = json.loads(shim.get("/rates"))
    if not t:
        return {}, 0
    return {s["id"]: {p["id"]: p["rate_bps"] for p in s["paths"]} for s in t.get("sessions") or []}, t.get("version", 0)


def matches(got, want):
    if set(got) != set(want):
        return False
    for sid, paths in want.items():
        g = got[sid]
        if set(g) != set(paths) or any(abs(g[p] - r) > 1 for p, r in paths.items()):
            return False
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kafka", default=os.environ.get("FAIRFABRIC_KAFKA"))
    ap.add_argument("--arrivals", type=int, default=20)
    ap.add_argument("--sessions", type=int, default=16, help="sessions in force before the arrivals")
    ap.add_argument("--warmup", type=int, default=5, help="arrivals before the counted ones, not counted")
    ap.add_argument("--bw", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not args.kafka:
        raise SystemExit("bench loop: no Kafka broker (set FAIRFABRIC_KAFKA or --kafka)")
    setLogLevel("warning")
    rnd = random.Random(args.seed)
    os.makedirs(runstate.RUN_DIR, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="bench-loop.", dir=runstate.RUN_DIR)
    net, topo = fabric.build("fattree", prefix="fl", bw=args.bw)
    fabric.start(net)
    ctl = shims = None
    try:
        cfg = os.path.join(workdir, "netcfg.json")
        fabric.write_netcfg(net, topo, cfg, shims=True)
        shims = ShimSet(net, kafka=args.kafka)
        ctl = ControllerProcess(workdir, cfg, kafka=args.kafka)
        ctl.start()
        runstate.extend(net, pids=[ctl.pid])
        ctl.wait_devices_available()
        hosts = sorted(net.hosts, key=lambda h: int(h.name[len(topo.prefix) + 1:]))
        status, body = ctl.send("POST", "/tenants", {"id": "bench", "name": "Tenant bench", "weight": 1})
        if status != 201:
            raise RuntimeError("tenant: %s %s" % (status, body))
        for h in hosts:
            intf = h.defaultIntf()
            peer = intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1
            status, body = ctl.send("POST", "/tenants/bench/hosts", {"id": h.name, "ip": h.IP(), "mac": h.MAC(),
                                    "location": {"device": "device:" + peer.node.name, "port": peer.node.ports[peer]}})
            if status != 201:
                raise RuntimeError("host %s: %s %s" % (h.name, status, body))
        say("k=4 fat-tree, %.0f Mbit/s links, controller + a shim on each of %d hosts; load %s" % (args.bw, len(hosts), load()))

        # baseline: a table straight to the shim of the last host (no session of the benchmark sends from it)
        idle = hosts[-1].name
        base = []
        for i in range(args.arrivals):
            version = int(time.time() * 1000) + 1
            table = {"schema": 1, "host": idle, "version": version, "sessions": [
                {"id": "b%d" % i, "tenant": "bench", "dst": hosts[0].IP(), "paths": [{"id": 1, "rate_bps": 1000000 + i}]}]}
            ts = publish(args.kafka, idle, table)
            deadline = time.time() + 30
            while in_force(shims[idle])[1] < version:
                if time.time() > deadline:
                    raise RuntimeError("the baseline table did not reach %s's shim in 30 s" % idle)
                time.sleep(POLL_S)
            base.append(time.time() * 1000 - ts)
        publish(args.kafka, idle, {"schema": 1, "host": idle, "version": int(time.time() * 1000) + 1, "sessions": []})

        senders = [h for h in hosts[:-1]]
        src_of = {}

        pairs = set()

        def post_session():
            src, dst = rnd.sample(senders, 2)
            while (src.name, dst.name) in pairs:  # one session per pair (the controller refuses a second)
                src, dst = rnd.sample(senders, 2)
            pairs.add((src.name, dst.name))
            status, body = ctl.send("POST", "/sessions", {"srcHost": src.name, "dstHost": dst.name})
            if status != 201:
                raise RuntimeError("session %s -> %s: %s %s" % (src.name, dst.name, status, body))
            src_of[body["id"]] = src.name
            return body["id"]

        def settle(timeout=30):
            """Waits until every sending shim has GET /allocations in force; returns the time."""
            deadline = time.time() + timeout
            while True:
                want = expected_tables(ctl.get("/allocations"), src_of)
                if all(matches(in_force(shims[h])[0], t) for h, t in want.items()):
                    return time.time()
                if time.time() > deadline:
                    raise RuntimeError("shims not at the allocation within %d s" % timeout)
                time.sleep(0.05)

        for _ in range(args.sessions):
            post_session()
        settle(60)
        before = expected_tables(ctl.get("/allocations"), src_of)
        lat = []
        for i in range(args.warmup + args.arrivals):
            t0 = time.time()
            sid = post_session()
            # the round that allocates the new session
            while True:
                allocs = ctl.get("/allocations")
                if any(a["sessionId"] == sid for a in allocs):
                    break
                if time.time() - t0 > 30:
                    raise RuntimeError("session %s not allocated within 30 s" % sid)
                time.sleep(POLL_S)
            want = expected_tables(allocs, src_of)
            affected = [h for h, t in want.items() if before.get(h) != t]
            pending = set(affected)
            while pending:
                # a later round (a link flap under load) may change the rates again: compare with the allocation in force
                want.update(expected_tables(ctl.get("/allocations"), src_of))
                for h in list(pending):
                    if matches(in_force(shims[h])[0], want[h]):
                        pending.discard(h)
                if time.time() - t0 > 30:
                    raise RuntimeError("arrival %s: shims %s without the new rates after 30 s" % (sid, sorted(pending)))
                if pending:
                    time.sleep(POLL_S)
            ms = (time.time() - t0) * 1000
            if i < args.warmup:
                say("warm-up arrival %d (%s), not counted: %d affected shims at the new rates after %.0f ms" % (
                    i + 1, sid, len(affected), ms))
            else:
                lat.append(ms)
                say("arrival %d (%s): %d affected shims at the new rates after %.0f ms" % (
                    i + 1 - args.warmup, sid, len(affected), ms))
            before = want
            time.sleep(0.3)
        say("session arrival (POST /sessions) -> new rates in force at every affected shim, %d arrivals: "
            "p50 %.0f ms, p99 %.0f ms, max %.0f ms (target p99 <= 200 ms)" % (len(lat), pct(lat, 50), pct(lat, 99), max(lat)))
        say("baseline (same run): a table published straight to a shim -> in force: p50 %.0f ms, p99 %.0f ms" % (
            pct(base, 50), pct(base, 99)))
        say("load %s" % load())
        return 0
    finally:
        if ctl:
            ctl.stop()
        if shims:
            shims.stop()
        fabric.stop(net)


if __name__ == "__main__":
    sys.exit(main())
