"""Mininet works here with the project's Python: two hosts through a Linux bridge."""

from mininet.net import Mininet
from mininet.nodelib import LinuxBridge
from mininet.topo import Topo

from fairfabric_mn import runstate


class TwoHosts(Topo):
    def build(self):
        s = self.addSwitch("ffs1")
        for name in ("ffh1", "ffh2"):
            self.addLink(self.addHost(name), s)


def test_two_hosts_ping_through_a_linux_bridge(root):
    net = Mininet(topo=TwoHosts(), switch=LinuxBridge, controller=None, autoSetMacs=True)
    net.start()
    runstate.register(net)
    try:
        h1, h2 = net.get("ffh1", "ffh2")
        assert net.ping([h1, h2], timeout=2) == 0.0
        # The second host is really separate: an address it does not have is unreachable.
        assert "100% packet loss" in h1.cmd("ping -c1 -W1 10.255.255.254")
    finally:
        net.stop()
        runstate.unregister(net)
