"""The embedded controller runs a real fabric: p4switch instances in Mininet,
programmed only by the controller (apps/controller) from the network
configuration the topology script writes.

For the k=4 fat-tree (20 switches) and P4TE's 4x4 leaf-spine: every switch is
connected and reconciled, all-pairs ping has 0% loss, the REST routing-group
view shows every uplink in level 0 (ECMP); the controller killed with -9 and
restarted keeps its tenants and the traffic; a p4switch killed and restarted
gets its pipeline and entries back from the controller (traffic resumes); a
congested uplink moves to a lower routing group (the P4TE loop).
Node prefix: fc.
"""

import os
import subprocess
import tempfile
import time

import pytest

from fairfabric_mn import fabric, runstate
from fairfabric_mn.controller import ControllerProcess
from fairfabric_mn.demo import provision

READY_TIMEOUT = 240


def ping_pairs(net):
    """One ping per ordered host pair; returns the pairs that failed."""
    failed = []
    for src in net.hosts:
        for dst in net.hosts:
            if src is dst:
                continue
            out = src.cmd("ping -c1 -W1 %s" % dst.IP())
            if " 0% packet loss" not in out:
                failed.append((src.name, dst.name))
    return failed


def wait_all_pairs(net, timeout):
    """Seconds until one full all-pairs round has no loss."""
    t0 = time.time()
    while True:
        failed = ping_pairs(net)
        if not failed:
            return time.time() - t0
        if time.time() - t0 > timeout:
            raise AssertionError("%d pairs unreachable after %ss, e.g. %s" % (len(failed), timeout, failed[:5]))


@pytest.fixture
def fabric_run(root):
    """Starts (kind) and yields (net, topo, controller); stops both afterwards."""
    started = []

    def start(kind, **params):
        workdir = tempfile.mkdtemp(prefix="ctrl-fabric-%s." % kind)
        net, topo = fabric.build(kind, prefix="fc", **params)
        fabric.start(net)  # stops what it started when it fails
        started.append(net)
        cfg = os.path.join(workdir, "netcfg.json")
        fabric.write_netcfg(net, topo, cfg)
        ctl = ControllerProcess(workdir, cfg)
        started.append(ctl)
        t0 = time.time()
        ctl.start()
        runstate.extend(net, pids=[ctl.pid])
        ctl.wait_devices_available(READY_TIMEOUT)
        took = wait_all_pairs(net, READY_TIMEOUT)
        print("%s: all-pairs reachability %.1f s after the controller started" % (kind, time.time() - t0))
        return net, topo, ctl, took

    yield start
    for thing in reversed(started):
        if isinstance(thing, ControllerProcess):
            thing.stop()
        else:
            fabric.stop(thing)


def check_all_pairs(net):
    loss = net.pingAll(timeout=2)
    assert loss == 0, "all-pairs ping lost %s%%" % loss


def check_ecmp_groups(ctl, topo, uplinks_per_switch):
    groups = ctl.get("/routing-groups")
    for sw, (role, _) in topo.roles.items():
        if sw not in uplinks_per_switch:
            continue
        level0 = [g for g in groups if g["device"] == "device:" + sw and g["level"] == 0]
        assert {g["metric"] for g in level0} == {"DELAY", "QUEUE_DEPTH", "LINK_UTILIZATION"}, level0
        for g in level0:
            assert len(g["ports"]) == uplinks_per_switch[sw], g


