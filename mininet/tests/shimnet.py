"""Topologies and measurement helpers shared by the host shim's Mininet tests."""

import json
import time

from mininet.net import Mininet
from mininet.nodelib import LinuxBridge
from mininet.topo import Topo

from fairfabric_mn import runstate

# iperf3 counts TCP payload; HTB counts Ethernet frames (14 + 1500 bytes per MSS of
# 1448 with timestamps). Throughput is compared with the rate as frames on the wire.
WIRE_PER_PAYLOAD = 1514.0 / 1448.0


class Star(Topo):
    """n hosts hsh1..hshn on one Linux bridge hss1."""

    def build(self, n=2):
        s = self.addSwitch("hss1")
        for i in range(1, n + 1):
            self.addLink(self.addHost("hsh%d" % i), s)


class TwoPaths(Topo):
    """hsh1 - hss1 =(two links)= hss2 - hsh2: link 1 carries VLAN 1 (and untagged
    traffic as VLAN 100), link 2 carries VLAN 2; see configure_two_paths."""

    def build(self):
        a, b = self.addSwitch("hss1"), self.addSwitch("hss2")
        self.addLink(self.addHost("hsh1"), a)
        self.addLink(self.addHost("hsh2"), b)
        self.addLink(a, b)  # path 1: hss1-eth2 <-> hss2-eth2
        self.addLink(a, b)  # path 2: hss1-eth3 <-> hss2-eth3


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
    """VLAN-aware bridges: VID = path id selects the inter-switch link. With
    receiver_keeps_tag the last hop leaves the tag on (the receiver's shim pops it
    and counts per path); otherwise the last hop strips it."""
    for sw in ("hss1", "hss2"):
        s = net.get(sw)
        s.cmd("ip link set dev %s type bridge vlan_filtering 1" % sw)
        host_port, p1, p2 = "%s-eth1" % sw, "%s-eth2" % sw, "%s-eth3" % sw
        for port in (host_port, p1, p2):
            s.cmd("bridge vlan del dev %s vid 1" % port)
        # untagged host traffic (ARP, ACKs, unpinned) rides VLAN 100 on link 1
        s.cmd("bridge vlan add dev %s vid 100 pvid untagged" % host_port)
        s.cmd("bridge vlan add dev %s vid 100" % p1)
        s.cmd("bridge vlan add dev %s vid 1" % p1)
        s.cmd("bridge vlan add dev %s vid 2" % p2)
        untag = "" if (sw == "hss2" and receiver_keeps_tag) else " untagged"
        for vid in (1, 2):
            s.cmd("bridge vlan add dev %s vid %d%s" % (host_port, vid, untag if sw == "hss2" else ""))


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
