"""Throughput, CPU and latency of the k=4 fat-tree (run by ./fairfabric bench fabric).

    python -m fairfabric_mn.fabric_bench --mode process|fabric|kernel [--bw 100] [--seconds 10]

process: one p4switch per switch (P4Switch), fabric: one `p4switch fabric` process for
all 20 (P4FabricSwitch); both programmed by the embedded controller. kernel: the same
fat-tree shape with Linux routers (Mininet nodes with IP forwarding, ECMP routes to
every edge subnet, a tbf of the same rate and 64-packet depth on every router port):
the baseline measured in the same run.

Prints one line per figure, "[fabric MODE] NAME VALUE ...":
  single      one TCP flow pod 0 -> pod 3, goodput over SECONDS
  flow i      eight simultaneous TCP flows pod 0/1 -> pod 2/3 (every host sends once and
              receives once), goodput of each
  ping        p50/p99 RTT (ms) and loss of pings on a loaded path while the eight run
  cpu         CPU seconds of the switch processes (p4switch; 0 for kernel) and of the whole
              machine (all CPUs, everyone's) during the eight flows, per second
  cpu per forwarded packet
              the same CPU divided by the packets the switches (egress, every port) or
              routers (tx) forwarded during the eight flows: ns per packet per hop
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from mininet.log import setLogLevel
from mininet.net import Mininet
from mininet.node import Node

from fairfabric_mn import fabric, runstate

K = 4
HALF = K // 2


def say(mode, msg):
    print("[fabric %s] %s" % (mode, msg), flush=True)


def cpu_seconds(pids):
    """utime + stime of the processes, in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / tick


