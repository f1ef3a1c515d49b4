"""The controller's allocation loop on a live p4switch fabric, with Kafka.

A 2-leaf, 1-spine leaf-spine at 12 Mbit/s (node prefix ca): tenant blue
(weight 2) sends cah1 -> cah3, tenant red (weight 1, 2 Mbit/s guaranteed) sends
cah2 -> cah4; both sessions cross the one uplink leaf1 -> spine1, the shared
bottleneck. cah1 and cah3 run the host shim (network-config annotation).

Checked as a user would: GET /allocations gives 2/3 and 1/3 of the uplink
(within 1e-3 of the allocator's optimum), allocation.updated events are in
/events; the rates table of cah1 arrives on ff.ctl.rates.v1 (an empty one for
cah3, none for the hosts without a shim); the switches hold the entries (read
from the switches over P4Runtime): host_port_keep_tag for the shim hosts' ports,
path_classifier for red's session (its sender has no shim), red's outbound and
inbound Augmented Queues, and caleaf1 gets them back after a kill -9 and
restart (its links fail meanwhile, vFab, and recover); guarantees that cannot be met give an
allocation.infeasible event naming the uplink and leave the allocation as it
was. Then the shims run: blue's traffic gets its rate from the shim on cah1
and red's is held to its rate by the AQ on caleaf1 (UDP floods), each within 10%.
"""

import json
import os
import re
import subprocess
import tempfile
import time

import pytest

from fairfabric_mn import fabric, runstate
from fairfabric_mn.controller import P4INFO, ControllerProcess, classpath
from fairfabric_mn.shim import ShimSet, binary

PREFIX = "ca"
BW = 12  # Mbit/s on every link (low packet rates: the switches share 2 loaded cores)
C = BW * 1e6
SHIM_HOSTS = ("cah1", "cah3")
RATES_TOPIC = "ff.ctl.rates.v1"


def kafka():
    k = os.environ.get("FAIRFABRIC_KAFKA")
    if not k:
        pytest.fail("FAIRFABRIC_KAFKA is not set: this test needs the project's broker (./fairfabric test starts it)")
    return k


def annotate_shims(path, names):
    """Marks the named hosts of a network configuration as running the host shim."""
    with open(path) as f:
        cfg = json.load(f)
    for entry in cfg["hosts"].values():
        if entry["basic"]["name"] in names:
            entry.setdefault("fairfabric", {})["shim"] = True
    with open(path, "w") as f:
        json.dump(cfg, f, indent=2)


