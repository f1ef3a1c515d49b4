"""P4TE loop latency (run by ./fairfabric bench p4te): from a queue-depth
event's packet-in arriving at the controller to the switch's answer to the
Write carrying the resulting routing-group changes, with the stages in
between (docs/controller.md, "P4TE loop latency").

The 4x4 leaf-spine at 10 Mbit/s (node prefix fb unless --prefix), the
controller programming it, and for SECONDS on/off UDP bursts from h1 to h13
(30 datagrams of 1200 bytes back to back every 25 ms, from one of four source
ports in turn): each burst fills the queue of the leaf uplink it hashes to,
whose egress raises queue-depth INCREASE events, and the next burst on a
drained queue a DECREASE, so the core keeps moving leaf1's uplinks between
routing groups (a constant overload would fill the queues once and then
raise nothing). The controller logs its stages when it stops, p4switch its
own when it stops; this prints both.
"""

import argparse
import os
import sys
import tempfile
import time

from mininet.log import setLogLevel

from fairfabric_mn import fabric, runstate
from fairfabric_mn.controller import ControllerProcess

TOTAL = "P4TE event-to-group-write latency: "
STAGE = "P4TE stage "

BURSTS = r"""
import socket, sys, time
dst, seconds = sys.argv[1], float(sys.argv[2])
socks = []
for _ in range(4):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", 0))
    socks.append(s)
payload = bytes(1200)
end = time.time() + seconds
n = 0
while time.time() < end:
    s = socks[n % 4]
    for _ in range(30):
        try:
            s.sendto(payload, (dst, 5201))
        except OSError:
            pass
    n += 1
    time.sleep(0.025)
print(n)
"""


def stage_lines(path, marker):
    """The lines of a log that carry marker, from the marker on (the last run's)."""
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for line in f:
            if marker in line:
                out.append(line.split(marker, 1)[1].strip().rstrip('"'))
    return out


def all_events(ctl):
    """Every event of the controller's log, page by page."""
    out, after = [], 0
    while True:
        page = ctl.get("/events?after=%d&limit=1000" % after)
        if not page:
            return out
        out += page
        after = page[-1]["seq"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=int, default=10, help="duration of the bursts (1..120)")
    ap.add_argument("--prefix", default="fb", help="Mininet node prefix (2-3 letters)")
    args = ap.parse_args(argv)
    if not 1 <= args.seconds <= 120:
        ap.error("--seconds must be 1..120")
    if not (args.prefix.isalpha() and args.prefix.islower() and 1 <= len(args.prefix) <= 3):
        ap.error("--prefix must be 1-3 lower-case letters")
    setLogLevel("warning")
    workdir = tempfile.mkdtemp(prefix="fairfabric-p4te-bench.")
    net, topo = fabric.build("leafspine", prefix=args.prefix, bw=10)
    fabric.start(net)
    ctl = None
    leaf = net.get(args.prefix + "leaf1")
    try:
        cfg = os.path.join(workdir, "netcfg.json")
        fabric.write_netcfg(net, topo, cfg)
        ctl = ControllerProcess(workdir, cfg).start()
        runstate.extend(net, pids=[ctl.pid])
        ctl.wait_devices_available()
        src, dst = net.get(args.prefix + "h1", args.prefix + "h13")
        load_before = open("/proc/loadavg").read().split()[:3]
        script = os.path.join(workdir, "bursts.py")
        with open(script, "w") as f:
            f.write(BURSTS)
        bursts = src.cmd("/usr/bin/python3 %s %s %d" % (script, dst.IP(), args.seconds)).strip()
        load_after = open("/proc/loadavg").read().split()[:3]
        time.sleep(0.5)  # writes in flight
        moves = [e for e in all_events(ctl) if e["type"] == "routing-group.moved"]
        ctl.stop()
        totals = stage_lines(ctl.log_path, TOTAL)
        if not totals:
            print("[bench] no routing-group writes were caused by events; controller log %s" % ctl.log_path)
            return 1
        print("[bench] %s routing-group moves in %d s of UDP bursts (%s bursts of 30 x 1200 B) over 10 Mbit/s uplinks" % (
            len(moves), args.seconds, bursts.splitlines()[-1] if bursts else "?"))
        print("[bench] load average before/after: %s / %s" % (" ".join(load_before), " ".join(load_after)))
        print("[bench] " + totals[-1] + " (target p99 <= 5 ms)")
        print("[bench] controller stages:")
        for line in stage_lines(ctl.log_path, STAGE):
            print("[bench]   " + line)
        fabric.stop(net)
        net = None
        print("[bench] switch stages (%s, whole run):" % leaf.name)
        for line in stage_lines(leaf.log_path, STAGE):
            print("[bench]   " + line)
        return 0
    finally:
        if ctl:
            ctl.stop()
        if net is not None:
            fabric.stop(net)


if __name__ == "__main__":
    sys.exit(main())