def test_fat_tree_all_pairs_and_controller_crash(fabric_run):
    net, topo, ctl, _ = fabric_run("fattree")
    check_all_pairs(net)
    lower = {sw: 2 for sw, (role, _) in topo.roles.items() if role in ("edge", "aggregation")}
    check_ecmp_groups(ctl, topo, lower)

    # Two tenants over REST, then kill -9 of the controller while traffic
    # crosses the fabric (pod 0 to pod 3 through the cores): the restarted
    # controller has the tenants, reconciles every switch, and the traffic
    # never notices (the switches keep their state; nothing is re-pushed).
    provision(ctl, net, topo)
    tenants = sorted((t["id"], t["weight"]) for t in ctl.get("/tenants"))
    src, dst = net.get("fch1", "fch16")
    src.cmd("ping -i 0.05 -c 200 %s > /tmp/fc-ping-across-crash.txt 2>&1 &" % dst.IP())
    time.sleep(1)
    ctl.kill9()
    ctl.start()
    runstate.extend(net, pids=[ctl.pid])
    ctl.wait_devices_available(READY_TIMEOUT)
    assert sorted((t["id"], t["weight"]) for t in ctl.get("/tenants")) == tenants == [("blue", 2.0), ("red", 1.0)]
    assert sorted(len(ctl.get("/tenants/%s/hosts" % t)) for t, _ in tenants) == [8, 8]
    src.cmd("wait")
    summary = src.cmd("tail -n 3 /tmp/fc-ping-across-crash.txt")
    print("ping across the controller crash:", [l for l in summary.splitlines() if "transmitted" in l])
    assert " 0% packet loss" in summary, summary
    check_all_pairs(net)


def test_leaf_spine_all_pairs_and_switch_restart(fabric_run):
    net, topo, ctl, _ = fabric_run("leafspine")
    check_all_pairs(net)
    check_ecmp_groups(ctl, topo, {sw: 4 for sw, (role, _) in topo.roles.items() if role == "leaf"})

    # kill -9 one spine and start it again: the controller reconnects, pushes
    # the pipeline and its entries, and traffic across it resumes.
    spine = net.get("fcspine2")
    seen = ctl.get("/events?limit=1000")
    after = seen[-1]["seq"] if seen else 0
    spine.proc.kill()
    spine.proc.wait()
    spine.start([])
    runstate.extend(net, pids=[spine.switch_pid])
    states = []
    deadline = time.time() + READY_TIMEOUT
    while states[-1:] != [True]:
        assert time.time() < deadline, "fcspine2 was not reconnected: %s\n%s" % (states, ctl.log_tail())
        time.sleep(0.5)
        states = [e["detail"]["available"] for e in ctl.get("/events?after=%d&limit=1000" % after)
                  if e["type"] == "device.state" and e["subject"] == "device:fcspine2"]
    assert states[0] is False, states  # the controller saw it go, and back
    wait_all_pairs(net, 60)
    check_all_pairs(net)


def test_congested_uplink_moves_to_a_lower_routing_group(fabric_run):
    """P4TE loop: queue-depth events from a leaf's congested uplink reach the
    controller, the core's routing-group algorithm moves the port to a lower
    level, the group writes land, and the move is visible through REST."""
    net, topo, ctl, _ = fabric_run("leafspine", bw=10)
    after = ctl.get("/events?limit=1000")[-1]["seq"]
    src, dst = net.get("fch1", "fch13")
    dst.cmd("iperf3 -s -D -1 -p 5201")
    time.sleep(0.5)
    src.cmd("iperf3 -c %s -p 5201 -u -b 40M -l 1200 -t 3 > /dev/null 2>&1" % dst.IP())
    moves = []
    deadline = time.time() + 20
    while not moves:
        assert time.time() < deadline, "no routing-group move on fcleaf1:\n%s" % ctl.log_tail()
        time.sleep(0.5)
        moves = [e for e in ctl.get("/events?after=%d&limit=1000" % after)
                 if e["type"] == "routing-group.moved" and e["subject"] == "device:fcleaf1"
                 and e["detail"]["toLevel"] > 0]
    print("moves on fcleaf1:", [(e["detail"]["metric"], e["detail"]["port"], e["detail"]["toLevel"]) for e in moves])
    assert all(e["detail"]["metric"] == "QUEUE_DEPTH" and e["detail"]["port"] in (5, 6, 7, 8) for e in moves), moves
    # Congestion is not a failure: echo probes jump the queue, so no link goes down.
    downs = [e["subject"] for e in ctl.get("/events?after=%d&limit=1000" % after)
             if e["type"] == "link.state" and not e["detail"]["up"]]
    assert downs == [], "links declared failed under mere congestion: %s" % downs
    # The view holds each uplink in exactly one level of each table.
    for metric in ("QUEUE_DEPTH", "DELAY", "LINK_UTILIZATION"):
        levels = [g["ports"] for g in ctl.get("/routing-groups") if g["device"] == "device:fcleaf1" and g["metric"] == metric]
        assert sorted(p for ports in levels for p in ports) == [5, 6, 7, 8], (metric, levels)
    # Whatever level the uplinks are in, the fabric still forwards.
    wait_all_pairs(net, 60)


