"""P4TE loop latency (run by ./fairfabric bench p4te): from a queue-depth
event's packet-in at the controller to the switch's answer to the resulting
routing-group writes.

The 4x4 leaf-spine at 10 Mbit/s (node prefix fb), the controller programming
it, a 40 Mbit/s UDP flow from fbh1 to fbh13 for SECONDS: the leaf's uplinks
report queue-depth changes and the core moves them between routing groups.
The controller logs the latency summary when it stops; this prints it.
"""

import argparse
import os
import sys
import tempfile
import time

from mininet.log import setLogLevel

from fairfabric_mn import fabric, runstate
from fairfabric_mn.controller import ControllerProcess

SUMMARY = "P4TE event-to-group-write latency: "


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=int, default=5, help="duration of the UDP flow (1..60)")
    args = ap.parse_args(argv)
    if not 1 <= args.seconds <= 60:
        ap.error("--seconds must be 1..60")
    setLogLevel("warning")
    workdir = tempfile.mkdtemp(prefix="fairfabric-p4te-bench.")
    net, topo = fabric.build("leafspine", prefix="fb", bw=10)
    fabric.start(net)
    ctl = None
    try:
        cfg = os.path.join(workdir, "netcfg.json")
        fabric.write_netcfg(net, topo, cfg)
        ctl = ControllerProcess(workdir, cfg).start()
        runstate.extend(net, pids=[ctl.pid])
        ctl.wait_devices_available()
        src, dst = net.get("fbh1", "fbh13")
        dst.cmd("iperf3 -s -D -1 -p 5201")
        time.sleep(0.5)
        src.cmd("iperf3 -c %s -p 5201 -u -b 40M -l 1200 -t %d > /dev/null 2>&1" % (dst.IP(), args.seconds))
        moves = [e for e in ctl.get("/events?limit=1000") if e["type"] == "routing-group.moved"]
        ctl.stop()
        lines = [l for l in open(ctl.log_path) if SUMMARY in l]
        if not lines:
            print("[bench] no routing-group writes were caused by events; controller log %s" % ctl.log_path)
            return 1
        print("[bench] %d routing-group moves in %d s of a 40 Mbit/s flow over 10 Mbit/s uplinks" % (
            len(moves), args.seconds))
        print("[bench] " + lines[-1].split(SUMMARY)[1].strip() + " (target p99 <= 5 ms)")
        return 0
    finally:
        if ctl:
            ctl.stop()
        fabric.stop(net)


if __name__ == "__main__":
    sys.exit(main())
