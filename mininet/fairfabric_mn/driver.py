"""A Mininet fabric driven over stdin/stdout, for tests written in other languages
(the controller's Mininet-backed JUnit tests).

    /usr/bin/python3 -m fairfabric_mn.driver --topo fattree|leafspine --prefix cj --netcfg FILE [--bw MBIT] [--shims [--shim-arg=ARG ...]]
        [--core-bw MBIT]   (fat-tree: the aggregation-core cables' rate, default --bw)

Builds and starts the fabric (fabric.py: p4switch instances, hosts), writes its
ONOS network configuration to FILE, prints one JSON line

    {"ready": true, "switches": {...}, "hosts": {...}, "netcfg": FILE}

and then answers newline-delimited JSON commands on stdin, one JSON line each:
{"ok": true, ...} or {"ok": false, "error": "..."}. Commands ({"op": NAME, ...}):

    ping_all   {timeout?}                 one ping per ordered host pair; with timeout, rounds
                                          until one has no loss (or the time is up)
    ping       {src, dst, count?, interval?}
    iperf3     {src, dst, seconds?, udp?, bitrate?, length?, streams?, omit?}   parsed figures (bit/s)
    flows      {pairs: [[src, dst], ...], count?}   per pair, the UDP flows (distinct source
                                          ports) that arrive (all pairs at once)
    link       {a, b, state: up|down}
    switch_kill {name} / switch_start {name}   kill -9 / restart a p4switch process
    bg         {host, argv}               start a command on a host; bg_wait {job, timeout?}
    cmd        {host, argv}               run a command on a host: rc and output
    track      {pid}                      a process started for this fabric (the controller):
                                          recorded for ./fairfabric clean, killed at the end
    shim       {host, path?}              with --shims: GET path (default /stats) of the host's shim
    ports      {switch}                   the switch's traffic-manager ports (rate, depth, counters)
    stop

With --shims every host runs the host shim (rates from ff.ctl.rates.v1 at $FAIRFABRIC_KAFKA)
and the network configuration marks every host as running it.

Everything is stopped on `stop`, on end of input (the test process died: its pipe
closes) and on SIGTERM, and the run is recorded with runstate for
./fairfabric clean in between. Only the protocol goes to standard output; Mininet's
and everything else's output goes to standard error.
"""

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request

from mininet.log import setLogLevel

from fairfabric_mn import fabric, runstate
from fairfabric_mn.shim import ShimSet

RECEIVER = """
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", int(sys.argv[2])))
s.settimeout(0.1)
ports = set()
expected = int(sys.argv[3])
end = time.time() + float(sys.argv[1])
while time.time() < end and len(ports) < expected:
    try:
        _, (_, port) = s.recvfrom(2048)
        ports.add(port)
    except socket.timeout:
        pass
print(len(ports))
"""

SENDER = """
import socket, sys, time
for port in range(20000, 20000 + int(sys.argv[2])):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    for _ in range(3):
        s.sendto(b"x" * 64, (sys.argv[1], int(sys.argv[3])))
    s.close()
    time.sleep(0.002)  # a burst of every flow at once would only test the queue depth
"""

PING_SUMMARY = re.compile(r"(\d+) packets transmitted, (\d+) received")


class CommandError(Exception):
    pass


