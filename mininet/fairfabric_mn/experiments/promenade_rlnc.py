"""Promenade's RLNC over multipath (issue 22): one session over 4 paths of unequal delay, coded
(bin/rlnc) vs packet-split TCP without coding.

A leaf-spine of p4switch processes: 2 leaves, 4 spines, 1 host per leaf, host links MBPS (declared
in the network configuration), cables CABLE_MBPS = MBPS/4, and the cables to spine j delayed by
DELAYS_MS[j] (each direction; a path crosses two such cables, so its one-way delay is twice that:
0/2/5/10 ms, the digest's T8). No path alone carries the host link's rate, so the controller
allocates the session h1 -> h2 over the 4 paths (exact PF: MBPS, CABLE_MBPS per path) and
publishes h1's rates table on ff.ctl.rates.v1;
the fabric pins each path by its VLAN id (docs/pipeline.md), and h2's host shim strips the tag.
  - RLNC: `rlnc send -rates` with h1's table in force (read from the topic) spreads coded packets
    over the 4 paths in proportion to their rates; `rlnc recv` on h2 decodes. Goodput = bytes / the sender's time,
    which ends when the receiver has decoded everything.
  - TCP: iperf3 h1 -> h2 through h1's host shim, which sprays the session's packets over the same
    4 paths (split: packet, docs/host-shim.md), so TCP sees the delay spread as reordering.
The issue's target: RLNC delivers its allocation; packet-split TCP loses >= 30% of it.
  - Table 2 (per-record delay, RLNC vs Linux MPTCP): 1 KB records written at DELAY_LOAD of the
    allocation (delay_probe.py: the time from the write to the read of a record's last byte at the
    receiver), once through RLNC over the session's 4 paths, once over an MPTCP connection whose
    4 subflows go to 4 addresses of h2 (VMs, ADD_ADDR), each address a session of its own that the
    controller pins to a path and h1's shim rates. The paper's random cross traffic is not run:
    the paths' fixed delays stand for its unequal queues."""

import json
import os
import shlex
import statistics
import subprocess
import time

from fairfabric_mn import fabric, vms
from fairfabric_mn.experiments import delay_probe, plot, rlnc_transfer
from fairfabric_mn.experiments.fabric_run import ControlledFabric, stop_processes
from fairfabric_mn.experiments.runner import Result, progress
from fairfabric_mn.shim import ShimSet, binary

NAME = "promenade-rlnc"
SUMMARY = "RLNC over 4 paths of unequal delay vs packet-split TCP, and record delay vs Linux MPTCP (Table 2) (Mininet, controller, pinned paths)"
PAPER = "Promenade (Chen et al.), §4 and §7.2 (RLNC makes multipath reordering harmless; Table 2: delay vs MPTCP)"
NEEDS_ROOT = True
MBPS = 12
CABLE_MBPS = MBPS // 4
# The controller keeps HEADROOM of every link out of allocations (--headroom, docs/controller.md):
# with the four paths allocated to the full, RLNC's pacer met standing queues and fell to 83-92 %.
HEADROOM = 0.03
DELAYS_MS = (0, 1, 2.5, 5)
DELAY_LOAD = 0.5  # Table 2's records: this fraction of the allocation
PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "delay_probe.py")
MPTCP_SUBFLOWS = 4
PREFIX = "xr" + "0123456789abcdefghijklmnopqrstuvwxyz"[os.getpid() % 36]


class DelayedLeafSpine(fabric.LeafSpine):
    """LeafSpine whose cables run at CABLE_MBPS, those to spine j delayed by DELAYS_MS[j]."""

    def cable(self, a, pa, b, pb, bw=None):
        self.cable_bw[frozenset((a, b))] = CABLE_MBPS
        params = self.link_params(CABLE_MBPS)
        delay = DELAYS_MS[int(b.split("spine")[1]) - 1]
        if delay:
            params["delay"] = "%gms" % delay
        self.addLink(a, b, port1=pa, port2=pb, **params)