def machine_busy():
    """(busy, total) jiffies of all CPUs."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def iperf_server(host, port):
    return host.popen(["iperf3", "-s", "-1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def iperf_client(host, dst_ip, port, seconds):
    return host.popen(["iperf3", "-c", dst_ip, "-p", str(port), "-J", "-t", str(seconds), "-O", "1"],
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def goodput(client, seconds):
    out, err = client.communicate(timeout=seconds + 60)
    try:
        res = json.loads(out)
    except ValueError:
        raise RuntimeError("iperf3 gave no JSON: %s %s" % (out[-300:], err[-300:]))
    if "error" in res:
        raise RuntimeError("iperf3: %s" % res["error"])
    return res["end"]["sum_received"]["bits_per_second"]


def percentile(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def pairs_for(hosts):
    """Eight flows: host i of pods 0/1 to host i of pods 2/3 (hosts in pod order)."""
    per_pod = HALF * HALF
    return [(hosts[i], hosts[2 * per_pod + i]) for i in range(2 * per_pod)]


def tm_drops(switches):
    """Traffic-manager queue drops summed over the p4switch switches (admin interface)."""
    import urllib.request
    total = 0
    for sw in switches:
        with urllib.request.urlopen("http://%s/ports" % sw.admin_addr, timeout=5) as r:
            total += sum(p["queue_drops"] for p in json.load(r))
    return total


def switch_packets(switches):
    """Packets the p4switch switches sent through egress (admin interface: dequeued, all ports)."""
    import urllib.request
    total = 0
    for sw in switches:
        with urllib.request.urlopen("http://%s/ports" % sw.admin_addr, timeout=5) as r:
            total += sum(p["dequeued"] for p in json.load(r))
    return total


def router_packets(routers):
    """Packets the Linux routers sent (tx_packets of their interfaces)."""
    total = 0
    for r in routers:
        for line in r.cmd("cat /proc/net/dev").splitlines()[2:]:
            name, _, counters = line.partition(":")
            if name.strip() != "lo" and counters.split():
                total += int(counters.split()[9])
    return total


def measure(mode, hosts, switch_pids, seconds, switches=(), routers=()):
    """The single flow, then the eight with pings; prints and returns the figures."""
    src, dst = hosts[0], hosts[-1]
    srv = iperf_server(dst, 5201)
    time.sleep(0.5)
    drops0 = tm_drops(switches)
    single = goodput(iperf_client(src, dst.IP(), 5201, seconds), seconds)
    srv.wait(timeout=10)
    drops = " (switch queue drops %d)" % (tm_drops(switches) - drops0) if switches else ""
    say(mode, "single %s -> %s %.1f Mbit/s%s" % (src.name, dst.name, single / 1e6, drops))

    pairs = pairs_for(hosts)
    servers = [iperf_server(d, 5301 + i) for i, (_, d) in enumerate(pairs)]
    time.sleep(0.5)
    count = (lambda: switch_packets(switches)) if switches else (lambda: router_packets(routers))
    pkts0 = count()
    cpu0, busy0 = cpu_seconds(switch_pids), machine_busy()
    t0 = time.time()
    clients = [iperf_client(s, d.IP(), 5301 + i, seconds) for i, (s, d) in enumerate(pairs)]
    time.sleep(1.5)
    # pings along the first pair's loaded path
    ping = pairs[0][0].popen(["ping", "-i", "0.1", "-c", str(int((seconds - 2) * 10)), pairs[0][1].IP()],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    rates = [goodput(c, seconds) for c in clients]
    elapsed = time.time() - t0
    cpu1, busy1 = cpu_seconds(switch_pids), machine_busy()
    pkts = max(1, count() - pkts0)
    out = ping.communicate(timeout=60)[0].decode()
    for s in servers:
        try:
            s.wait(timeout=10)
        except subprocess.TimeoutExpired:
            s.kill()
    rtts = [float(x) for x in re.findall(r"time=([0-9.]+) ms", out)]
    m = re.search(r"([0-9.]+)% packet loss", out)
    for i, ((s, d), r) in enumerate(zip(pairs, rates)):
        say(mode, "flow %d %s -> %s %.1f Mbit/s" % (i + 1, s.name, d.name, r / 1e6))
    say(mode, "eight flows: min %.1f Mbit/s, mean %.1f Mbit/s" % (min(rates) / 1e6, sum(rates) / len(rates) / 1e6))
    say(mode, "ping under load %s -> %s: p50 %.2f ms p99 %.2f ms loss %s%% (%d replies)" % (
        pairs[0][0].name, pairs[0][1].name, percentile(rtts, 50), percentile(rtts, 99), m.group(1) if m else "?", len(rtts)))
    busy = (busy1[0] - busy0[0]) / float(max(1, busy1[1] - busy0[1])) * os.cpu_count()
    load = open("/proc/loadavg").read().split()[0]
    say(mode, "cpu switches %.2f s/s, machine %.2f of %d CPUs busy (loadavg %s)" % (
        (cpu1 - cpu0) / elapsed, busy, os.cpu_count(), load))
    # Per forwarded packet (every hop counts): the switch processes' CPU (p4switch only;
    # Linux routers forward in softirq, charged to no process) and the whole machine's
    # busy CPU, which includes iperf3, the hosts' TCP stacks and everyone else's work.
    machine_ns = busy * elapsed * 1e9 / pkts
    switch_ns = ("switches %.0f ns/packet, " % ((cpu1 - cpu0) * 1e9 / pkts)) if switch_pids else ""
    say(mode, "cpu per forwarded packet (%d hop-packets): %smachine %.0f ns/packet (loadavg %s)" % (
        pkts, switch_ns, machine_ns, load))
    return single, rates, rtts


def all_pairs_clean(hosts):
    for src in hosts:
        for dst in hosts:
            if src is not dst and " 0% packet loss" not in src.cmd("ping -c1 -W1 %s" % dst.IP()):
                return False
    return True


def run_p4switch(mode, bw, seconds, depth=None):
    from fairfabric_mn.controller import ControllerProcess
    from fairfabric_mn.demo import provision
    os.makedirs(runstate.RUN_DIR, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="fairfabric-bench-fabric.", dir=runstate.RUN_DIR)
    net, topo = fabric.build("fattree", prefix="fb", mode=mode, bw=bw, depth=depth)
    fabric.start(net)
    ctl = None
    try:
        cfg = os.path.join(workdir, "netcfg.json")
        fabric.write_netcfg(net, topo, cfg)
        ctl = ControllerProcess(workdir, cfg)
        ctl.start()
        runstate.extend(net, pids=[ctl.pid])
        ctl.wait_devices_available()
        provision(ctl, net, topo)
        deadline = time.time() + 120
        while not all_pairs_clean(net.hosts):
            if time.time() > deadline:
                raise RuntimeError("no all-pairs reachability within 120 s; controller log %s" % ctl.log_path)
        from fairfabric_mn.p4switch import P4FabricSwitch
        how = ("--loops %d" % P4FabricSwitch.loops()) if mode == "fabric" else (
            "--loop %s" % ",".join(sorted({s.run_loop() for s in net.switches})))
        say(mode, "20 switches programmed (%s), all-pairs reachability" % how)
        hosts = sorted(net.hosts, key=lambda h: int(h.name[len(topo.prefix) + 1:]))
        pids = sorted({s.switch_pid for s in net.switches if s.switch_pid})
        return measure(mode, hosts, pids, seconds, net.switches)
    finally:
        if ctl:
            ctl.stop()
        fabric.stop(net)


class Router(Node):
    """A Linux router: a Mininet node in its own namespace with IP forwarding."""

    def config(self, **params):
        super().config(**params)
        self.cmd("sysctl -qw net.ipv4.ip_forward=1 net.ipv4.fib_multipath_hash_policy=1")


def run_kernel(bw, seconds, depth=64):
    """The fat-tree with Linux routers in place of the switches."""
    net = Mininet(controller=None, autoSetMacs=False, build=False)
    routers = {}

    def router(name):
        routers[name] = net.addHost("kb" + name, cls=Router, ip=None)
        return routers[name]

    cores = [router("c%d" % (i + 1)) for i in range(HALF * HALF)]
    hosts = []
    links = []  # (a, b, subnet a-side ip, b-side ip)
    n_link = [0]

    def p2p(a, b):
        n_link[0] += 1
        i = n_link[0]
        ipa, ipb = "172.16.%d.%d" % (i // 64, (i % 64) * 4 + 1), "172.16.%d.%d" % (i // 64, (i % 64) * 4 + 2)
        l = net.addLink(a, b)
        links.append((l, ipa, ipb))

    edges = {}
    for pod in range(K):
        aggs = [router("a%d%d" % (pod, a)) for a in range(HALF)]
        for e in range(HALF):
            edge = router("e%d%d" % (pod, e))
            edges[pod, e] = edge
            for n in range(HALF):
                # /32 addresses: the hosts of an edge are on separate links
                h = net.addHost("kbh%d" % (len(hosts) + 1), ip="10.%d.%d.%d/32" % (pod, e, 2 + n))
                l = net.addLink(h, edge)
                links.append((l, None, "10.%d.%d.1" % (pod, e)))
                hosts.append(h)
            for agg in aggs:
                p2p(edge, agg)
        for a, agg in enumerate(aggs):
            for j in range(HALF):
                p2p(agg, cores[a * HALF + j])
    net.build()
    net.start()
    try:
        adj = {}
        for l, ipa, ipb in links:
            i1, i2 = l.intf1, l.intf2
            if ipa:
                i1.node.cmd("ip addr add %s/30 dev %s" % (ipa, i1.name))
            if ipb and ipa:
                i2.node.cmd("ip addr add %s/30 dev %s" % (ipb, i2.name))
            elif ipb:  # edge port of host i1.node
                i2.node.cmd("ip addr add %s/32 dev %s" % (ipb, i2.name))
                i2.node.cmd("ip route add %s/32 dev %s" % (i1.node.IP(), i2.name))
                i1.node.cmd("ip route add %s/32 dev %s" % (ipb, i1.name))
                i1.node.cmd("ip route add default via %s" % ipb)
            for intf in (i1, i2):
                # real frames, as the p4switch fabric sees them (tbf drops what exceeds its burst)
                intf.node.cmd("ethtool -K %s tso off gso off gro off >/dev/null 2>&1" % intf.name)
                if isinstance(intf.node, Router):
                    intf.node.cmd("tc qdisc replace dev %s root tbf rate %dmbit burst 32kb limit %d" % (
                        intf.name, bw, depth * 1514))
            if ipa:
                adj.setdefault(i1.node, []).append((i2.node, ipb))
                adj.setdefault(i2.node, []).append((i1.node, ipa))
        # ECMP routes: for every edge subnet, the next hops on shortest paths.
        for (pod, e), edge in edges.items():
            dist = {edge: 0}
            frontier = [edge]
            while frontier:
                nxt = []
                for r in frontier:
                    for peer, _ in adj.get(r, []):
                        if peer not in dist:
                            dist[peer] = dist[r] + 1
                            nxt.append(peer)
                frontier = nxt
            for r in routers.values():
                if r is edge:
                    continue
                hops = [ip for peer, ip in adj[r] if dist.get(peer, 99) == dist[r] - 1]
                r.cmd("ip route add 10.%d.%d.0/24 %s" % (pod, e, " ".join("nexthop via %s" % ip for ip in hops)))
        deadline = time.time() + 60
        while not all_pairs_clean(hosts):
            if time.time() > deadline:
                raise RuntimeError("kernel fat-tree: no all-pairs reachability within 60 s")
        say("kernel", "20 Linux routers, all-pairs reachability")
        return measure("kernel", hosts, [], seconds, routers=list(routers.values()))
    finally:
        net.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("process", "fabric", "kernel"), required=True)
    ap.add_argument("--bw", type=int, default=100, help="link rate in Mbit/s (default 100)")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--depth", type=int, default=None, help="switch queue depth in packets (default 64)")
    ap.add_argument("--loop", choices=("goroutines", "epoll"), default=None,
                    help="process mode: p4switch run --loop (default: P4Switch's)")
    ap.add_argument("--loops", type=int, default=None,
                    help="fabric mode: p4switch fabric --loops (default: P4FabricSwitch's)")
    args = ap.parse_args(argv)
    if args.loop:
        os.environ["P4SWITCH_LOOP"] = args.loop
    if args.loops is not None:
        os.environ["P4SWITCH_FABRIC_LOOPS"] = str(args.loops)
    setLogLevel("warning")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    if args.mode == "kernel":
        run_kernel(args.bw, args.seconds, depth=args.depth or 64)
    else:
        run_p4switch(args.mode, args.bw, args.seconds, depth=args.depth)


if __name__ == "__main__":
    main()
