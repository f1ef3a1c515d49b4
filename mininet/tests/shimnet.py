"""Topologies and measurement helpers shared by the host shim's Mininet tests."""

import json
import os
import signal
import subprocess
import time

from mininet.net import Mininet
from mininet.node import Switch
from mininet.nodelib import LinuxBridge
from mininet.topo import Topo

from fairfabric_mn import runstate, shim

# Node names: "hs" (this work's prefix) + a token of this process, so that two runs of
# these tests (e.g. in two worktrees) never share interface names.
PREFIX = "hs" + "".join("0123456789abcdefghijklmnopqrstuvwxyz"[(os.getpid() // 36 ** k) % 36] for k in (1, 0))


def h(i):
    """Name of host i (e.g. hs4fh1; its interface hs4fh1-eth0)."""
    return "%sh%d" % (PREFIX, i)


def s(i):
    """Name of switch i."""
    return "%ss%d" % (PREFIX, i)


# iperf3 counts TCP payload; HTB counts Ethernet frames (14 + 1500 bytes per MSS of
# 1448 with timestamps). Throughput is compared with the rate as frames on the wire.
WIRE_PER_PAYLOAD = 1514.0 / 1448.0


class Star(Topo):
    """n hosts h(1)..h(n) on one Linux bridge s(1)."""

    def build(self, n=2):
        switch = self.addSwitch(s(1))
        for i in range(1, n + 1):
            self.addLink(self.addHost(h(i)), switch)


class PathSwitch(Switch):
    """A switch node that only holds interfaces; pathswitch (eBPF) forwards between them."""

    def start(self, controllers):
        for intf in self.intfList():
            if intf.name != "lo":
                self.cmd("ip link set dev %s up" % intf.name)


class TwoPaths(Topo):
    """h(1) - s(1) =(two links)= s(2) - h(2). The switches forward by VLAN id (path
    id): VID 1 over link 1 (s(N)-eth2), VID 2 over link 2 (s(N)-eth3), untagged
    traffic over link 1; see configure_two_paths."""

    def build(self):
        a = self.addSwitch(s(1), cls=PathSwitch)
        b = self.addSwitch(s(2), cls=PathSwitch)
        self.addLink(self.addHost(h(1)), a)
        self.addLink(self.addHost(h(2)), b)
        self.addLink(a, b)  # path 1: s(1)-eth2 <-> s(2)-eth2
        self.addLink(a, b)  # path 2: s(1)-eth3 <-> s(2)-eth3


def start(topo):
    net = Mininet(topo=topo, switch=LinuxBridge, controller=None, autoSetMacs=True)
    net.start()
    runstate.register(net)
    for h in net.hosts:
        h.cmd("sysctl -qw net.ipv4.tcp_slow_start_after_idle=0")
    return net


def stop(net):
    net.stop()
    runstate.unregister(net)


def configure_two_paths(net, receiver_keeps_tag=True):
    """Installs VID forwarding on both switches (shimctl pathswitch). With
    receiver_keeps_tag the last hop leaves the tag on, so the receiver's shim pops it
    and counts per path; otherwise the last hop strips it (the pipeline contract)."""
    ctl = shim.binary("shimctl")
    for sw in (s(1), s(2)):
        host, p1, p2 = "%s-eth1" % sw, "%s-eth2" % sw, "%s-eth3" % sw
        rules = [[host, p1, "-vid", "1=" + p1, "-vid", "2=" + p2]]
        pop = ["-pop"] if (sw == s(2) and not receiver_keeps_tag) else []
        for link in (p1, p2):
            rules.append([link, host, "-vid", "*=" + host] + pop)
        for dev, untagged, *rest in rules:
            out = subprocess.run([ctl, "pathswitch", "-dev", dev, "-untagged", untagged] + rest,
                                 capture_output=True, text=True)
            if out.returncode != 0:
                raise RuntimeError("pathswitch on %s: %s" % (dev, out.stderr))


def tx_bytes(node, intf):
    return int(node.cmd("cat /sys/class/net/%s/statistics/tx_bytes" % intf).strip())


def iperf(client, server, seconds, omit=1, port=5201, extra=""):
    """Runs one iperf3 TCP test; returns the receiver's bits/s over the window after omit."""
    server.cmd("iperf3 -s -1 -D -p %d -I /tmp/iperf3-%s-%d.pid" % (port, server.name, port))
    time.sleep(0.3)
    out = client.cmd("iperf3 -J -c %s -p %d -t %d -O %d %s" % (server.IP(), port, seconds, omit, extra))
    res = json.loads(out)
    if "error" in res:
        raise RuntimeError("iperf3: %s" % res["error"])
    return res["end"]["sum_received"]["bits_per_second"], res


def start_sink(host, port=5201, seconds=60):
    """Starts shimctl sink on host and waits until it listens."""
    proc = host.popen([shim.binary("shimctl"), "sink", "-listen", ":%d" % port, "-dur", "%ds" % seconds],
                       stderr=subprocess.STDOUT)
    line = proc.stdout.readline().decode()
    if "listening" not in line:
        raise RuntimeError("sink on %s: %s" % (host.name, line + proc.stdout.read().decode()))
    return proc


def stop_sink(proc):
    """Stops a sink; returns {local address: bytes the application read}."""
    proc.send_signal(signal.SIGTERM)
    out = proc.communicate(timeout=10)[0].decode()
    return json.loads(out.strip().splitlines()[-1])


def blast(host, dsts, seconds):
    """Sends TCP from host to each "ip:port" for seconds; returns bytes written per destination."""
    out = host.cmd("%s blast -dst %s -dur %ds" % (shim.binary("shimctl"), ",".join(dsts), seconds))
    if not out.strip().startswith("{"):
        raise RuntimeError("blast from %s: %s" % (host.name, out))
    return json.loads(out)
