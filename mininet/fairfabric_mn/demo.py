"""The demo (run by ./fairfabric demo): the embedded controller runs a p4switch
fabric in Mininet.

Starts the fabric (k=4 fat-tree: 20 p4switch instances and 16 hosts, or with
--topo leafspine P4TE's 4x4 leaf-spine), writes its network configuration,
starts the controller on it (events to Kafka when a broker is given), waits
until every switch is connected and programmed, provisions two tenants with
eight hosts each over REST, shows all-pairs reachability, declares one session
per tenant and shows the allocation loop's rates for them, shows where to look.
Then (with a Kafka broker) it runs a host shim on every host, provisions three
more tenants with weights 1:2:3 whose VMs share one sending server's cable
(competition.py), starts greedy iperf3 TCP between their VMs and prints every
second a per-tenant table: weight, guarantee, allocated, achieved, error, and the mean
error over the last 10 s (the fairness tests' window). It
cleans everything up on exit or Ctrl-C. Node prefix: fd.
"""

import argparse
import collections
import os
import select
import signal
import sys
import tempfile
import time

from mininet.log import setLogLevel

from fairfabric_mn import fabric, runstate
from fairfabric_mn.competition import Competition, format_table
from fairfabric_mn.controller import ControllerProcess
from fairfabric_mn.shim import ShimSet

MEAN_WINDOW_S = 10  # the fairness tests judge achieved vs allocated over 10 s windows
TENANTS = (("blue", "Tenant blue", 2), ("red", "Tenant red", 1))


def say(msg):
    print("[demo] " + msg, flush=True)


def provision(ctl, net, topo):
    """Two tenants; the first half of the hosts to the first, the rest to the second."""
    hosts = sorted(net.hosts, key=lambda h: int(h.name[len(topo.prefix) + 1:]))
    half = len(hosts) // 2
    for n, (tid, name, weight) in enumerate(TENANTS):
        status, body = ctl.send("POST", "/tenants", {"id": tid, "name": name, "weight": weight})
        if status != 201:
            raise RuntimeError("creating tenant %s: %s %s" % (tid, status, body))
        for h in hosts[n * half:(n + 1) * half]:
            intf = h.defaultIntf()
            peer = intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1
            loc = {"device": "device:" + peer.node.name, "port": peer.node.ports[peer]}
            status, body = ctl.send("POST", "/tenants/%s/hosts" % tid,
                                    {"id": h.name, "ip": h.IP(), "mac": h.MAC(), "location": loc})
            if status != 201:
                raise RuntimeError("adding host %s to %s: %s %s" % (h.name, tid, status, body))
        say("tenant %s (weight %s): %s" % (tid, weight, " ".join(h.name for h in hosts[n * half:(n + 1) * half])))


def declare_sessions(ctl, net, topo, timeout=15):
    """One session per tenant (first host to last host of its half), then the allocation loop's
    rates for them (GET /allocations); returns the allocations."""
    hosts = sorted(net.hosts, key=lambda h: int(h.name[len(topo.prefix) + 1:]))
    half = len(hosts) // 2
    pairs = [(hosts[0].name, hosts[half - 1].name), (hosts[half].name, hosts[-1].name)]
    ids = []
    for src, dst in pairs:
        status, body = ctl.send("POST", "/sessions", {"srcHost": src, "dstHost": dst})
        if status != 201:
            raise RuntimeError("declaring session %s -> %s: %s %s" % (src, dst, status, body))
        ids.append(body["id"])
    deadline = time.time() + timeout
    while True:
        alloc = [a for a in ctl.get("/allocations") if a["sessionId"] in ids]
        if len(alloc) == len(ids):
            break
        if time.time() > deadline:
            raise RuntimeError("no allocation for the sessions within %d s; controller log %s" % (timeout, ctl.log_path))
        time.sleep(0.2)
    for (src, dst), a in zip(pairs, sorted(alloc, key=lambda a: ids.index(a["sessionId"]))):
        say("session %s %s -> %s (%s): %.1f Mbit/s over paths %s" % (
            a["sessionId"], src, dst, a["tenantId"], a["totalBps"] / 1e6,
            ", ".join("%d: %.1f" % (p["pathId"], p["rateBps"] / 1e6) for p in a["paths"])))
    return alloc


