"""P4TE FACK with a real Linux TCP sender: one leaf on p4switch (fabric.p4),
fkh1 on port 1 sends TCP to fkh2 on port 2 with TOS 0x08 (DSCP 2).

The class's safe-rate meter and port 2's utilisation meter are configured
tiny, so every segment is over its class rate on a non-GREEN link: the
decrease row of the decision table. With no fack_classes entry no FACK
arrives (off by default); with the entry, FACKs reach fkh1 (TTL 64: a real ACK
forwarded by the leaf has TTL 63), the kernel counts no checksum error, and the
transfer still completes intact (a FACK acknowledges only what the receiver
acknowledged).
"""

import os
import struct
import subprocess
import tempfile
import time

import pytest
from mininet.net import Mininet
from mininet.topo import Topo

from fairfabric_mn import runstate
from fairfabric_mn.p4switch import P4RuntimeCLI, P4Switch, ROOT

PROGRAM = os.path.join(ROOT, "pipeconfs", "p4", "fabric.p4")
ROUTER_MAC = "00:00:00:aa:00:01"
HOSTS = {"fkh1": ("10.0.1.1", "00:00:00:00:01:01", 1), "fkh2": ("10.0.1.2", "00:00:00:00:01:02", 2)}
DSCP = 2
FACK_SESSION_BASE = 1024
TRANSFER_BYTES = 300000
PORT = 5201


class OneLeaf(Topo):
    def build(self):
        self.addSwitch("fkL1")
        for name, (ip, mac, port) in HOSTS.items():
            self.addHost(name, ip=ip + "/24", mac=mac)
            self.addLink(name, "fkL1", port2=port)


@pytest.fixture(scope="module")
def binaries():
    d = tempfile.mkdtemp(prefix="fack-test-bin.")
    subprocess.run(["go", "build", "-o", d + "/", "./p4switch/cmd/p4switch", "./p4switch/cmd/p4rtctl"],
                   cwd=ROOT, check=True, env=dict(os.environ, CGO_ENABLED="0"))
    old = os.environ.get("P4SWITCH_BIN_DIR")
    os.environ["P4SWITCH_BIN_DIR"] = d
    yield d
    if old is None:
        del os.environ["P4SWITCH_BIN_DIR"]
    else:
        os.environ["P4SWITCH_BIN_DIR"] = old


class Cli:
    def __init__(self, switch):
        self.switch = switch
        self.next_id = 1

    def __call__(self, *args):
        self.next_id += 1
        return P4RuntimeCLI(self.switch, election_id=self.next_id).run(*args)


def program(leaf):
    i, e = "FabricIngress.", "FabricEgress."
    cli = Cli(leaf)
    cli("push", PROGRAM)
    cli("add", i + "my_station.my_station", "hdr.ethernet.dst_addr=" + ROUTER_MAC, "action=NoAction")
    for name, (ip, mac, port) in HOSTS.items():
        cli("add", i + "port_kind.ingress_port_kind", "standard_metadata.ingress_port=%d" % port,
            "action=" + i + "port_kind.set_ingress_port_kind", "kind=1")
        cli("add", e + "port_kind.egress_port_kind", "standard_metadata.egress_port=%d" % port,
            "action=" + e + "port_kind.set_egress_port_kind", "kind=1")
        cli("add", e + "rewrite.port_macs", "standard_metadata.egress_port=%d" % port,
            "action=" + e + "rewrite.rewrite_macs", "src_mac=" + ROUTER_MAC, "dst_mac=" + mac)
        cli("add", i + "downward_routing.routing_down", "hdr.ipv4.dst_addr=%s/32" % ip,
            "action=" + i + "downward_routing.route_down", "port=%d" % port)
        cli("clone-session", str(FACK_SESSION_BASE + port), str(port))
    tiny = ("cir=1", "cburst=1", "pir=1000000000", "pburst=1000000000")
    cli("add", i + "safe_rate.class_safe_rate", "standard_metadata.ingress_port=1", "hdr.ipv4.dscp=%d" % DSCP,
        "action=" + i + "safe_rate.read_class_color")
    cli("direct-meter", i + "safe_rate.class_safe_rate", "standard_metadata.ingress_port=1",
        "hdr.ipv4.dscp=%d" % DSCP, *tiny)
    cli("add", e + "sensing.link_util", "standard_metadata.egress_port=2",
        "action=" + e + "sensing.read_link_color")
    cli("direct-meter", e + "sensing.link_util", "standard_metadata.egress_port=2", *tiny)
    return cli


SERVER = r"""
import hashlib, socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(1)
c, _ = s.accept(); h = hashlib.sha256(); n = 0
while True:
    b = c.recv(65536)
    if not b: break
    h.update(b); n += len(b)
print(n, h.hexdigest(), flush=True)
"""

CLIENT = r"""
import hashlib, os, socket, sys
data = os.urandom(int(sys.argv[3]))
s = socket.socket(); s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, int(sys.argv[4]) << 2)
s.settimeout(60); s.connect((sys.argv[1], int(sys.argv[2])))
s.sendall(data); s.shutdown(socket.SHUT_WR); s.recv(1); s.close()
print(len(data), hashlib.sha256(data).hexdigest(), flush=True)
"""


