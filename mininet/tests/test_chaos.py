"""Chaos under traffic (issue 21): the demo's three competing tenants (weights 1:2:3, greedy TCP,
host shims) on a 2-leaf, 2-spine p4switch fabric with a broker, a monitor instance and the
controller of its own. In turn:

1. a spine switch (the busiest) is killed (-9) and restarted after SWITCH_DOWN_S;
2. tenant amber sends bad requests (wrong types, unknown hosts, a cross-tenant session, a
   guarantee the cable cannot carry, malformed JSON, a duplicate tenant);
3. the Kafka broker is killed (-9) and restarted after BROKER_DOWN_S;
4. the controller is killed (-9) and restarted on its data directory (its journal);
5. the monitor instance is killed (-9) and restarted.

`./fairfabric test` runs 1, 2 and 4 (the short variant); `./fairfabric chaos` (FF_CHAOS=full) all.

After each the fabric converges: every switch's entries read back equal those before the fault
(AQ ids aside), the allocation per tenant equals the one before (the sender's cable is the
bottleneck, so the fault does not change it), the VMs reach each other, and every tenant
achieves at least (1 - BOUND) of its allocation at the sending server's shim. The seconds each
took are measured and printed (a table at the end). The bad requests each get a 4xx in the JSON
error shape and change nothing, and no tenant's mean rate over that time drops below (1 - BOUND)
of what it got undisturbed in the same run (its baseline, at most its allocation: the machine
is shared, so the reference is measured, not assumed); neither does it while the broker or the monitor is away (the data path
does not use them) nor while the controller is (the shims keep their tables). The rates
published after the broker's restart reach the shims (a weight change is applied), and every
telemetry record the sending shim made and the broker does not hold is one it counted as
dropped.

Timeouts are generous (this machine is shared): the test checks that the fabric converges; the
figures it prints are the measurement.
"""

import json
import os
import re
import time
import urllib.error
import urllib.request

import pytest

from fairfabric_mn import chaos
from fairfabric_mn.chaos import SENDER, ChaosFabric, wait_for
from fairfabric_mn.shim import consume

BOUND = 0.3          # a tenant is served when it achieves >= 70% of its allocation
SWITCH_DOWN_S = 3
BROKER_DOWN_S = 5
CONTROLLER_DOWN_S = 3
MONITOR_DOWN_S = 3
REDETECT_S = 60      # the monitor's re-detection of the sessions after the controller's restart
CONVERGE_S = 120     # a fault not recovered from in this long fails the test
# ./fairfabric test runs the short variant (spine, bad requests, controller: ~3 min);
# FF_CHAOS=full (./fairfabric chaos) adds the broker and the monitor
FULL = os.environ.get("FF_CHAOS", "short") == "full"
FAULTS = {"spine", "bad requests", "controller"} | ({"broker", "monitor"} if FULL else set())


@pytest.fixture
def fab(root):
    with ChaosFabric(log=lambda m: print("[chaos] " + m, flush=True)) as f:
        yield f


