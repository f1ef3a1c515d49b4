"""Partition-Aggregate traffic with the host shim's tools (zOVN Fig. 7, vFab Case 3): workers
(`shimctl pa-worker`) that answer an aggregator's queries over persistent TCP connections, each
worker's session to the aggregator rated by its shim, and the aggregator (`shimctl pa-aggregator`)
timing query completion per response size."""

import json
import subprocess
import urllib.request

from fairfabric_mn import shim

PORT = 5301


def start_workers(shims, agg, workers, rate_bps):
    """Workers on PORT, each with a rates table of one session to the aggregator at rate_bps in
    force at its shim; returns their processes."""
    for w in workers:
        shims.publish(w.name, shim.table(w.name, 1, [("pa-" + w.name, agg.IP(), [(0, rate_bps)])]))
    for w in workers:
        shims[w.name].wait_version(1)
    procs = [w.popen([shim.binary("shimctl"), "pa-worker", "-listen", ":%d" % PORT], stderr=subprocess.STDOUT) for w in workers]
    for p in procs:
        line = p.stdout.readline().decode()
        if "listening" not in line:
            raise RuntimeError("pa-worker: %s" % line)
    return procs


def query(agg, workers, sizes, budget, min_reps):
    """The aggregator's queries, min_reps or more per response size (MTUs) within budget each;
    returns pa-aggregator's JSON: per size the number of queries and their completion times."""
    out = agg.cmd("%s pa-aggregator -workers %s -sizes %s -budget %s -min-reps %d"
                  % (shim.binary("shimctl"), ",".join("%s:%d" % (w.IP(), PORT) for w in workers),
                     ",".join(str(s) for s in sizes), budget, min_reps))
    if not out.strip().startswith("["):
        raise RuntimeError("pa-aggregator: %s" % out)
    return json.loads(out)


def queue_peak(switch, port):
    """A p4switch port's queue peak since the last call (packets, bytes, queue drops so far); the
    call starts a new measurement (docs/p4switch.md, DELETE /ports/N/peak)."""
    req = urllib.request.Request("http://%s/ports/%d/peak" % (switch.admin_addr, port), method="DELETE")
    with urllib.request.urlopen(req, timeout=10) as r:
        st = json.load(r)
    return st["peak_packets"], st["peak_bytes"], st["queue_drops"]