def show_tables(comp, shim, keep, reweight):
    """The per-tenant table every second: keep seconds (None: until Enter or Ctrl-C on a terminal);
    reweight (tenant, weight, at seconds): a PATCH /tenants during the run."""
    t0 = time.time()
    window = collections.deque(maxlen=MEAN_WINDOW_S)
    interactive = keep is None
    if interactive:
        say("press Enter or Ctrl-C to stop and clean up")
    while True:
        elapsed = time.time() - t0
        if reweight and elapsed >= reweight[2]:
            status, body = comp.ctl.send("PATCH", "/tenants/%s" % reweight[0], {"weight": reweight[1]})
            say("PATCH /tenants/%s {\"weight\": %d}: %s" % (reweight[0], reweight[1], status))
            reweight = None
        try:
            rows = comp.rows(shim)
            window.append(rows)
            print(format_table(elapsed, rows, window), flush=True)
        except OSError as e:
            say("table: %s" % e)
        if not interactive and time.time() - t0 >= keep:
            return
        if interactive:
            try:
                ready, _, _ = select.select([sys.stdin], [], [], 1.0)
            except KeyboardInterrupt:
                return
            if ready:
                sys.stdin.readline()
                return
        else:
            time.sleep(1.0)


def parse_reweight(text):
    try:
        tenant, rest = text.split("=")
        weight, at = rest.split("@")
        return tenant, int(weight), float(at)
    except ValueError:
        raise argparse.ArgumentTypeError("--reweight is TENANT=WEIGHT@SECONDS, e.g. amber=4@20, not %r" % text)


def headroom(text):
    try:
        f = float(text)
    except ValueError:
        f = -1
    if not 0 <= f <= 0.5:
        raise argparse.ArgumentTypeError("--headroom is a fraction from 0 to 0.5, e.g. 0.03, not %r" % text)
    return f


