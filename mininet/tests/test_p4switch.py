"""p4switch in Mininet: two hosts through one switch running l3router,
programmed over P4Runtime; ping, iperf3 and the traffic manager's link
emulation (bandwidth from the link's bw, loss changed at run time)."""

import json
import os
import subprocess
import tempfile
import time
import urllib.request

import pytest

from fairfabric_mn import l3router
from fairfabric_mn.p4switch import ROOT


@pytest.fixture(scope="module")
def binaries():
    """Builds p4switch and p4rtctl from the tree under test."""
    d = tempfile.mkdtemp(prefix="p4switch-test-bin.")
    subprocess.run(["go", "build", "-o", d + "/", "./p4switch/cmd/p4switch", "./p4switch/cmd/p4rtctl"],
                   cwd=ROOT, check=True, env=dict(os.environ, CGO_ENABLED="0"))
    old = os.environ.get("P4SWITCH_BIN_DIR")
    os.environ["P4SWITCH_BIN_DIR"] = d
    yield d
    if old is None:
        del os.environ["P4SWITCH_BIN_DIR"]
    else:
        os.environ["P4SWITCH_BIN_DIR"] = old


def wait_listening(host, port, tries=50):
    for _ in range(tries):
        if ":%d " % port in host.cmd("ss -ltnH"):
            return
        time.sleep(0.1)
    raise AssertionError("nothing listens on %s:%d" % (host.name, port))


def admin(switch, path, form=None):
    data = None if form is None else "&".join("%s=%s" % kv for kv in form.items()).encode()
    with urllib.request.urlopen("http://%s%s" % (switch.admin_addr, path), data=data, timeout=5) as r:
        return json.load(r)


def test_ping_and_iperf3_through_l3router(root, binaries):
    net = l3router.start(prefix="pr", n=2)
    try:
        l3router.program_routes(net)
        h1, h2 = net.get("prh1", "prh2")
        s = net.get("prs1")
        # Offloads: off on the switch's veths, transmit checksums off on the hosts.
        features = s.cmd("ethtool -k prs1-eth1")
        for f in ("generic-receive-offload", "generic-segmentation-offload", "tcp-segmentation-offload"):
            assert "%s: off" % f in features, features
        assert "tx-checksumming: off" in h1.cmd("ethtool -k prh1-eth0")
        out = h1.cmd("ping -c3 -i0.2 -W2 %s" % h2.IP())
        assert " 0% packet loss" in out, out
        # The router decremented the TTL (Linux sends 64).
        assert "ttl=63" in out, out
        # No route, no delivery: a host outside the table is unreachable.
        assert "100% packet loss" in h1.cmd("ping -c1 -W1 10.0.0.99")

        h2.cmd("iperf3 -s -1 -D")
        wait_listening(h2, 5201)
        res = json.loads(h1.cmd("iperf3 -c %s -t 2 -J" % h2.IP()))
        assert "error" not in res, res.get("error")
        received = res["end"]["sum_received"]["bytes"]
        assert received > 1_000_000, res["end"]
    finally:
        l3router.stop(net)


def test_link_bw_and_runtime_loss(root, binaries):
    net = l3router.start(prefix="pr", n=2, bw=5, delay="1ms")
    try:
        l3router.program_routes(net)
        s = net.get("prs1")
        ports = {p["port"]: p for p in admin(s, "/ports")}
        assert ports[1]["rate_bps"] == 5_000_000 and ports[2]["rate_bps"] == 5_000_000
        assert ports[1]["delay_us"] == 1000
        h1, h2 = net.get("prh1", "prh2")
        assert " 0% packet loss" in h1.cmd("ping -c2 -i0.2 -W2 %s" % h2.IP())
        # Loss injected at run time through the CLI drops everything to h2.
        p4switch = os.path.join(binaries, "p4switch")
        subprocess.run([p4switch, "port", "--addr", s.admin_addr, "set", "2", "loss=100%"], check=True,
                       capture_output=True)
        assert "100% packet loss" in h1.cmd("ping -c2 -i0.2 -W1 %s" % h2.IP())
        assert admin(s, "/ports/2")["loss_drops"] >= 2
        # Bad settings are refused and change nothing.
        bad = subprocess.run([p4switch, "port", "--addr", s.admin_addr, "set", "2", "loss=7"],
                             capture_output=True, text=True)
        assert bad.returncode != 0 and "loss" in bad.stderr
        assert admin(s, "/ports/2")["loss"] == 1.0
    finally:
        l3router.stop(net)


def test_fabric_mode_two_switches_one_process(root, binaries):
    """P4FabricSwitch: two switches in one `p4switch fabric` process, each its own
    P4Runtime endpoint, device id, ports and admin interface; h1 - s1 - s2 - h2."""
    from mininet.net import Mininet
    from mininet.topo import Topo

    from fairfabric_mn import runstate
    from fairfabric_mn.p4switch import P4FabricSwitch, P4RuntimeCLI, record

    class Line(Topo):
        def build(self):
            s1, s2 = self.addSwitch("pfs1"), self.addSwitch("pfs2")
            h1 = self.addHost("pfh1", ip="10.0.0.1/24", mac="00:00:00:00:00:01")
            h2 = self.addHost("pfh2", ip="10.0.0.2/24", mac="00:00:00:00:00:02")
            self.addLink(h1, s1, port2=1, bw=50)
            self.addLink(h2, s2, port2=1, bw=50)
            self.addLink(s1, s2, port1=2, port2=2, bw=50)

    net = Mininet(topo=Line(), switch=P4FabricSwitch, controller=None, autoStaticArp=True)
    try:
        net.start()
        record(net)
        s1, s2 = net.get("pfs1", "pfs2")
        assert s1.switch_pid == s2.switch_pid, "one process for both switches"
        assert (s1.device_id, s2.device_id) == (1, 2) and s1.grpc_port != s2.grpc_port
        for s in (s1, s2):
            assert sorted(p["port"] for p in admin(s, "/ports")) == [1, 2, 255]
            assert admin(s, "/ports/2")["rate_bps"] == 50_000_000
        h1, h2 = net.get("pfh1", "pfh2")
        for s, local, remote in ((s1, h1, h2), (s2, h2, h1)):
            cli = P4RuntimeCLI(s)
            cli.push(l3router.PROGRAM)
            for h, port in ((local, 1), (remote, 2)):
                cli.add("RouterIngress.ipv4_lpm", "hdr.ipv4.dstAddr=%s/32" % h.IP(),
                        "action=RouterIngress.ipv4_forward", "dstAddr=%s" % h.MAC(), "port=%d" % port)
            for port in (1, 2):
                cli.add("RouterEgress.mac_rewrite", "standard_metadata.egress_port=%d" % port,
                        "action=RouterEgress.set_smac", "mac=00:aa:00:00:00:%02x" % port)
        out = h1.cmd("ping -c3 -i0.2 -W2 %s" % h2.IP())
        assert " 0% packet loss" in out, out
        assert "ttl=62" in out, out  # two routers
    finally:
        net.stop()
        runstate.unregister(net)