class Driver:
    def __init__(self, net, topo, shims=None):
        self.net = net
        self.topo = topo
        self.shims = shims
        self.jobs = {}
        self.tracked = []

    # ---- lookups

    def node(self, name, kind="host"):
        nodes = self.net.hosts if kind == "host" else self.net.switches
        for n in nodes:
            if n.name == name:
                return n
        raise CommandError("unknown %s %r" % (kind, name))

    def describe(self):
        switches = {}
        for sw in self.net.switches:
            role, pod = self.topo.roles[sw.name]
            switches[sw.name] = {"role": role, "pod": pod, "device_id": sw.device_id, "grpc_port": sw.grpc_port,
                                 "pid": sw.switch_pid}
        hosts = {}
        for h in self.net.hosts:
            intf = h.defaultIntf()
            peer = intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1
            hosts[h.name] = {"ip": h.IP(), "mac": h.MAC(), "switch": peer.node.name, "port": peer.node.ports[peer],
                             "pid": h.pid, "intf": intf.name}
        return {"switches": switches, "hosts": hosts}

    # ---- commands

    def op_ping_all(self, timeout=None):
        t0 = time.time()
        rounds = 0
        while True:
            rounds += 1
            failed = self.ping_round()
            if not failed or timeout is None or time.time() - t0 > timeout:
                pairs = len(self.net.hosts) * (len(self.net.hosts) - 1)
                return {"pairs": pairs, "failed": failed, "loss": 100.0 * len(failed) / pairs, "rounds": rounds,
                        "seconds": time.time() - t0}

    def ping_round(self):
        """Each source pings every other host at once (one ping, 1 s wait); the failed pairs."""
        failed = []
        for src in self.net.hosts:
            dsts = [h for h in self.net.hosts if h is not src]
            script = " ".join("(ping -c1 -W1 %s >/dev/null 2>&1 || echo %s) &" % (d.IP(), d.name) for d in dsts)
            p = src.popen(["bash", "-c", script + " wait"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            out, _ = p.communicate(timeout=30)
            names = {d.name for d in dsts}
            failed += [[src.name, n] for n in out.decode().split() if n in names]
        return failed

    def op_ping(self, src, dst, count=1, interval=None):
        s, d = self.node(src), self.node(dst)
        argv = ["ping", "-c", str(int(count)), "-W", "1"]
        if interval is not None:
            argv += ["-i", str(interval)]
        out = s.cmd(" ".join(shlex.quote(a) for a in argv + [d.IP()]))
        return parse_ping(out)

    def op_iperf3(self, src, dst, seconds=5, udp=False, bitrate=None, length=None, streams=1, omit=0, port=5201):
        s, d = self.node(src), self.node(dst)
        server = d.popen(["iperf3", "-s", "-1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(0.5)
            argv = ["iperf3", "-c", d.IP(), "-p", str(port), "-J", "-t", str(seconds), "-P", str(int(streams)),
                    "-O", str(omit)]
            if udp:
                argv += ["-u", "-b", str(bitrate or "10M")]
            elif bitrate:
                argv += ["-b", str(bitrate)]
            if length:
                argv += ["-l", str(length)]
            launched_ms = int(time.time() * 1000)
            client = s.popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out, err = client.communicate(timeout=float(seconds) + 30)
            try:
                result = json.loads(out)
            except ValueError:
                raise CommandError("iperf3 gave no JSON (rc %s): %s %s" % (client.returncode, out[-500:], err[-500:]))
            if "error" in result:
                raise CommandError("iperf3: %s" % result["error"])
            end = result["end"]
            # per-interval figures on the wall clock (the client's launch + iperf3's offsets; the
            # connection set-up before its first interval makes them late by a few ms)
            intervals = [{"start_ms": launched_ms + int(i["sum"]["start"] * 1000),
                          "end_ms": launched_ms + int(i["sum"]["end"] * 1000), "bytes": i["sum"]["bytes"]}
                         for i in result.get("intervals", [])]
            if udp:
                total = end["sum"]
                return {"sent_bps": total["bits_per_second"], "received_bps": total["bits_per_second"]
                        * (1 - total.get("lost_percent", 0) / 100.0), "lost_percent": total.get("lost_percent", 0),
                        "packets": total.get("packets", 0), "intervals": intervals}
            return {"sent_bps": end["sum_sent"]["bits_per_second"],
                    "received_bps": end["sum_received"]["bits_per_second"],
                    "retransmits": end["sum_sent"].get("retransmits", 0),
                    "mss": result["start"].get("tcp_mss_default", 0)}
        finally:
            stop_process(server)

    def op_flows(self, pairs, count=64, listen=3.0):
        """For each [src, dst] pair at once: how many of count UDP flows (distinct source ports,
        so spread over every ECMP choice) from src reach dst within listen seconds."""
        receivers, senders = [], []
        for i, (src, dst) in enumerate(pairs):
            s, d = self.node(src), self.node(dst)
            port = 9000 + i
            receivers.append(d.popen(["python3", "-c", RECEIVER, str(listen), str(port), str(int(count))],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE))
            senders.append((s, d, port))
        time.sleep(0.3)
        started = [s.popen(["python3", "-c", SENDER, d.IP(), str(int(count)), str(port)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE) for s, d, port in senders]
        errors = []
        for tx in started:
            _, err = tx.communicate(timeout=30)
            if tx.returncode != 0:
                errors.append(err.decode(errors="replace"))
        delivered = []
        for rx in receivers:
            out, err = rx.communicate(timeout=listen + 30)
            if rx.returncode != 0:
                errors.append(err.decode(errors="replace"))
                delivered.append(0)
            else:
                delivered.append(int(out.strip()))
        if errors:
            raise CommandError("flow test failed: %s" % errors)
        return {"sent": int(count), "delivered": delivered}

    def op_link(self, a, b, state):
        if state not in ("up", "down"):
            raise CommandError("state must be up or down, not %r" % state)
        self.node(a, "switch" if a in self.topo.roles else "host")
        self.node(b, "switch" if b in self.topo.roles else "host")
        if not self.net.linksBetween(self.net.get(a), self.net.get(b)):
            raise CommandError("no link between %s and %s" % (a, b))
        self.net.configLinkStatus(a, b, state)
        return {}

    def op_switch_kill(self, name):
        sw = self.node(name, "switch")
        if sw.proc is None or sw.proc.poll() is not None:
            raise CommandError("%s is not running" % name)
        pid = sw.proc.pid
        sw.proc.kill()
        sw.proc.wait()
        return {"pid": pid}

    def op_switch_start(self, name):
        sw = self.node(name, "switch")
        if sw.proc is not None and sw.proc.poll() is None:
            raise CommandError("%s is running" % name)
        sw.start([])
        runstate.extend(self.net, pids=[sw.switch_pid])
        return {"pid": sw.switch_pid}

    def op_bg(self, host, argv):
        h = self.node(host)
        p = h.popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        job = len(self.jobs) + 1
        self.jobs[job] = p
        return {"job": job}

    def op_bg_wait(self, job, timeout=60):
        p = self.jobs.pop(job, None)
        if p is None:
            raise CommandError("no job %r" % job)
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stop_process(p)
            raise CommandError("job %r did not finish within %ss" % (job, timeout))
        return {"rc": p.returncode, "out": out.decode(errors="replace")}

    def op_cmd(self, host, argv, timeout=60):
        h = self.node(host)
        p = h.popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stop_process(p)
            raise CommandError("%s did not finish within %ss" % (" ".join(argv), timeout))
        return {"rc": p.returncode, "out": out.decode(errors="replace")}

    def op_shim(self, host, path="/stats"):
        if self.shims is None:
            raise CommandError("the fabric runs no shims (driver option --shims)")
        if host not in self.shims.shims:
            raise CommandError("no shim on %r" % host)
        if not path.startswith("/"):
            raise CommandError("path %r does not start with /" % path)
        return {"body": json.loads(self.shims[host].get(path))}

    def op_ports(self, switch):
        sw = self.node(switch, kind="switch")
        with urllib.request.urlopen("http://%s/ports" % sw.admin_addr, timeout=5) as r:
            return {"ports": json.loads(r.read())}

    def op_track(self, pid):
        pid = int(pid)
        self.tracked.append(pid)
        runstate.extend(self.net, pids=[pid])
        return {}

    # ----

    def handle(self, line):
        try:
            req = json.loads(line)
            if not isinstance(req, dict) or not isinstance(req.get("op"), str):
                raise CommandError("a command is a JSON object with an \"op\"")
            op = req.pop("op")
            fn = getattr(self, "op_" + op, None)
            if fn is None:
                raise CommandError("unknown op %r" % op)
            reply = fn(**req)
            reply["ok"] = True
            return reply
        except (CommandError, TypeError, ValueError, KeyError) as e:
            return {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
        except Exception as e:  # a failed command must not take the fabric down with it
            return {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}

    def close(self):
        for p in self.jobs.values():
            stop_process(p)
        for pid in self.tracked:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def parse_ping(out):
    m = PING_SUMMARY.search(out)
    if not m:
        raise CommandError("no ping summary in %r" % out[-300:])
    sent, received = int(m.group(1)), int(m.group(2))
    return {"transmitted": sent, "received": received, "loss": 100.0 * (sent - received) / sent if sent else 100.0}


def is_stop(line):
    try:
        req = json.loads(line)
    except ValueError:
        return False
    return isinstance(req, dict) and req.get("op") == "stop"


def stop_process(p):
    if p.poll() is None:
        p.kill()
        p.wait()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--topo", choices=sorted(fabric.TOPOLOGIES), required=True)
    ap.add_argument("--prefix", required=True, help="node name prefix (keeps interface names apart from other runs)")
    ap.add_argument("--netcfg", required=True, help="where to write the fabric's ONOS network configuration")
    ap.add_argument("--bw", type=float, default=100, help="link rate in Mbit/s (p4switch port rates)")
    ap.add_argument("--shims", action="store_true", help="a host shim on every host (needs $FAIRFABRIC_KAFKA)")
    ap.add_argument("--shim-arg", action="append", default=[], metavar="ARG",
                    help="one more host-shim argument for every shim, e.g. --shim-arg=-edge-window --shim-arg=2ms")
    ap.add_argument("--core-bw", type=float, help="fat-tree: rate of the aggregation-core cables in Mbit/s (default --bw)")
    args = ap.parse_args(argv)
    if args.core_bw is not None and (args.topo != "fattree" or args.core_bw <= 0):
        ap.error("--core-bw takes a positive rate and needs --topo fattree")

    # The protocol gets its own copy of standard output; fd 1 itself goes to standard error
    # so that nothing else (Mininet, a child process) can interleave with a reply.
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    setLogLevel("warning")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(130))
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)

    extra = {"core_bw": args.core_bw} if args.core_bw is not None else {}
    net, topo = fabric.build(args.topo, prefix=args.prefix, bw=args.bw, **extra)
    fabric.start(net)  # stops what it started when it fails
    shims = None
    try:
        if args.shims:
            shims = ShimSet(net, extra=tuple(args.shim_arg))
    except Exception:
        fabric.stop(net)
        raise
    driver = Driver(net, topo, shims)
    try:
        if shims:
            fabric.write_netcfg(net, topo, args.netcfg, shims=True)
        else:
            fabric.write_netcfg(net, topo, args.netcfg)
        ready = {"ready": True, "netcfg": os.path.abspath(args.netcfg), "pid": os.getpid()}
        ready.update(driver.describe())
        proto.write(json.dumps(ready) + "\n")
        for line in sys.stdin:
            if not line.strip():
                continue
            if is_stop(line):
                proto.write(json.dumps({"ok": True}) + "\n")
                break
            proto.write(json.dumps(driver.handle(line)) + "\n")
        return 0
    finally:
        driver.close()
        if shims:
            shims.stop()
        fabric.stop(net)


if __name__ == "__main__":
    sys.exit(main())
