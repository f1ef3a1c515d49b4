"""The fabric pipeline on p4switch in a leaf-spine: a congested uplink's
queue-depth events reach a packet-in listener.

Two leaves and two spines run pipeconfs/p4/fabric.p4, programmed over
P4Runtime. plh1's flow to plh3 is pinned at the first hop (path_classifier
tags it with path id 7), and path 7 is leaf 1's uplink to spine 1, which runs
at 5 Mbit/s. plh1 sends UDP frames (crafted on a raw socket, so no ARP is
needed). A burst above 5 Mbit/s builds the uplink's queue: leaf 1 must report
QUEUE_DEPTH INCREASE events for that port, each at least delta above the last,
and DECREASE once a slow trickle follows the drained queue; plh3 must receive
the flow.
"""

import itertools
import json
import os
import signal
import subprocess
import tempfile
import time

import pytest
from mininet.net import Mininet
from mininet.topo import Topo

from fairfabric_mn import runstate
from fairfabric_mn.p4switch import P4RuntimeCLI, P4Switch, ROOT

PROGRAM = os.path.join(ROOT, "pipeconfs", "p4", "fabric.p4")
QUEUE_DELTA = 10
UPLINK_MBPS = 5
FRAME_PAYLOAD = 1000

HOSTS = {  # name: (ip, mac, leaf)
    "plh1": ("10.0.1.1", "00:00:00:00:01:01", "plL1"),
    "plh3": ("10.0.2.1", "00:00:00:00:02:01", "plL2"),
}
ROUTER_MAC = {"plL1": "00:00:00:aa:00:01", "plL2": "00:00:00:aa:00:02",
              "plS1": "00:00:00:bb:00:01", "plS2": "00:00:00:bb:00:02"}


class LeafSpine(Topo):
    """Leaves plL1, plL2 (host on port 1, spines on ports 2 and 3); spines
    plS1, plS2 (leaf n on port n). plL1-plS1 is the slow uplink."""

    def build(self):
        for s in ("plL1", "plL2", "plS1", "plS2"):
            self.addSwitch(s)
        for name, (ip, mac, leaf) in HOSTS.items():
            self.addHost(name, ip=ip + "/16", mac=mac)
            self.addLink(name, leaf, port2=1, bw=100)
        for n, leaf in ((1, "plL1"), (2, "plL2")):
            for m, spine in ((2, "plS1"), (3, "plS2")):
                slow = leaf == "plL1" and spine == "plS1"
                self.addLink(leaf, spine, port1=m, port2=n, bw=UPLINK_MBPS if slow else 100,
                             max_queue_size=200)


@pytest.fixture(scope="module")
def binaries():
    """p4switch, p4rtctl and fabricevents built from the tree under test."""
    d = tempfile.mkdtemp(prefix="pipeline-test-bin.")
    subprocess.run(["go", "build", "-o", d + "/", "./p4switch/cmd/p4switch", "./p4switch/cmd/p4rtctl",
                    "./pipeconfs/cmd/fabricevents"],
                   cwd=ROOT, check=True, env=dict(os.environ, CGO_ENABLED="0"))
    old = os.environ.get("P4SWITCH_BIN_DIR")
    os.environ["P4SWITCH_BIN_DIR"] = d
    yield d
    if old is None:
        del os.environ["P4SWITCH_BIN_DIR"]
    else:
        os.environ["P4SWITCH_BIN_DIR"] = old


def port_of(switch, node):
    """The switch's port number on its link to node."""
    for intf, port in switch.ports.items():
        link = intf.link
        if link is None:
            continue
        peer = link.intf2 if link.intf1 is intf else link.intf1
        if peer.node is node:
            return port
    raise AssertionError("%s has no link to %s" % (switch.name, node.name))


class Controller:
    """p4rtctl calls, each a new primary client with a higher election id (the
    previous client's stream may still be closing on the switch)."""

    def __init__(self, switch):
        self.switch = switch
        self.ids = itertools.count(1)

    def push(self, program):
        return P4RuntimeCLI(self.switch, election_id=next(self.ids)).push(program)

    def add(self, table, *args):
        return P4RuntimeCLI(self.switch, election_id=next(self.ids)).add(table, *args)


