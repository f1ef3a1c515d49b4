"""The demo's emulated fabric (run by ./fairfabric demo).

For now: hosts of two tenants behind one Linux bridge, all-pairs reachability.
The p4switch fabric, the controller and the tenants' allocation replace the
bridge as they land (see README)."""

import argparse
import sys

from mininet.log import setLogLevel
from mininet.net import Mininet
from mininet.nodelib import LinuxBridge
from mininet.topo import Topo

from fairfabric_mn import runstate


class Star(Topo):
    def build(self, hosts=4):
        s = self.addSwitch("ffs1")
        for i in range(1, hosts + 1):
            self.addLink(self.addHost("ffh%d" % i, ip="10.0.0.%d/24" % i), s)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hosts", type=int, default=4, help="number of hosts (2..32)")
    args = ap.parse_args(argv)
    if not 2 <= args.hosts <= 32:
        ap.error("--hosts must be between 2 and 32")
    setLogLevel("warning")
    net = Mininet(topo=Star(hosts=args.hosts), switch=LinuxBridge, controller=None, autoSetMacs=True)
    net.start()
    runstate.register(net)
    try:
        print("[demo] %d hosts up: %s" % (len(net.hosts), " ".join(h.name for h in net.hosts)))
        loss = net.pingAll(timeout=2)
        print("[demo] all-pairs ping: %.0f%% loss" % loss)
        return 0 if loss == 0 else 1
    finally:
        net.stop()
        runstate.unregister(net)


if __name__ == "__main__":
    sys.exit(main())
