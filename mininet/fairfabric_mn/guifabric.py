"""A live fabric for the web GUI's browser tests (apps/gui/tests), driven over stdin/stdout.

Starts a k=4 fat-tree of p4switch instances in Mininet (node prefix fg, --bw Mbit/s per
link), a host shim on every host when given --kafka, and the embedded controller on it, waits until every switch is programmed, then
prints one JSON line {"url", "token", "hosts": {name: ip}} and answers one JSON command
per line on stdin with one JSON line on stdout:

    {"cmd": "iperf", "src": "fgh1", "dst": "fgh16", "mbps": 8, "seconds": 6, "port": 5301}
        starts a UDP iperf3 flow and answers at once {"started": true}
    {"cmd": "iperf-result", "port": 5301}
        waits for that flow; answers {"receivedBps": ...} (iperf3's receiver figure)
    {"cmd": "ping", "src": "fgh1", "dst": "fgh16", "count": 5}
        answers {"sent": n, "received": n}
    {"cmd": "restart-controller"}   stops the controller and starts it again on the same port
    {"cmd": "quit"}                 stops everything (so does end of input)

Errors answer {"error": "..."}; the process runs until quit. Needs root (Mininet).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

from mininet.log import setLogLevel

from fairfabric_mn import fabric, runstate, vms
from fairfabric_mn.controller import ControllerProcess
from fairfabric_mn.shim import ShimSet


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class Flows:
    """UDP iperf3 flows between Mininet hosts, one per server port."""

    def __init__(self, net):
        self.net = net
        self.running = {}
        self.servers = []

    def stop(self):
        for p in self.servers:
            if p.poll() is None:
                p.kill()
                p.wait()

    def start(self, src, dst, mbps, seconds, port):
        s, d = self.net.get(src), self.net.get(dst)
        # not daemonised: the process is ours to stop, even if the client never comes
        server = d.popen(["iperf3", "-s", "-1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.servers.append(server)
        deadline = time.time() + 10
        while ":%d " % port not in d.cmd("ss -Hltn 'sport = :%d'" % port):
            if time.time() > deadline:
                raise RuntimeError("iperf3 server on %s port %d did not listen within 10 s" % (dst, port))
            time.sleep(0.1)
        out = {}

        def run():
            # popen: the client runs while the shells of the hosts stay free for other commands
            p = s.popen(["iperf3", "-c", d.IP(), "-p", str(port), "-u", "-b", "%dM" % mbps, "-l", "1400",
                         "-t", str(seconds), "-J"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            stdout, stderr = p.communicate(timeout=seconds + 30)
            out["raw"] = stdout or stderr

        t = threading.Thread(target=run, daemon=True)
        t.start()
        self.running[port] = (t, out)

    def result(self, port):
        t, out = self.running.pop(port)
        t.join()
        res = json.loads(out["raw"])
        if "error" in res:
            raise RuntimeError("iperf3: %s" % res["error"])
        return {"receivedBps": res["end"]["sum"]["bits_per_second"] * (1 - res["end"]["sum"].get("lost_percent", 0) / 100.0),
                "sentBps": res["end"]["sum"]["bits_per_second"], "lostPercent": res["end"]["sum"].get("lost_percent", 0)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bw", type=int, default=20, help="Mbit/s of every link (default 20)")
    ap.add_argument("--kafka", default=None, help="Kafka bootstrap server for the controller (default: none)")
    args = ap.parse_args(argv)
    setLogLevel("warning")
    os.makedirs(runstate.RUN_DIR, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="fairfabric-gui.", dir=runstate.RUN_DIR)
    net, topo = fabric.build("fattree", prefix="fg", k=4, bw=args.bw)
    fabric.start(net)
    ctl = None
    stoppers = []
    try:
        cfg = os.path.join(workdir, "netcfg.json")
        # with a broker, a host shim on every host: rates enforced at the edge, tenants' achieved rates measured
        fabric.write_netcfg(net, topo, cfg, shims=bool(args.kafka))
        if args.kafka:
            stoppers.append(ShimSet(net, kafka=args.kafka).stop)
        ctl = ControllerProcess(workdir, cfg, kafka=args.kafka)
        ctl.start()
        runstate.extend(net, pids=[ctl.pid])
        ctl.wait_devices_available()
        flows = Flows(net)
        stoppers.append(flows.stop)
        reply({"url": "http://127.0.0.1:%d/" % ctl.http_port, "token": ctl.token, "log": ctl.log_path,
               "hosts": {h.name: h.IP() for h in net.hosts},
               "locations": {h.name: vms.location(h) for h in net.hosts}})
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                c = json.loads(line)
                cmd = c.get("cmd")
                if cmd == "quit":
                    reply({"bye": True})
                    break
                if cmd == "iperf":
                    flows.start(c["src"], c["dst"], int(c["mbps"]), int(c["seconds"]), int(c.get("port", 5301)))
                    reply({"started": True})
                elif cmd == "iperf-result":
                    reply(flows.result(int(c.get("port", 5301))))
                elif cmd == "ping":
                    out = net.get(c["src"]).cmd("ping -c %d -i 0.2 -W 1 %s" % (int(c.get("count", 5)), net.get(c["dst"]).IP()))
                    m = re.search(r"(\d+) packets transmitted, (\d+) received", out)
                    reply({"sent": int(m.group(1)), "received": int(m.group(2))} if m else {"error": out[-300:]})
                elif cmd == "restart-controller":
                    ctl.stop()
                    ctl.start()
                    runstate.extend(net, pids=[ctl.pid])
                    ctl.wait_devices_available()
                    reply({"restarted": True})
                else:
                    reply({"error": "unknown command %r" % cmd})
            except Exception as e:  # one bad command must not take the fabric down
                reply({"error": "%s: %s" % (type(e).__name__, e)})
        return 0
    finally:
        for stop in stoppers:
            stop()
        if ctl:
            ctl.stop()
        fabric.stop(net)


if __name__ == "__main__":
    sys.exit(main())
