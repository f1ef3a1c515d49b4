"""The l3router test program on a single p4switch: topology and entries."""

import os

from mininet.net import Mininet
from mininet.topo import Topo

from fairfabric_mn import runstate
from fairfabric_mn.p4switch import P4RuntimeCLI, P4Switch, ROOT, record

PROGRAM = os.path.join(ROOT, "p4switch", "testdata", "l3router", "l3router.p4")


class Star(Topo):
    """n hosts, each on its own port of one switch; link params (bw in
    Mbit/s, delay, loss in percent, max_queue_size) go to the switch's
    traffic manager."""

    def build(self, prefix="pr", n=2, **link_params):
        s = self.addSwitch("%ss1" % prefix)
        for i in range(1, n + 1):
            h = self.addHost("%sh%d" % (prefix, i), ip="10.0.0.%d/24" % i, mac="00:00:00:00:00:%02x" % i)
            self.addLink(h, s, port2=i, **link_params)


def start(prefix="pr", n=2, **link_params):
    """Starts a star network of P4Switch running l3router, registered for
    cleanup; returns the net. Stop it with stop(net)."""
    net = Mininet(topo=Star(prefix=prefix, n=n, **link_params), switch=P4Switch, controller=None,
                  autoStaticArp=True)
    try:
        net.start()
    except Exception:
        net.stop()  # stops the p4switch processes already started
        raise
    record(net)
    return net


def stop(net):
    net.stop()
    runstate.unregister(net)


def program_routes(net):
    """Pushes l3router and a /32 route plus source MAC per host."""
    for s in net.switches:
        cli = P4RuntimeCLI(s)
        cli.push(PROGRAM)
        for h in net.hosts:
            intf = h.defaultIntf()
            port = s.ports[intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1]
            cli.add("RouterIngress.ipv4_lpm", "hdr.ipv4.dstAddr=%s/32" % h.IP(),
                    "action=RouterIngress.ipv4_forward", "dstAddr=%s" % h.MAC(), "port=%d" % port)
            cli.add("RouterEgress.mac_rewrite", "standard_metadata.egress_port=%d" % port,
                    "action=RouterEgress.set_smac", "mac=00:aa:00:00:00:%02x" % port)
