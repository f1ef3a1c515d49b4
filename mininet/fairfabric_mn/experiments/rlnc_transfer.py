"""bin/rlnc between two hosts of a controller-run fabric: the sender's rates table in force (read from
ff.ctl.rates.v1 and given as a file), one transfer of a number of bytes, and what it carried on the
fabric. The sending host's shim must not run meanwhile: it would classify and rate the coded
datagrams again (the receiving host's shim strips the path tag, docs/rlnc.md)."""

import json
import os
import re
import subprocess

from fairfabric_mn.shim import binary, consume

SYMBOL_PAYLOAD = 1022  # a 1 KB symbol less its 2-byte length
FRAME_OVERHEAD = 28 + 14 + 4 + 20  # IPv4 + UDP, Ethernet, 802.1Q, fabric header: a coded datagram on a fabric link
RECEIVER_PORT = 7000
SENDER_PORT = 7001


def newest_table(kafka, host, session_id, n_paths):
    """The newest rates table of host on ff.ctl.rates.v1 that holds session_id with n_paths paths.
    Following the compacted topic with `rlnc send -kafka` would replay earlier runs' tables of a host of
    the same name first, and the sender would start on those and change paths mid-stream."""
    tables = [r["value"] for r in consume(kafka, "ff.ctl.rates.v1", key=host.name)
              if any(x["id"] == session_id and len(x["paths"]) == n_paths for x in r["value"]["sessions"])]
    if not tables:
        raise RuntimeError("no rates table for %s with session %s over %d paths on ff.ctl.rates.v1" % (host.name, session_id, n_paths))
    return max(tables, key=lambda t: t["version"])


def write_table(table, path):
    """A rates table as the file `rlnc send -rates` reads."""
    with open(path, "w") as fh:
        json.dump(table, fh)
    return path


def report_flags(flag):
    """Both ends report their figures on ff.shim.rlnc.v1 when there is a broker, so that a running
    monitor shows the coded session (docs/rlnc.md, "Seen by the monitor and the GUI")."""
    kafka = os.environ.get("FAIRFABRIC_KAFKA")
    return [flag, kafka] if kafka else []


def send_argv(host, rates, session_id):
    return [binary("rlnc"), "send", "-host", host.name, "-rates", rates, "-session", session_id,
            "-netns", "/proc/%d/ns/net" % host.pid, "-dev", host.defaultIntf().name,
            "-src", "%s:%d" % (host.IP(), SENDER_PORT), "-dst-port", str(RECEIVER_PORT)] + report_flags("-report-kafka")


def start_receiver(host, session_id, log):
    """`rlnc recv` for host (its socket in the host's namespace, Kafka in this one), the stream
    discarded; its counters go to log (a file: a pipe nobody reads fills up and blocks the receiver,
    and so the sender)."""
    return subprocess.Popen([binary("rlnc"), "recv", "-listen", "%s:%d" % (host.IP(), RECEIVER_PORT), "-session", session_id,
                             "-netns", "/proc/%d/ns/net" % host.pid, "-host", host.name] + report_flags("-kafka"),
                            stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)


def start_sender(host, rates, session_id, data_path):
    with open(data_path, "rb") as fh:
        return subprocess.Popen(send_argv(host, rates, session_id), stdin=fh, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)


def finish(sender, receiver, receiver_log, timeout):
    """Waits for the sender (it ends when the receiver has decoded everything) and the receiver; returns
    {bytes, seconds, goodput_bps, fabric_bps, header_bound, sender, receiver}: fabric_bps counts the
    coded datagrams as frames on a fabric link, the unit of the allocation."""
    try:
        _, err = sender.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        sender.kill()
        _, err = sender.communicate()
        raise RuntimeError("rlnc send did not finish within %d s: %s" % (timeout, err[-2000:]))
    if sender.returncode != 0:
        raise RuntimeError("rlnc send: exit %d: %s" % (sender.returncode, err[-2000:]))
    m = re.search(r"sent (\d+) bytes in ([0-9.]+) s; (\{.*\})", err)
    if not m:
        raise RuntimeError("rlnc send printed no summary: %s" % err[-2000:])
    nbytes, seconds, counters = int(m.group(1)), float(m.group(2)), json.loads(m.group(3))
    receiver.wait(timeout=30)
    receiver_log.seek(0)
    got = re.search(r"(\{.*\})", (receiver_log.read().strip().splitlines() or [""])[-1])
    packets = counters["NewPackets"] + counters["RepairPackets"]
    datagrams = sum(counters["PathBytes"].values())
    return {"bytes": nbytes, "seconds": seconds, "goodput_bps": nbytes * 8 / seconds,
            "fabric_bps": (datagrams + FRAME_OVERHEAD * packets) * 8 / seconds,
            "header_bound": SYMBOL_PAYLOAD / (datagrams / packets + FRAME_OVERHEAD),
            "sender": counters, "receiver": json.loads(got.group(1)) if got else {}}


def random_file(path, nbytes):
    with open(path, "wb") as fh:
        fh.write(os.urandom(nbytes))
    return path