def raw(ctl, method, path, data, content_type="application/json"):
    """A request with a raw body; returns (status, parsed body)."""
    req = urllib.request.Request(ctl.url + path, data=data, method=method, headers={
        "Authorization": "Bearer " + ctl.token, "Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def state(ctl):
    """What bad requests must not change."""
    tenants = sorted(ctl.get("/tenants"), key=lambda t: t["id"])
    for t in tenants:
        t.pop("achievedBps", None)  # measured or computed, not state
        t.pop("allocatedBps", None)
    hosts = {t["id"]: sorted(h["id"] for h in ctl.get("/tenants/%s/hosts" % t["id"])) for t in tenants}
    sessions = sorted((s["id"], s["srcHost"], s["dstHost"]) for s in ctl.get("/sessions"))
    return tenants, hosts, sessions


def mean(xs):
    return sum(xs) / len(xs)


def min_ratio(samples, ref):
    """The lowest ratio, over the tenants, of the mean achieved rate to the reference rate."""
    return min(mean(v) / ref[tid] for tid, v in samples.items())


def events_after(ctl, seq):
    """Every event with a larger seq (paged: GET /events returns at most 1000, oldest first)."""
    out = []
    while True:
        page = ctl.get("/events?after=%d&limit=1000" % seq)
        out += page
        if len(page) < 1000:
            return out
        seq = page[-1]["seq"]


def last_seq(ctl):
    events = events_after(ctl, 0)
    return events[-1]["seq"] if events else 0


def device_back(ctl, device, after):
    """True once the controller saw device go and come back (device.state events after seq after)."""
    states = [e["detail"]["available"] for e in events_after(ctl, after)
              if e["type"] == "device.state" and e["subject"] == device]
    return False in states and states[-1] is True


def converge(fab, name, t_fault, entries, alloc, times, first=(), extra=()):
    """Waits for the fabric to converge after a fault at t_fault; records the seconds to each."""
    seen, reads, read_started = [], [], []

    def same_entries():
        # a read takes seconds (a JVM per switch): the switches held the state when it started
        read_started[:] = [time.time()]
        seen[:] = [fab.all_entries()]
        reads.append({sw: len(set(entries[sw]) ^ set(now)) for sw, now in seen[0].items() if now != entries[sw]})
        return seen[0] == entries

    steps = list(first) + [("devices", lambda: all(d["available"] for d in fab.ctl.get("/topology")["devices"])),
             ("allocation", lambda: fab.same_allocation(alloc)),
             ("reachability", fab.reachable),
             ("traffic", lambda: fab.served(alloc, BOUND))] + list(extra) + [("entries", same_entries)]
    for what, check in steps:
        try:
            wait_for("%s: %s" % (name, what), check, CONVERGE_S, every=0.5)
        except AssertionError:
            diff = {sw: {"lost": sorted(set(entries[sw]) - set(now)), "new": sorted(set(now) - set(entries[sw]))}
                    for sw, now in (seen[0] if seen else {}).items() if now != entries[sw]}
            raise AssertionError("%s: %s did not converge; allocation %s (before %s), achieved %s, entries %s\n%s" % (
                name, what, fab.allocations(), alloc, fab.achieved(), json.dumps(diff, indent=1),
                fab.ctl.log_tail(4000)))
        times[name][what] = (read_started[0] if what == "entries" else time.time()) - t_fault
    print("[chaos] %s: %s" % (name, "  ".join("%s %.1f s" % kv for kv in times[name].items())), flush=True)
    print("[chaos] %s: entries read %d times; entries differing per read: %s" % (name, len(reads), reads), flush=True)


def test_chaos_under_traffic(fab):
    times = {}
    alloc, _ = wait_for("three allocations", lambda: (lambda a: a if len(a) == 3 else None)(fab.allocations()), 60)
    wait_for("all tenants served", lambda: fab.served(alloc, BOUND), CONVERGE_S)
    entries = fab.all_entries()
    base = fab.sample(5)
    print("[chaos] allocated %s; achieved over 5 s %s" % (
        {t: round(v / 1e6, 2) for t, v in sorted(alloc.items())},
        {t: [round(x / 1e6, 2) for x in v] for t, v in sorted(base.items())}))
    print("[chaos] baseline: lowest mean achieved/allocated of a tenant %.2f" % min_ratio(base, alloc))
    # a fault's effect is judged against what the tenant got undisturbed in this run (the machine is shared)
    ref = {tid: min(alloc[tid], mean(v)) for tid, v in base.items()}
    floor = {}

    # 1. a spine killed (-9) and restarted
    spine_fault(fab, fab.busiest_spine(), entries, alloc, times)

    # 2. tenant amber's bad requests; the others' service holds meanwhile
    bad_requests(fab, alloc, ref, times, floor)

    # 3. the broker killed (-9) and restarted: traffic holds, rates and telemetry resume
    if "broker" in FAULTS:
        broker_fault(fab, entries, alloc, ref, times, floor)

    # 4. the controller killed (-9) and restarted on its journal
    owners = controller_fault(fab, entries, alloc, ref, times, floor)

    # 5. the monitor instance killed (-9) and restarted
    if "monitor" in FAULTS:
        monitor_fault(fab, entries, alloc, ref, times, floor, owners)

    report(times, floor)
    check_telemetry(fab)


def spine_fault(fab, spine, entries, alloc, times):
    ctl = fab.ctl
    times["spine %s" % spine.name] = {}
    seq = last_seq(ctl)
    t = time.time()
    fab.kill_switch(spine, SWITCH_DOWN_S)
    converge(fab, "spine %s" % spine.name, t, entries, alloc, times,
             first=[("reconnected", lambda: device_back(ctl, "device:" + spine.name, seq))])


def bad_requests(fab, alloc, ref, times, floor):
    ctl = fab.ctl
    before = state(ctl)
    owners = {a["sessionId"]: a["tenantId"] for a in ctl.get("/allocations")}
    vm = fab.comp.vms
    bad = [
        ("PATCH", "/tenants/amber", {"weight": -1}, 422),
        ("PATCH", "/tenants/amber", {"weight": "heavy"}, 400),
        ("POST", "/tenants", {"id": "amber", "name": "again", "weight": 1}, 409),
        ("POST", "/tenants/amber/hosts", {"id": "amber-vm9", "ip": vm["green"][1], "mac": "02:ff:00:00:09:09",
                                          "location": {"device": "device:chleaf1", "port": 1}}, None),
        ("POST", "/tenants/amber/hosts", {"id": "amber-vm8", "ip": "10.200.9.8", "mac": "ff:ff:ff:ff:ff:ff",
                                          "location": {"device": "device:chleaf1", "port": 1}}, 422),
        ("POST", "/sessions", {"srcHost": vm["amber"][0], "dstHost": vm["green"][2]}, None),
        ("POST", "/sessions", {"srcHost": vm["amber"][0], "dstHost": "no-such-vm"}, None),
        ("DELETE", "/sessions/no-such-session", None, 404),
        ("DELETE", "/tenants/amber/hosts/no-such-vm", None, 404),
    ]
    t = time.time()
    for method, path, body, expect in bad:
        status, reply = ctl.send(method, path, body)
        assert 400 <= status < 500 and (expect is None or status == expect), (method, path, body, status, reply)
        assert set(reply) == {"status", "field", "message"} and reply["status"] == status, reply
    # a guarantee the cable cannot carry: refused (409, docs/api C1) or, where admission is not in
    # force, accepted but infeasible (an allocation.infeasible event) with the allocation unchanged
    after = last_seq(ctl)
    status, reply = ctl.send("PATCH", "/tenants/amber", {"minBandwidthBps": 10 ** 12})
    assert status in (200, 409), (status, reply)
    if status == 200:
        wait_for("allocation.infeasible", lambda: [e for e in events_after(ctl, after)
                                                   if e["type"] == "allocation.infeasible"], 30)
        assert fab.same_allocation(alloc, rel=1e-6), (fab.allocations(), alloc)
        status, reply = ctl.send("PATCH", "/tenants/amber", {"minBandwidthBps": None})
        assert status == 200, reply
    print("[chaos] a 1 Tbit/s guarantee for amber: %s" % ("refused (409)" if status == 409 else
                                                          "accepted, infeasible, allocation unchanged"))
    for data in (b'{"weight": ', b"\xff\xfe", b'[1, 2]'):
        status, reply = raw(ctl, "PATCH", "/tenants/amber", data)
        assert status == 400 and set(reply) == {"status", "field", "message"}, (data, status, reply)
    during = fab.sample(5, owners)
    assert state(ctl) == before
    assert fab.same_allocation(alloc, rel=1e-6), (fab.allocations(), alloc)
    floor["bad requests"] = min_ratio(during, ref)
    times["bad requests"] = {"answered": time.time() - t - 5}


def broker_fault(fab, entries, alloc, ref, times, floor):
    ctl = fab.ctl
    owners = {a["sessionId"]: a["tenantId"] for a in ctl.get("/allocations")}
    times["broker"] = {}
    t = time.time()
    fab.broker.kill9()
    during = fab.sample(BROKER_DOWN_S, owners)
    fab.broker.start()
    times["broker"]["restarted"] = time.time() - t
    floor["broker down"] = min_ratio(during, ref)
    # rates flow again: a weight change (and back) reaches the sending shim
    version = fab.sender_shim().health()["rates_version"]
    status, reply = ctl.send("PATCH", "/tenants/amber", {"weight": 2})
    assert status == 200, reply
    wait_for("amber's new rate at the shim", lambda: fab.sender_shim().health()["rates_version"] > version, CONVERGE_S)
    times["broker"]["rates at shims"] = time.time() - t
    status, reply = ctl.send("PATCH", "/tenants/amber", {"weight": 1})
    assert status == 200, reply
    converge(fab, "broker", t, entries, alloc, times,
             extra=[("telemetry", lambda: fab.sender_shim().stats()["telemetry"]["buffered"] <= 2)])


def controller_fault(fab, entries, alloc, ref, times, floor):
    """Returns the sessions' owners after the restart (the monitor re-detects the sessions)."""
    ctl = fab.ctl
    owners = {a["sessionId"]: a["tenantId"] for a in ctl.get("/allocations")}
    times["controller"] = {}
    provisioned = state(ctl)[:2]
    t = time.time()
    ctl.kill9()
    during = fab.sample(CONTROLLER_DOWN_S, owners)
    ctl.start()
    times["controller"]["restarted"] = time.time() - t
    floor["controller down"] = min_ratio(during, ref)
    # tenants and hosts are back from the journal (sessions are not persisted: the monitor re-detects
    # them); a JVM just started on a loaded machine may take more than a request's 10 s to answer
    seen = []
    try:
        wait_for("tenants and hosts after the restart", lambda: seen.append(state(ctl)[:2]) or seen[-1] == provisioned,
                 CONVERGE_S)
    except AssertionError:
        raise AssertionError("after the restart: %s, before: %s" % (seen[-1:], provisioned))
    # the sessions: the monitor is to re-detect them from the shims' telemetry (docs/controller.md)
    try:
        wait_for("the sessions re-detected", lambda: fab.same_allocation(alloc), REDETECT_S)
        times["controller"]["sessions re-detected"] = time.time() - t
    except AssertionError:
        if FULL:
            raise AssertionError("the monitor did not re-detect the sessions within %d s of the controller's restart "
                                 "(sessions %s, allocation %s)" % (REDETECT_S, ctl.get("/sessions"), fab.allocations()))
        # known gap (docs/reliability.md): the client declares its sessions again, as after any loss
        print("[chaos] KNOWN GAP: sessions not re-detected within %d s of the restart; re-declared over REST"
              % REDETECT_S, flush=True)
        for tid, ends in fab.comp.vms.items():
            status, reply = ctl.send("POST", "/sessions", {"srcHost": ends[0], "dstHost": ends[2]})
            assert status in (201, 409), (tid, status, reply)
        times["controller"]["sessions re-declared"] = time.time() - t
    converge(fab, "controller", t, entries, alloc, times)
    return {a["sessionId"]: a["tenantId"] for a in ctl.get("/allocations")}


def monitor_fault(fab, entries, alloc, ref, times, floor, owners):
    times["monitor"] = {}
    t = time.time()
    fab.monitor.kill9()
    during = fab.sample(MONITOR_DOWN_S, owners)
    fab.monitor.start()
    floor["monitor down"] = min_ratio(during, ref)
    converge(fab, "monitor", t, entries, alloc, times)


def report(times, floor):
    print("[chaos] recovery, seconds from the fault (down: spine %d s, broker %d s, controller %d s, monitor %d s):" % (
        SWITCH_DOWN_S, BROKER_DOWN_S, CONTROLLER_DOWN_S, MONITOR_DOWN_S))
    for fault, steps in times.items():
        print("[chaos]   %-16s %s" % (fault, "  ".join("%s %.1f" % kv for kv in steps.items())))
    print("[chaos] lowest mean achieved of a tenant during the fault / undisturbed: %s" % "  ".join(
        "%s %.2f" % kv for kv in floor.items()))
    for what, ratio in floor.items():
        assert ratio >= 1 - BOUND, (what, floor)


def check_telemetry(fab):
    """Every stats record the sending shim made and the broker lacks is one it counted as dropped."""
    fab.comp.stop()
    shim = fab.sender_shim()
    shim.stop()
    m = re.search(r"telemetry at exit: produced (\d+) dropped (\d+) unsent (\d+)", shim.log())
    assert m, shim.log()[-1500:]
    produced, dropped = int(m.group(1)), int(m.group(2))
    missing = delivered = 0
    for topic in ("ff.shim.pathbytes.v1", "ff.shim.stats.v1"):
        seqs = sorted(r["value"]["seq"] for r in consume(fab.broker.address, topic, key=SENDER)
                      if isinstance(r["value"], dict))
        assert seqs and len(seqs) == len(set(seqs)), topic
        missing += seqs[-1] - len(seqs)
        delivered += len(seqs)
    print("[chaos] telemetry of %s: %d records delivered, %d missing, %d counted dropped by the shim" % (
        SENDER, delivered, missing, dropped))
    # (produced also counts the shim's ff.shim.sessions.v1 records, not keyed by host)
    assert missing == dropped and delivered <= produced