def nstat(host, counter):
    out = host.cmd("nstat -az %s" % counter)
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == counter:
            return int(f[1])
    return 0


def transfer(h1, h2, workdir, tag):
    """One TCP transfer fkh1 -> fkh2 under a capture of FACKs at fkh1.
    Returns (sent, received, facks)."""
    server, client = os.path.join(workdir, "server.py"), os.path.join(workdir, "client.py")
    with open(server, "w") as f:
        f.write(SERVER)
    with open(client, "w") as f:
        f.write(CLIENT)
    pcap = os.path.join(workdir, tag + ".pcap")
    cap = h1.popen(["tcpdump", "-i", h1.defaultIntf().name, "-U", "-s", "128", "-w", pcap,
                    "src host %s and tcp" % HOSTS["fkh2"][0]],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    srv = h2.popen(["/usr/bin/python3", server, str(PORT)], stdout=subprocess.PIPE, text=True)
    time.sleep(0.5)
    sent = h1.cmd("/usr/bin/python3 %s %s %d %d %d" % (client, HOSTS["fkh2"][0], PORT, TRANSFER_BYTES, DSCP))
    received, _ = srv.communicate(timeout=60)
    time.sleep(0.5)
    cap.terminate()
    cap.wait(timeout=10)
    return sent.strip(), received.strip(), check_facks(pcap)


def frames(pcap):
    """(frame length, frame bytes) of a classic little-endian pcap file."""
    with open(pcap, "rb") as f:
        data = f.read()
    at = 24
    while at + 16 <= len(data):
        caplen, length = struct.unpack_from("<II", data, at + 8)
        yield length, data[at + 16:at + 16 + caplen]
        at += 16 + caplen


def tcp_checksum_ok(ip, seg):
    pseudo = ip[12:20] + bytes([0, 6]) + len(seg).to_bytes(2, "big")
    data = pseudo + seg + (b"\0" if len(seg) % 2 else b"")
    total = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return total == 0xFFFF


def check_facks(pcap):
    """Checks every FACK (TTL 64: the leaf's forwarding makes real ACKs 63)
    among the segments fkh2's side sent to fkh1; returns how many there were."""
    real_acks, real_windows, facks = [], set(), 0
    for length, frame in frames(pcap):
        ip = frame[14:34]
        seg = frame[34:]
        ack, window = struct.unpack_from("!I", seg, 8)[0], struct.unpack_from("!H", seg, 14)[0]
        if ip[8] != 64:
            real_acks.append(ack)
            real_windows.add(window)
            continue
        facks += 1
        assert length == 54, "FACK of %d bytes" % length
        assert int.from_bytes(ip[2:4], "big") == 40 and seg[12] >> 4 == 5 and seg[13] == 0x10, frame.hex()
        assert struct.unpack_from("!H", seg, 0)[0] == PORT, "FACK ports not swapped: %s" % frame.hex()
        assert tcp_checksum_ok(ip, seg[:20]), "bad FACK TCP checksum: %s" % frame.hex()
        # Decrease row: w - w/4 of a real window; ACK no newer than a real ACK.
        assert window in {w - (w >> 2) for w in real_windows}, (window, sorted(real_windows))
        assert real_acks and ack in real_acks, "FACK ack %d was never a real ACK" % ack
    return facks


def test_fack_reaches_a_real_sender(root, binaries):
    net = Mininet(topo=OneLeaf(), switch=P4Switch, controller=None)
    net.start()
    runstate.register(net)
    runstate.extend(net, pids=[s.switch_pid for s in net.switches if getattr(s, "switch_pid", None)])
    try:
        leaf = net.get("fkL1")
        h1, h2 = net.get("fkh1", "fkh2")
        h1.cmd("ip neigh replace %s lladdr %s dev %s" % (HOSTS["fkh2"][0], ROUTER_MAC, h1.defaultIntf().name))
        h2.cmd("ip neigh replace %s lladdr %s dev %s" % (HOSTS["fkh1"][0], ROUTER_MAC, h2.defaultIntf().name))
        cli = program(leaf)
        workdir = tempfile.mkdtemp(prefix="fack-test.")
        csum_before = nstat(h1, "TcpInCsumErrors")

        sent, received, facks = transfer(h1, h2, workdir, "off")
        assert sent and sent == received, (sent, received)
        assert facks == 0, "FACKs without a fack_classes entry: %d" % facks

        cli("add", "FabricEgress.fack.fack_classes", "hdr.ipv4.dscp=%d" % DSCP,
            "action=FabricEgress.fack.enable_fack", "min_bytes_between=5000")
        sent, received, facks = transfer(h1, h2, workdir, "on")
        print("FACKs received by fkh1: %d; transfer %s" % (facks, received))
        assert sent and sent == received, (sent, received)
        assert facks >= 1, "no FACK reached the sender"
        assert nstat(h1, "TcpInCsumErrors") == csum_before, "the sender counted TCP checksum errors"
    finally:
        net.stop()