def read_entries(switch, *tables):
    """The switch's entries of the tables (P4Runtime Read, no arbitration: the controller stays primary)."""
    out = subprocess.run(["java", "-cp", classpath(), "org.fairfabric.controller.program.ReadEntries",
                          "127.0.0.1:%d" % switch.grpc_port, str(switch.device_id), P4INFO] + list(tables),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def rates_tables(host, since_ms):
    """The rates tables published for host since since_ms, oldest first."""
    out = subprocess.run([binary("shimctl"), "consume", "-kafka", kafka(), "-topic", RATES_TOPIC, "-key", host,
                          "-idle", "2s", "-max", "15s"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    return [r["value"] for r in records if r["value"]["version"] >= since_ms]


def wait_for(what, check, timeout=30, every=0.3):
    deadline = time.time() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.time() > deadline:
            raise AssertionError("timed out waiting for %s" % what)
        time.sleep(every)


@pytest.fixture
def run(root):
    started = []
    workdir = tempfile.mkdtemp(prefix="ctrl-alloc.")
    net, topo = fabric.build("leafspine", prefix=PREFIX, leaves=2, spines=1, hosts_per_leaf=2, bw=BW)
    fabric.start(net)
    started.append(net)
    try:
        cfg = os.path.join(workdir, "netcfg.json")
        fabric.write_netcfg(net, topo, cfg)
        annotate_shims(cfg, SHIM_HOSTS)
        ctl = ControllerProcess(workdir, cfg, kafka=kafka())
        ctl.started_ms = int(time.time() * 1000)
        ctl.start()
        started.append(ctl)
        runstate.extend(net, pids=[ctl.pid])
        ctl.wait_devices_available(120)
        yield net, ctl
    finally:
        for thing in reversed(started):
            if isinstance(thing, ControllerProcess):
                thing.stop()
            else:
                fabric.stop(thing)


def provision(ctl, net):
    for tid, weight, guarantee, hosts in (("blue", 2, None, ("cah1", "cah3")), ("red", 1, 2_000_000, ("cah2", "cah4"))):
        body = {"id": tid, "name": "Tenant " + tid, "weight": weight}
        if guarantee:
            body["minBandwidthBps"] = guarantee
        status, reply = ctl.send("POST", "/tenants", body)
        assert status == 201, reply
        for name in hosts:
            h = net.get(name)
            intf = h.defaultIntf()
            peer = intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1
            status, reply = ctl.send("POST", "/tenants/%s/hosts" % tid, {"id": name, "ip": h.IP(), "mac": h.MAC(),
                                     "location": {"device": "device:" + peer.node.name, "port": peer.node.ports[peer]}})
            assert status == 201, reply
    sessions = {}
    for tid, src, dst in (("blue", "cah1", "cah3"), ("red", "cah2", "cah4")):
        status, reply = ctl.send("POST", "/sessions", {"srcHost": src, "dstHost": dst})
        assert status == 201, reply
        sessions[tid] = reply["id"]
    return sessions


def allocations(ctl):
    return {a["tenantId"]: a for a in ctl.get("/allocations")}


def entry(entries, **match):
    return [e for e in entries if all(e["match"].get(k) == v for k, v in match.items())]


def test_allocation_loop_on_the_fabric(run):
    net, ctl = run
    t0_ms = int(time.time() * 1000)
    sessions = provision(ctl, net)

    # REST: the weighted proportional-fair split of the shared uplink
    alloc = wait_for("two allocations", lambda: (lambda a: a if len(a) == 2 else None)(allocations(ctl)))
    blue, red = alloc["blue"], alloc["red"]
    print("allocations: blue %.0f bit/s, red %.0f bit/s" % (blue["totalBps"], red["totalBps"]))
    assert blue["sessionId"] == sessions["blue"] and red["sessionId"] == sessions["red"]
    assert abs(blue["totalBps"] - 2 * C / 3) <= 1e-3 * C / 3, blue
    assert abs(red["totalBps"] - C / 3) <= 1e-3 * C / 3, red
    assert abs(blue["totalBps"] / red["totalBps"] - 2) <= 1e-3
    for a in (blue, red):
        assert [p["pathId"] for p in a["paths"]] == [1]
        assert a["paths"][0]["devices"] == ["device:caleaf1", "device:caspine1", "device:caleaf2"]
    events = ctl.get("/events?limit=1000")
    updated = {e["subject"] for e in events if e["type"] == "allocation.updated"}
    assert set(sessions.values()) <= updated

    # Kafka: cah1's table (blue's session, integer rates); cah3 runs a shim but sends nothing
    tables = wait_for("cah1's rates table", lambda: rates_tables("cah1", t0_ms), timeout=20, every=1)
    last = tables[-1]
    print("rates table of cah1:", json.dumps(last))
    assert last["host"] == "cah1" and last["schema"] == 1
    assert [s["id"] for s in last["sessions"]] == [sessions["blue"]]
    s = last["sessions"][0]
    assert s["tenant"] == "blue" and s["dst"] == net.get("cah3").IP() and [p["id"] for p in s["paths"]] == [1]
    assert 0 <= blue["totalBps"] - s["paths"][0]["rate_bps"] < 1
    # (cah3's table came with the first round, when the controller started)
    assert [t["sessions"] for t in rates_tables("cah3", ctl.started_ms)] == [[]]
    assert rates_tables("cah2", ctl.started_ms) == []

    # The switches: keep-tag on the shim hosts' ports, red pinned at its first hop, red's AQs
    leaf1, leaf2 = net.get("caleaf1", "caleaf2")
    ip = lambda name: sum(int(o) << (8 * (3 - i)) for i, o in enumerate(net.get(name).IP().split(".")))
    l1 = read_entries(leaf1, "host_port_keep_tag", "path_classifier", "aq_classify_outbound",
                      "FabricIngress.aq_ingress.aq_table")
    l2 = read_entries(leaf2, "host_port_keep_tag", "aq_classify_inbound", "FabricEgress.aq_egress.aq_table",
                      "path_classifier")
    by = lambda es, t: [e for e in es if e["table"].endswith(t)]
    assert [e["match"]["standard_metadata.egress_port"] for e in by(l1, "host_port_keep_tag")] == [1]
    assert [e["match"]["standard_metadata.egress_port"] for e in by(l2, "host_port_keep_tag")] == [1]
    cls = by(l1, "path_classifier")
    assert len(cls) == 1 and cls[0]["params"] == {"path_id": 1}, cls
    assert cls[0]["match"]["hdr.ipv4.src_addr"] == [ip("cah2"), 0xFFFFFFFF]
    assert cls[0]["match"]["hdr.ipv4.dst_addr"] == [ip("cah4"), 0xFFFFFFFF]
    assert by(l2, "path_classifier") == []
    out = by(l1, "aq_classify_outbound")
    assert len(out) == 1 and out[0]["match"]["hdr.ipv4.src_addr"] == ip("cah2"), out
    aq_out = by(l1, "aq_ingress.aq_table")
    assert [e["match"]["aq_id"] for e in aq_out] == [out[0]["params"]["ing_aq_id"]]
    # the pipeline counts an AQ's IP bytes, the allocation fabric frames: the AQ runs at the
    # allocation x 1500/1538 x 1.01 (AllocationDataPlane.AQ_RATE_PER_ALLOCATED, docs/controller.md)
    assert abs(aq_out[0]["params"]["rate_fp"] - red["totalBps"] * 1500 / 1538 * 1.01 / 8e6 * 65536) <= 1
    inb = by(l2, "aq_classify_inbound")
    assert len(inb) == 1 and inb[0]["match"]["hdr.ipv4.dst_addr"] == ip("cah4"), inb
    assert [e["match"]["aq_id"] for e in by(l2, "aq_egress.aq_table")] == [inb[0]["params"]["egr_aq_id"]]

    # caleaf1 killed (-9) and restarted: the controller reconciles it, the allocation's entries included
    after = ctl.get("/events?limit=1000")[-1]["seq"]
    leaf1.proc.kill()
    leaf1.proc.wait()
    leaf1.start([])
    runstate.extend(net, pids=[leaf1.switch_pid])
    states = lambda: [e["detail"]["available"] for e in ctl.get("/events?after=%d&limit=1000" % after)
                      if e["type"] == "device.state" and e["subject"] == "device:caleaf1"]
    wait_for("caleaf1 reconnected", lambda: states()[-1:] == [True] and states()[0] is False, timeout=60, every=0.5)
    # (while it was away its links failed (vFab) and the sessions had no path; once they recover the
    # allocation is as before, with new AQ ids)
    wait_for("the allocation back", lambda: all(abs(a["totalBps"] - alloc[t]["totalBps"]) < 1e-6 * C and a["paths"]
                                                for t, a in allocations(ctl).items()), timeout=60, every=0.5)

    def canon(es):
        """Entries without the AQ id and register slot (a new AQ gets new ones), after checking that
        the classifier points to the AQ."""
        ids = {e["match"]["aq_id"] for e in es if "aq_id" in e["match"]}
        assert {e["params"]["ing_aq_id"] for e in es if "ing_aq_id" in e["params"]} == ids
        out = []
        for e in es:
            e = json.loads(json.dumps(e))
            e["match"].pop("aq_id", None)
            e["params"].pop("ing_aq_id", None)
            e["params"].pop("index", None)
            out.append(json.dumps(e, sort_keys=True))
        return sorted(out)

    seen = []

    def back():
        seen.append(read_entries(leaf1, "host_port_keep_tag", "path_classifier", "aq_classify_outbound",
                                 "FabricIngress.aq_ingress.aq_table"))
        return canon(seen[-1]) == canon(l1)

    try:
        wait_for("caleaf1's entries", back, timeout=20, every=1)
    except AssertionError:
        raise AssertionError("caleaf1 holds %s, not %s\n%s" % (seen[-1], l1, ctl.log_tail(6000)))

    # Guarantees the uplink cannot carry: refused by the two-stage admission (409, the bottleneck
    # named), nothing changes
    in_force = allocations(ctl)
    before = ctl.get("/tenants/blue")
    status, reply = ctl.send("PATCH", "/tenants/blue", {"minBandwidthBps": int(0.9 * C)})
    assert status == 409, reply
    assert reply["field"] == "minBandwidthBps" and "stage 2 (fabric)" in reply["message"], reply
    assert any(link in reply["message"] for link in ("device:caleaf1/3->device:caspine1/1",
                                                      "device:caspine1/2->device:caleaf2/3")), reply
    assert ctl.get("/tenants/blue") == before
    assert allocations(ctl) == in_force

    # Enforcement end to end, with UDP floods above both rates (Promenade's evaluation traffic): the
    # shim on cah1 holds blue to its rate (lossless: the sender is backpressured), the AQ on caleaf1
    # holds red to its rate (drops). Rates are compared as the enforcer counts them: the shim's HTB
    # counts frames (with the 802.1Q tag it pushes), the AQ IPv4 bytes.
    version = last["version"]
    with ShimSet(net, hosts=[net.get(n) for n in SHIM_HOSTS], kafka=kafka()) as shims:
        shims.shims["cah1"].wait_version(version, timeout=15)
        for name in SHIM_HOSTS:  # the shim's own validator (host-shim/ratetable) admitted every controller table
            health = shims.shims[name].health()
            assert health["tables_applied"] >= 1 and sum(health["rejected"].values()) == 0, (name, health)
        got = {}
        for tid, src, dst, port, overhead in (("blue", "cah1", "cah3", 5301, 8 + 20 + 14 + 4), ("red", "cah2", "cah4", 5302, 8 + 20)):
            src, dst = net.get(src, dst)
            dst.cmd("iperf3 -s -D -1 -p %d" % port)
            time.sleep(0.5)
            offered = int(1.5 * alloc[tid]["totalBps"])
            res = json.loads(src.cmd("iperf3 -c %s -p %d -u -b %d -l 1400 -t 6 -J" % (dst.IP(), port, offered)))
            udp = res["end"]["sum"]
            got[tid] = udp["bits_per_second"] * (1 - udp["lost_percent"] / 100) * (1400 + overhead) / 1400
            print("%s: allocated %.2f Mbit/s, received %.2f Mbit/s (%s), loss %.1f%%" % (
                tid, alloc[tid]["totalBps"] / 1e6, got[tid] / 1e6, "frames, shim" if tid == "blue" else "IP, AQ",
                udp["lost_percent"]))
        for tid in got:
            assert abs(got[tid] - alloc[tid]["totalBps"]) <= 0.1 * alloc[tid]["totalBps"], (tid, got)