fabric.TOPOLOGIES["leafspine-delayed"] = DelayedLeafSpine


def run(quick=False):
    seconds = 6 if quick else 15
    delay_s = 5 if quick else 20
    total_bps = MBPS * 1e6
    res = Result(NAME, PAPER, quick, {
        "topology": "leaf-spine, 2 leaves x 4 spines x 1 host, host links %d Mbit/s, cables %d Mbit/s" % (MBPS, CABLE_MBPS),
        "delays_ms_per_cable": DELAYS_MS, "path_one_way_delay_ms": [2 * d for d in DELAYS_MS],
        "rlnc": "bin/rlnc, window 8, 1 KB symbols, rates: h1's newest table on ff.ctl.rates.v1 (as -rates FILE)",
        "tcp": "iperf3 (CUBIC) through h1's host shim, split: packet over the same 4 paths",
        "bytes_rlnc": int(total_bps / 8 * seconds), "seconds_tcp": seconds,
        "headroom": "%g of every link kept out of allocations (controller --headroom)" % HEADROOM,
        "scale": "paper: 1 Mbit/s links in a k=4 fat-tree (simulation), cross traffic; here 4 paths of %g Mbit/s, no cross traffic, p4switch" % CABLE_MBPS})
    res.paper_value("claim", "RLNC: any coded packet may take any path; reordering costs nothing")
    res.paper_value("issue_target", {"rlnc_of_allocation": ">= 0.95", "packet_split_tcp_loss": ">= 0.30"})
    res.paper_value("table2_delay_ms", {"rlnc": [3.036, 1.106], "mptcp": [3.421, 1.582]})
    progress(NAME, "building the leaf-spine (4 delayed paths), the controller and h2's shim")
    # h1 and h2 are shim hosts: the controller publishes h1's rates and keeps the path tag to h2
    f = ControlledFabric(PREFIX, MBPS, kind="leafspine-delayed", leaves=2, spines=4, hosts_per_leaf=1,
                         shim_hosts=(1, 2), controller_args=["--headroom", str(HEADROOM)])
    kafka = os.environ.get("FAIRFABRIC_KAFKA")
    procs, receiver_shim, sender_shim = [], None, None
    try:
        if not kafka:
            raise RuntimeError("no Kafka broker: FAIRFABRIC_KAFKA is not set")
        h1, h2 = f.host(1), f.host(2)
        receiver_shim = ShimSet(f.net, hosts=[h2], kafka=kafka)  # strips the tag; h1's shim runs only for TCP
        alloc = f.provision("t", [1, 2], [(1, 2)])
        session = [a for a in f.ctl.get("/allocations")][0]
        paths = [(p["pathId"], p["rateBps"]) for p in session["paths"]]
        progress(NAME, "session %s allocated %.2f Mbit/s over paths %s" % (
            session["sessionId"], session["totalBps"] / 1e6, ", ".join("%d: %.2f" % (i, r / 1e6) for i, r in paths)))
        h1.cmd("ping -c 2 -W 2 %s" % h2.IP())

        # RLNC
        nbytes = int(session["totalBps"] / 8 * seconds)
        recv_log = open(os.path.join(f.workdir, "rlnc-recv.log"), "w+")
        recv = rlnc_transfer.start_receiver(h2, session["sessionId"], recv_log)
        procs.append(recv)
        time.sleep(1)
        progress(NAME, "RLNC: %d bytes h1 -> h2" % nbytes)
        data = rlnc_transfer.random_file(os.path.join(f.workdir, "rlnc-input"), nbytes)
        rates = rlnc_transfer.write_table(rlnc_transfer.newest_table(kafka, h1, session["sessionId"], len(paths)),
                                          os.path.join(f.workdir, "rates-h1.json"))
        sender = rlnc_transfer.start_sender(h1, rates, session["sessionId"], data)
        procs.append(sender)
        rlnc = rlnc_transfer.finish(sender, recv, recv_log, seconds * 6 + 60)
        recv_log.close()
        rlnc_bytes, rlnc_s, rlnc_counters, recv_counters = rlnc["bytes"], rlnc["seconds"], rlnc["sender"], rlnc["receiver"]
        rlnc_bps = rlnc_bytes * 8 / rlnc_s
        progress(NAME, "  RLNC goodput %.2f Mbit/s (%d bytes in %.3f s)" % (rlnc_bps / 1e6, rlnc_bytes, rlnc_s))
        delay_bps = DELAY_LOAD * session["totalBps"]
        progress(NAME, "Table 2: 1 KB records at %.2f Mbit/s through RLNC, %d s" % (delay_bps / 1e6, delay_s))
        rlnc_delays = rlnc_delay(h1, h2, f.workdir, rates, session["sessionId"], delay_bps, delay_s)
        progress(NAME, "  RLNC record delay %s" % describe(rlnc_delays))

        # packet-split TCP through h1's shim
        sender_shim = ShimSet(f.net, hosts=[h1], kafka=kafka)
        deadline = time.time() + 30
        while not (sender_shim[h1.name].health().get("tables_applied", 0) >= 1):
            if time.time() > deadline:
                raise RuntimeError("h1's shim applied no rates table within 30 s: %s" % sender_shim[h1.name].health())
            time.sleep(0.5)
        procs.append(h2.popen(["iperf3", "-s", "-1", "-p", "5201"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(1)
        progress(NAME, "TCP through h1's shim (split: packet), %d s" % seconds)
        out = h1.popen(["iperf3", "-c", h2.IP(), "-p", "5201", "-t", str(seconds + 2), "-O", "2", "-J"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT).communicate(timeout=seconds + 60)[0]
        doc = json.loads(out.decode())
        if "error" in doc:
            raise RuntimeError("iperf3: %s" % doc["error"])
        tcp_bps = doc["end"]["sum_received"]["bits_per_second"]
        tcp_retx = doc["end"]["sum_sent"].get("retransmits", 0)
        shim_stats = sender_shim[h1.name].stats()
        progress(NAME, "  TCP goodput %.2f Mbit/s, %d retransmits" % (tcp_bps / 1e6, tcp_retx))
        progress(NAME, "Table 2: the same records over MPTCP (%d subflows to %d addresses of h2, a pinned session each), %d s"
                 % (MPTCP_SUBFLOWS, MPTCP_SUBFLOWS, delay_s))
        mptcp = mptcp_delay(f, sender_shim[h1.name], session["sessionId"], delay_bps, delay_s)
        progress(NAME, "  MPTCP record delay %s; subflows %s; bytes per path %s" % (
            describe(mptcp["delays_ms"]), mptcp["subflows"], mptcp["path_bytes"]))
    finally:
        stop_processes(procs)
        for s in (sender_shim, receiver_shim):
            if s:
                s.stop()
        f.close()
    res.series("allocation", {"session": session["sessionId"], "total_bps": session["totalBps"], "paths": paths})
    alloc_bps = session["totalBps"]
    rlnc_fabric_bps, header_bound = rlnc["fabric_bps"], rlnc["header_bound"]
    res.series("rlnc", {"bytes": rlnc_bytes, "seconds": rlnc_s, "goodput_bps": rlnc_bps, "fabric_bps": rlnc_fabric_bps,
                        "sender": rlnc_counters, "receiver": recv_counters})
    res.series("tcp_packet_split", {"goodput_bps": tcp_bps, "retransmits": tcp_retx, "sender_shim_stats": shim_stats})
    res.row("allocation (4 paths)", "-", "%.2f Mbit/s: %s" % (alloc_bps / 1e6, ", ".join("%.2f" % (r / 1e6) for _, r in paths)))
    res.row("RLNC on the fabric (frames, the allocation's unit)", "delivers the allocation (issue: >= 95%)",
            "%.2f Mbit/s = %.0f%% of the allocation" % (rlnc_fabric_bps / 1e6, 100 * rlnc_fabric_bps / alloc_bps))
    res.row("RLNC goodput (stream bytes)", "-", "%.2f Mbit/s = %.0f%% of the allocation (headers bound it at %.0f%%)" % (
        rlnc_bps / 1e6, 100 * rlnc_bps / alloc_bps, 100 * header_bound))
    res.row("packet-split TCP goodput", "loses >= 30% to reordering (issue)", "%.2f Mbit/s = %.0f%% of the allocation, %d retransmits" % (
        tcp_bps / 1e6, 100 * tcp_bps / alloc_bps, tcp_retx))
    res.check("the allocation uses all 4 paths", len([r for _, r in paths if r > 0]) == 4, str(paths))
    res.check("RLNC used every path", all(str(i) in (rlnc_counters.get("PathPackets") or {}) for i, _ in paths),
              str(rlnc_counters.get("PathPackets")))
    res.check("RLNC: packets arrived out of order across the paths and everything was decoded in order",
              recv_counters.get("Inversions", 0) > 0 and recv_counters.get("Delivered") == rlnc_counters.get("NewPackets"),
              "inversions %s, delivered %s of %s" % (recv_counters.get("Inversions"), recv_counters.get("Delivered"),
                                                    rlnc_counters.get("NewPackets")))
    res.series("table2_delay", {"definition": "ms from the sender application's write of a 1 KB record to the receiver "
                                              "application's read of its last byte, in order; the first second left out",
                                "offered_bps": delay_bps, "seconds": delay_s,
                                "rlnc_ms": rlnc_delays, "mptcp_ms": mptcp["delays_ms"],
                                "mptcp_sessions": mptcp["sessions"], "mptcp_subflows": mptcp["subflows"],
                                "mptcp_path_bytes": mptcp["path_bytes"]})
    res.row("record delay, RLNC (Table 2)", "3.036 +/- 1.106 ms", describe(rlnc_delays))
    res.row("record delay, MPTCP (Table 2)", "3.421 +/- 1.582 ms", describe(mptcp["delays_ms"]))
    res.check("Table 2: every record arrived through RLNC and through MPTCP",
              len(rlnc_delays) > 0 and len(mptcp["delays_ms"]) > 0 and mptcp["records"] == mptcp["written"],
              "MPTCP: %d of %d records received; after the first second RLNC %d, MPTCP %d" % (
                  mptcp["records"], mptcp["written"], len(rlnc_delays), len(mptcp["delays_ms"])))
    res.check("Table 2: MPTCP opened a subflow to each of h2's %d addresses" % MPTCP_SUBFLOWS,
              mptcp["subflows"] == MPTCP_SUBFLOWS, "subflows %s" % mptcp["subflows"])
    res.series("issue_targets_met", {"rlnc_95": rlnc_fabric_bps >= 0.95 * alloc_bps, "tcp_loses_30": tcp_bps <= 0.70 * alloc_bps})
    res.finish()

    fig, (ax, dx) = plot.figure(2, width=6.5)
    ax.bar([0, 1, 2], [rlnc_fabric_bps / 1e6, rlnc_bps / 1e6, tcp_bps / 1e6], 0.5, color=["C2", "C8", "0.5"])
    ax.axhline(alloc_bps / 1e6, color="C0", lw=1.5, label="allocated (4 paths)")
    ax.axhline(0.95 * alloc_bps / 1e6, color="red", ls="--", lw=1, label="issue: RLNC >= 95% of the allocation")
    ax.axhline(0.70 * alloc_bps / 1e6, color="red", ls=":", lw=1, label="issue: packet-split TCP <= 70%")
    ax.set_xticks([0, 1, 2], ["RLNC on the fabric\n(frames)", "RLNC goodput", "TCP goodput,\npacket split (shim)"])
    ax.set_ylabel("Mbit/s")
    ax.set_title("One session over 4 paths, one-way delays %s ms" % "/".join("%g" % (2 * d) for d in DELAYS_MS))
    ax.set_ylim(0, alloc_bps / 1e6 * 1.3)
    ax.legend(fontsize=8, loc="upper right")
    ours = [rlnc_delays, mptcp["delays_ms"]]
    dx.bar([0, 1], [statistics.mean(d) for d in ours], 0.4, yerr=[statistics.pstdev(d) for d in ours], capsize=6,
           color=["C2", "C1"], label="fairfabric: mean +/- std. dev.")
    dx.errorbar([0.3, 1.3], [3.036, 3.421], yerr=[1.106, 1.582], fmt="D", color="k", capsize=4,
                label="paper (Table 2: 4 equal paths, cross traffic)")
    dx.set_xticks([0, 1], ["RLNC (window 8)", "Linux MPTCP\n(%d subflows, pinned)" % MPTCP_SUBFLOWS])
    dx.set_ylabel("record delay, write to read (ms)")
    dx.set_title("Table 2: 1 KB records at %.1f Mbit/s" % (delay_bps / 1e6))
    dx.set_ylim(0, 1.5 * max([statistics.mean(d) + statistics.pstdev(d) for d in ours] + [3.421 + 1.582]))
    dx.legend(fontsize=8, loc="upper left")
    plot.caption(fig, res)
    return res, fig


def after_first_second(delays, rate_bps):
    return [round(d, 3) for d in delays[delay_probe.records(rate_bps, 1):]]  # µs: the JSON stays small


def describe(delays):
    if not delays:
        return "no records"
    q = statistics.quantiles(delays, n=100)
    return "%.3f +/- %.3f ms (p50 %.3f, p99 %.3f, %d records)" % (
        statistics.mean(delays), statistics.pstdev(delays), q[49], q[98], len(delays))


def read_probe(path, timeout):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        if time.time() > deadline:
            raise RuntimeError("the delay probe wrote no %s within %d s" % (path, timeout))
        time.sleep(0.2)
    with open(path) as fh:
        return json.load(fh)


def rlnc_delay(h1, h2, workdir, rates, session_id, rate_bps, seconds):
    """Records through `rlnc send` (h1's rates in force as a file) to `rlnc recv` on h2; the delays (ms)."""
    out = os.path.join(workdir, "delay-rlnc.json")
    recv_log = open(os.path.join(workdir, "rlnc-recv-delay.log"), "w")
    recv = h2.popen(["bash", "-c", "%s recv -listen %s:%d -session %s | python3 %s recv --out %s" % (
        binary("rlnc"), h2.IP(), rlnc_transfer.RECEIVER_PORT, shlex.quote(session_id), PROBE, out)],
        stdout=subprocess.DEVNULL, stderr=recv_log)
    time.sleep(1)
    sender = subprocess.Popen(["bash", "-c", "python3 %s send --rate %d --seconds %d | %s" % (
        PROBE, rate_bps, seconds, shlex.join(rlnc_transfer.send_argv(h1, rates, session_id)))],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, err = sender.communicate(timeout=seconds * 4 + 60)
        if sender.returncode != 0:
            raise RuntimeError("rlnc send (records): exit %d: %s" % (sender.returncode, err[-2000:]))
        got = read_probe(out, 30)
    finally:
        stop_processes([sender, recv])
        recv_log.close()
    return after_first_second(got["delays_ms"], rate_bps)


def mptcp_delay(f, shim, replaced_session, rate_bps, seconds):
    """Records over one MPTCP connection from h1 to h2 whose subflows go to MPTCP_SUBFLOWS addresses of
    h2 (VMs of the tenant, announced with ADD_ADDR); each address is a session of its own, which the
    controller allocates and pins and h1's shim rates. The RLNC session h1 -> h2 is deleted first."""
    h1, h2 = f.host(1), f.host(2)
    status, reply = f.ctl.send("DELETE", "/sessions/%s" % replaced_session, None)
    if status not in (200, 204):
        raise RuntimeError("DELETE /sessions/%s: %s %s" % (replaced_session, status, reply))
    addrs, ids = [], {}
    for i in range(1, MPTCP_SUBFLOWS + 1):
        name, ip = "%s-vm%d" % (h2.name, i), "10.201.0.%d" % i
        vms.add_vm(f.ctl, "t", h2, name, ip, "02:fe:00:00:00:%02x" % i)
        status, reply = f.ctl.send("POST", "/sessions", {"srcHost": h1.name, "dstHost": name})
        if status != 201:
            raise RuntimeError("POST /sessions %s -> %s: %s %s" % (h1.name, name, status, reply))
        ids[reply["id"]] = ip
        addrs.append(ip)
    deadline = time.time() + 60
    while True:
        allocs = {a["sessionId"]: a for a in f.ctl.get("/allocations") if a["sessionId"] in ids}
        at_shim = {p["session"] for p in shim.stats().get("paths") or []}
        if len(allocs) == len(ids) and all(a["totalBps"] > 0 for a in allocs.values()) and set(ids) <= at_shim:
            break
        if time.time() > deadline:
            raise RuntimeError("the %d MPTCP sessions were not allocated and in force at h1's shim within 60 s: %s %s"
                               % (len(ids), allocs, at_shim))
        time.sleep(0.5)
    sessions = {ids[i]: [(p["pathId"], p["rateBps"]) for p in a["paths"] if p["rateBps"] > 0] for i, a in allocs.items()}
    intf = h2.defaultIntf().name
    for host in (h1, h2):
        host.cmd("ip mptcp limits set subflows %d add_addr_accepted %d" % (MPTCP_SUBFLOWS, MPTCP_SUBFLOWS))
    for ip in addrs[1:]:
        out = h2.cmd("ip mptcp endpoint add %s dev %s signal 2>&1; echo rc=$?" % (ip, intf))
        if "rc=0" not in out:
            raise RuntimeError("ip mptcp endpoint add %s: %s" % (ip, out.strip()))

    def path_bytes():
        return {"%s path %d" % (ids[p["session"]], p["path"]): p["sent_bytes"]
                for p in shim.stats().get("paths") or [] if p["session"] in ids}

    before = path_bytes()
    out = os.path.join(f.workdir, "delay-mptcp.json")
    recv = h2.popen(["python3", PROBE, "recv", "--listen", "0.0.0.0:7003", "--mptcp", "--out", out],
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    procs = [recv]
    try:
        line = recv.stdout.readline().decode()
        if "listening" not in line:
            raise RuntimeError("delay probe on h2: %s" % line)
        sender = h1.popen(["python3", PROBE, "send", "--rate", str(int(rate_bps)), "--seconds", str(seconds),
                           "--connect", "%s:7003" % addrs[0], "--mptcp"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        procs.append(sender)
        time.sleep(min(3, seconds / 2))
        # every subflow is a TCP socket to port 7003 in h1's namespace
        subflows = len([l for l in h1.cmd("ss -tnH state established '( dport = :7003 )'").splitlines() if l.strip()])
        text = sender.communicate(timeout=seconds * 4 + 60)[0].decode()
        if sender.returncode != 0:
            raise RuntimeError("delay probe sender on h1: exit %d: %s" % (sender.returncode, text[-2000:]))
        got = read_probe(out, 30)
    finally:
        stop_processes(procs)
    after = path_bytes()
    written = delay_probe.records(rate_bps, seconds)
    return {"delays_ms": after_first_second(got["delays_ms"], rate_bps), "records": got["records"], "written": written,
            "sessions": sessions, "subflows": subflows,
            "path_bytes": {k: after.get(k, 0) - before.get(k, 0) for k in sorted(after)}}