LISTENER_ELECTION_ID = 1000  # above every p4rtctl call's


def program(net):
    """Pushes fabric.p4 and the entries that make plL1/plL2 leaves and plS1/plS2 spines."""
    p = "FabricIngress."
    e = "FabricEgress."
    controllers = {sw.name: Controller(sw) for sw in net.switches}
    for sw in net.switches:
        cli = controllers[sw.name]
        cli.push(PROGRAM)
        me = ROUTER_MAC[sw.name]
        cli.add(p + "my_station.my_station", "hdr.ethernet.dst_addr=%s" % me, "action=NoAction")
        for intf, port in sw.ports.items():
            if intf.link is None:
                continue
            peer = (intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1).node
            kind = 2 if peer.name in ROUTER_MAC else 1
            peer_mac = ROUTER_MAC.get(peer.name) or HOSTS[peer.name][1]
            cli.add(p + "port_kind.ingress_port_kind", "standard_metadata.ingress_port=%d" % port,
                    "action=" + p + "port_kind.set_ingress_port_kind", "kind=%d" % kind)
            cli.add(e + "port_kind.egress_port_kind", "standard_metadata.egress_port=%d" % port,
                    "action=" + e + "port_kind.set_egress_port_kind", "kind=%d" % kind)
            cli.add(e + "rewrite.port_macs", "standard_metadata.egress_port=%d" % port,
                    "action=" + e + "rewrite.rewrite_macs", "src_mac=%s" % me, "dst_mac=%s" % peer_mac)
        route = p + "downward_routing.routing_down"
        if sw.name.startswith("plL"):
            for name, (ip, _, leaf) in HOSTS.items():
                if leaf == sw.name:
                    cli.add(route, "hdr.ipv4.dst_addr=%s/32" % ip,
                            "action=" + p + "downward_routing.route_down", "port=%d" % port_of(sw, net.get(name)))
            cli.add(p + "pinned_path.pinned_path", "hdr.vlan.vid=7",
                    "action=" + p + "pinned_path.set_pinned_uplink", "port=%d" % port_of(sw, net.get("plS1")))
        else:
            for leaf, prefix in (("plL1", "10.0.1.0/24"), ("plL2", "10.0.2.0/24")):
                cli.add(route, "hdr.ipv4.dst_addr=%s" % prefix,
                        "action=" + p + "downward_routing.route_down", "port=%d" % port_of(sw, net.get(leaf)))
    leaf1 = net.get("plL1")
    controllers["plL1"].add(p + "path_classifier.path_classifier",
                            "hdr.ipv4.dst_addr=%s&&&255.255.255.255" % HOSTS["plh3"][0],
                            "action=" + p + "path_classifier.assign_path", "path_id=7", "priority=10")
    controllers["plL1"].add(e + "sensing.queue_sensing",
                            "standard_metadata.egress_port=%d" % port_of(leaf1, net.get("plS1")),
                            "action=" + e + "sensing.set_queue_delta", "queue_delta=%d" % QUEUE_DELTA)