def all_pairs_clean(net):
    for src in net.hosts:
        for dst in net.hosts:
            if src is not dst and " 0% packet loss" not in src.cmd("ping -c1 -W1 %s" % dst.IP()):
                return False
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--topo", choices=sorted(fabric.TOPOLOGIES), default="fattree")
    ap.add_argument("--kafka", default=os.environ.get("FAIRFABRIC_KAFKA"),
                    help="Kafka bootstrap server for the controller's events (default $FAIRFABRIC_KAFKA)")
    ap.add_argument("--keep", type=float, default=None, metavar="SECONDS",
                    help="keep the fabric up this long after the checks (default: until Enter or Ctrl-C "
                         "on a terminal, else not at all)")
    # 8, not fabric's 100: on 2 shared cores under load the p4switch fabric does not carry 20 Mbit/s
    # of TCP without the largest flow falling far short (docs/controller.md, the demo)
    ap.add_argument("--bw", type=float, default=8, help="link rate in Mbit/s (default 8)")
    ap.add_argument("--reweight", type=parse_reweight, default=None, metavar="TENANT=WEIGHT@SECONDS",
                    help="change a competing tenant's weight over REST that many seconds into the table")
    ap.add_argument("--fack-dscp", default=None, metavar="DSCP[,DSCP...]",
                    help="turn on P4TE's FACK rate control for these traffic classes (off by default; the "
                         "competition's iperf3 flows are DSCP 0): the FACKs sent show in the monitor's links "
                         "and in the GUI")
    # 3 %: without it the sender's cable, allocated to the full, held a queue and violet's flow (the
    # largest) swung 10-30 % below its allocation (docs/controller.md, "Capacity headroom")
    ap.add_argument("--headroom", type=headroom, default=0.03, metavar="F",
                    help="the share of every link the controller keeps out of allocations (default 0.03)")
    args = ap.parse_args(argv)
    setLogLevel("warning")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))

    os.makedirs(runstate.RUN_DIR, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="fairfabric-demo.", dir=runstate.RUN_DIR)
    t0 = time.time()
    say("building the %s (p4switch, node prefix fd)" % args.topo)
    net, topo = fabric.build(args.topo, prefix="fd", bw=args.bw)
    ctl = shims = comp = None
    fabric.start(net)  # stops what it started when it fails
    try:
        say("%d switches, %d hosts up in %.1f s" % (len(net.switches), len(net.hosts), time.time() - t0))
        cfg = os.path.join(workdir, "netcfg.json")
        if args.kafka:
            fabric.write_netcfg(net, topo, cfg, shims=True)
            shims = ShimSet(net, kafka=args.kafka)
            say("a host shim on each of the %d hosts (rates from ff.ctl.rates.v1)" % len(shims.shims))
        else:
            fabric.write_netcfg(net, topo, cfg)
        ctl = ControllerProcess(workdir, cfg, kafka=args.kafka,
                                extra_args=["--headroom", repr(args.headroom)] + (["--fack-dscp", args.fack_dscp] if args.fack_dscp else []))
        ctl.start()
        runstate.extend(net, pids=[ctl.pid])
        say("controller up (pid %d), REST %s; it keeps %g %% of every link out of allocations (--headroom %g)"
            % (ctl.pid, ctl.url, 100 * args.headroom, args.headroom))
        ctl.wait_devices_available()
        say("all %d switches connected, primary and programmed after %.1f s" % (len(net.switches), time.time() - t0))
        provision(ctl, net, topo)
        deadline = time.time() + 120
        while not all_pairs_clean(net):
            if time.time() > deadline:
                raise RuntimeError("no all-pairs reachability within 120 s; controller log %s" % ctl.log_path)
        say("all-pairs reachability %.1f s after the demo started" % (time.time() - t0))
        declare_sessions(ctl, net, topo)
        loss = net.pingAll(timeout=2)
        say("all-pairs ping: %.0f%% loss" % loss)
        groups = ctl.get("/routing-groups")
        ecmp = [g for g in groups if g["level"] == 0 and g["metric"] == "queue-depth"]
        say("routing groups: %d switches with uplinks, level 0 (ECMP) of %s holds ports %s" % (
            len(ecmp), ecmp[0]["device"], ecmp[0]["ports"]) if ecmp else "routing groups: none")
        say("where to look:")
        say("  web GUI       http://127.0.0.1:%d/  (live topology, tenants, events; actions need the token in %s)"
            % (ctl.http_port, ctl.token_file))
        say("  REST API      %s  (GET /tenants, /topology, /routing-groups, /events; token in %s)"
            % (ctl.url, ctl.token_file))
        say("  OpenAPI       %s/openapi.yaml" % ctl.url)
        say("  allocations   %s/allocations (the allocation loop's rates per session and path; "
            "POST /sessions to add more)" % ctl.url)
        if args.kafka:
            say("  Kafka         %s topics ff.ctl.tenants.v1 ff.ctl.routing-groups.v1 ff.ctl.topology.v1 "
                "ff.ctl.sessions.v1 ff.ctl.allocations.v1 ff.ctl.rates.v1" % args.kafka)
        else:
            say("  Kafka         no broker given: events only at %s/events" % ctl.url)
        say("  network config %s, controller log %s, switch logs /tmp/p4switch-fd*.log" % (cfg, ctl.log_path))
        if shims:
            hosts = sorted(net.hosts, key=lambda h: int(h.name[len(topo.prefix) + 1:]))
            comp = Competition(ctl, net, hosts[1], hosts[-2], say)
            comp.provision()
            keep = args.keep if args.keep is not None or sys.stdin.isatty() else 0
            comp.start_traffic((keep or 86400) + 5)
            say("greedy iperf3 TCP between the VMs; the table every second (GET /allocations, GET /tenants, "
                "the shims' /stats)")
            show_tables(comp, shims[hosts[1].name], keep, args.reweight)
        elif args.keep is not None:
            say("keeping the fabric up for %.0f s" % args.keep)
            time.sleep(args.keep)
        elif sys.stdin.isatty():
            say("press Enter or Ctrl-C to stop and clean up")
            try:
                sys.stdin.readline()
            except KeyboardInterrupt:
                pass
        return 0 if loss == 0 else 1
    finally:
        say("cleaning up")
        if comp:
            comp.stop()
        if ctl:
            ctl.stop()
        if shims:
            shims.stop()
        fabric.stop(net)


if __name__ == "__main__":
    sys.exit(main())