RECEIVER = """
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 9999))
s.settimeout(0.5)
ports = set()
end = time.time() + float(sys.argv[1])
while time.time() < end:
    try:
        _, (_, port) = s.recvfrom(2048)
        ports.add(port)
    except socket.timeout:
        pass
print(len(ports))
"""

SENDER = """
import socket, sys
for port in range(20000, 20000 + int(sys.argv[2])):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    for _ in range(3):
        s.sendto(b"x" * 64, (sys.argv[1], 9999))
    s.close()
"""


def flows_delivered(src, dst, flows, workdir):
    """UDP flows (distinct source ports) from src that reached dst."""
    rx, tx = os.path.join(workdir, "rx.py"), os.path.join(workdir, "tx.py")
    with open(rx, "w") as f:
        f.write(RECEIVER)
    with open(tx, "w") as f:
        f.write(SENDER)
    dst.cmd("python3 %s 3 > %s/rx.out 2>&1 &" % (rx, workdir))
    time.sleep(0.5)
    src.cmd("python3 %s %s %d" % (tx, dst.IP(), flows))
    dst.cmd("wait")
    with open(os.path.join(workdir, "rx.out")) as f:
        return int(f.read().strip())


def all_flows_delivered(src, dst, flows, workdir, timeout=20):
    """Whether every flow gets through within timeout. The REST view changes when
    the controller hands its writes to the switches, a moment before they land."""
    deadline = time.time() + timeout
    while True:
        got = flows_delivered(src, dst, flows, workdir)
        if got == flows or time.time() > deadline:
            print("%d of %d flows delivered" % (got, flows))
            return got == flows
        time.sleep(1)


def test_failed_uplink_leaves_the_routing_groups(fabric_run):
    """vFab loop: with fcleaf1's uplink to fcspine2 down, the echo requests the
    controller sends go unanswered, fcleaf1 reports LINK_FAILURE, the
    controller marks the link down and takes the port out of every routing
    group, and every flow from fch1 to fch13 uses the remaining uplinks; when
    the link comes back, the port returns to level 0."""
    net, topo, ctl, _ = fabric_run("leafspine")
    workdir = tempfile.mkdtemp(prefix="ctrl-fabric-flows.")
    src, dst = net.get("fch1", "fch13")
    assert all_flows_delivered(src, dst, 64, workdir)
    after = ctl.get("/events?limit=1000")[-1]["seq"]
    net.configLinkStatus("fcleaf1", "fcspine2", "down")
    deadline = time.time() + 30
    while True:
        groups = [g for g in ctl.get("/routing-groups") if g["device"] == "device:fcleaf1"]
        if all(6 not in g["ports"] for g in groups):
            break
        assert time.time() < deadline, "port 6 still in %s\n%s" % (groups, ctl.log_tail())
        time.sleep(0.5)
    assert sorted(p for g in groups if g["metric"] == "QUEUE_DEPTH" for p in g["ports"]) == [5, 7, 8], groups
    down = [e for e in ctl.get("/events?after=%d&limit=1000" % after)
            if e["type"] == "link.state" and e["detail"]["reportedBy"] in ("device:fcleaf1/6", "device:fcspine2/1")]
    assert down and down[0]["detail"]["up"] is False, down  # whichever end reported first
    assert all_flows_delivered(src, dst, 64, workdir)

    # Recovery: the link comes back, ten good echo batches clear failed[6], the
    # switch reports it and the controller puts port 6 back into level 0.
    net.configLinkStatus("fcleaf1", "fcspine2", "up")
    deadline = time.time() + 30
    while True:
        groups = [g for g in ctl.get("/routing-groups") if g["device"] == "device:fcleaf1"]
        if all(6 in g["ports"] for g in groups if g["level"] == 0):
            break
        assert time.time() < deadline, "port 6 not back in level 0: %s\n%s" % (groups, ctl.log_tail())
        time.sleep(0.5)
    assert all_flows_delivered(src, dst, 64, workdir)