def checksum(data):
    total = sum((data[i] << 8) | data[i + 1] for i in range(0, len(data), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return (~total) & 0xFFFF


def udp_frame(src_mac, dst_mac, src_ip, dst_ip, payload):
    """Ethernet + IPv4 + UDP."""
    ip = lambda a: bytes(int(x) for x in a.split("."))
    udp_len = 8 + payload
    hdr = bytearray(b"\x45\x00" + (20 + udp_len).to_bytes(2, "big") + b"\x00\x01\x00\x00\x40\x11\x00\x00"
                    + ip(src_ip) + ip(dst_ip))
    hdr[10:12] = checksum(hdr).to_bytes(2, "big")
    mac = lambda m: bytes.fromhex(m.replace(":", ""))
    return (mac(dst_mac) + mac(src_mac) + b"\x08\x00" + bytes(hdr)
            + (40000).to_bytes(2, "big") + (5001).to_bytes(2, "big") + udp_len.to_bytes(2, "big")
            + b"\x00\x00" + bytes(payload))


SENDER = """
import socket, sys, time
frame = bytes.fromhex(sys.argv[2])
count, gap = int(sys.argv[3]), float(sys.argv[4])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
for _ in range(count):
    s.send(frame)
    if gap:
        time.sleep(gap)
"""


def rx_packets(host):
    return int(host.cmd("cat /sys/class/net/%s/statistics/rx_packets" % host.defaultIntf().name).strip())


def test_congested_uplink_reports_queue_depth_events(root, binaries):
    net = Mininet(topo=LeafSpine(), switch=P4Switch, controller=None)
    net.start()
    runstate.register(net)
    runstate.extend(net, pids=[s.pid for s in net.switches if s.pid])
    listener = None
    try:
        program(net)
        leaf1, spine1 = net.get("plL1", "plS1")
        h1, h3 = net.get("plh1", "plh3")
        uplink = port_of(leaf1, spine1)

        workdir = tempfile.mkdtemp(prefix="pipeline-test.")
        ready = os.path.join(workdir, "ready")
        events_path = os.path.join(workdir, "events.jsonl")
        with open(events_path, "w") as out:
            listener = subprocess.Popen(
                [os.path.join(binaries, "fabricevents"), "--addr", leaf1.grpc_addr,
                 "--device-id", str(leaf1.device_id), "--election-id", str(LISTENER_ELECTION_ID),
                 "--clone-session", "511=255",
                 "--duration", "60s", "--ready-file", ready],
                stdout=out, stderr=subprocess.PIPE, text=True, start_new_session=True)
        runstate.extend(net, pids=[listener.pid])
        deadline = time.time() + 20
        while not os.path.exists(ready):
            assert listener.poll() is None, listener.stderr.read()
            assert time.time() < deadline, "fabricevents did not start listening"
            time.sleep(0.05)

        script = os.path.join(workdir, "send.py")
        with open(script, "w") as f:
            f.write(SENDER)
        frame = udp_frame(HOSTS["plh1"][1], ROUTER_MAC["plL1"], HOSTS["plh1"][0], HOSTS["plh3"][0],
                          FRAME_PAYLOAD).hex()
        before = rx_packets(h3)
        # A burst of 400 frames back to back: far above 5 Mbit/s, so the
        # uplink queue grows (up to its 200-packet depth).
        h1.cmd("/usr/bin/python3 %s %s %s 400 0" % (script, h1.defaultIntf().name, frame))
        # Let the queue drain (200 x 1066 B at 5 Mbit/s is about 0.35 s), then
        # a trickle well below the rate sees an empty queue.
        time.sleep(1.5)
        h1.cmd("/usr/bin/python3 %s %s %s 10 0.05" % (script, h1.defaultIntf().name, frame))
        time.sleep(1.0)
        delivered = rx_packets(h3) - before

        listener.send_signal(signal.SIGTERM)
        listener.wait(timeout=10)
        with open(events_path) as f:
            events = [json.loads(line) for line in f if line.strip()]

        # The flow crossed the fabric and reached plh3.
        assert delivered >= 100, "plh3 received only %d frames; listener: %s" % (
            delivered, listener.stderr.read())
        queue = [ev for ev in events if ev["metric"] == "QUEUE_DEPTH"]
        assert queue, "no queue-depth events; all packet-ins: %s" % events
        assert all(ev["event_port"] == uplink and ev["reason"] == "EVENT" for ev in queue), queue
        print("queue-depth events on port %d:" % uplink, [(ev["direction"][0], ev["value"]) for ev in queue])
        increases = [ev["value"] for ev in queue if ev["direction"] == "INCREASE"]
        decreases = [ev for ev in queue if ev["direction"] == "DECREASE"]
        assert len(increases) >= 3, queue
        # Algorithm 1: each report is at least delta away from the previous one.
        reported = [0]
        for ev in queue:
            step = ev["value"] - reported[-1]
            if ev["direction"] == "INCREASE":
                assert step >= QUEUE_DELTA, queue
            else:
                assert -step >= QUEUE_DELTA, queue
            reported.append(ev["value"])
        assert decreases, "the drained queue produced no DECREASE: %s" % queue
        assert decreases[-1]["value"] < max(increases), queue
    finally:
        if listener and listener.poll() is None:
            listener.kill()
            listener.wait()
        net.stop()
        runstate.unregister(net)
