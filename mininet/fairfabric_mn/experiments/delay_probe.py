"""Per-record delivery delay of a byte stream (Promenade's Table 2, docs/results.md): the sender
writes fixed-size records at a constant rate, each carrying its number and the time it was written
(CLOCK_REALTIME, which every Mininet host shares); the receiver reads them in order and records
for each the time from its write to the moment its last byte was read. The same definition for
every transport: a pipe into `rlnc send` / out of `rlnc recv`, or an MPTCP socket.

    python3 delay_probe.py send --rate BPS --seconds S [--connect IP:PORT --mptcp]   (else stdout)
    python3 delay_probe.py recv --out FILE [--listen IP:PORT --mptcp]              (else stdin)

recv writes {"records": N, "delays_ms": [...], "first_ms": ...} to FILE at the end of the stream.
Standard library only: it runs in the hosts' namespaces with the system python3."""

import argparse
import json
import os
import socket
import struct
import sys
import time

RECORD = 1022  # one RLNC symbol's payload (1 KB symbols, 2 bytes of length)
HEADER = struct.Struct("!QQ")  # record number, write time in ns
IPPROTO_MPTCP = 262


def records(rate_bps, seconds):
    """How many records the sender writes in seconds at rate_bps."""
    return int(seconds * rate_bps / (RECORD * 8))


def stream_socket(mptcp):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP if mptcp else 0)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def address(text):
    host, port = text.rsplit(":", 1)
    return host, int(port)


def send(args):
    if args.connect:
        sock = stream_socket(args.mptcp)
        sock.connect(address(args.connect))
        write = sock.sendall
    else:
        sock, out = None, sys.stdout.buffer
        write = lambda b: (out.write(b), out.flush())
    interval = RECORD * 8 / args.rate
    count = records(args.rate, args.seconds)
    pad = bytes(RECORD - HEADER.size)
    start = time.monotonic()
    for n in range(count):
        wait = start + n * interval - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        write(HEADER.pack(n, time.time_ns()) + pad)
    if sock:
        sock.shutdown(socket.SHUT_WR)
        sock.recv(1)  # the receiver closes after reading everything
        sock.close()


def read_exactly(read, n):
    buf = b""
    while len(buf) < n:
        chunk = read(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def recv(args):
    conn = None
    if args.listen:
        srv = stream_socket(args.mptcp)
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(address(args.listen))
        srv.listen(1)
        print("listening", flush=True)
        conn, _ = srv.accept()
        read = conn.recv
    else:
        stdin = sys.stdin.buffer
        read = lambda n: stdin.read1(n)
    delays, expected = [], 0
    while True:
        rec = read_exactly(read, RECORD)
        if rec is None:
            break
        now = time.time_ns()
        n, sent = HEADER.unpack_from(rec)
        if n != expected:
            raise SystemExit("record %d arrived where %d was due: the stream is not in order" % (n, expected))
        expected += 1
        delays.append((now - sent) / 1e6)
    if conn:
        conn.close()
    tmp = args.out + ".tmp"
    with open(tmp, "w") as fh:
        json.dump({"records": len(delays), "delays_ms": delays}, fh)
    os.replace(tmp, args.out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("send")
    s.add_argument("--rate", type=float, required=True, help="bit/s of records")
    s.add_argument("--seconds", type=float, required=True)
    s.add_argument("--connect", help="IP:PORT (else the records go to stdout)")
    s.add_argument("--mptcp", action="store_true")
    r = sub.add_parser("recv")
    r.add_argument("--out", required=True)
    r.add_argument("--listen", help="IP:PORT (else the records come from stdin)")
    r.add_argument("--mptcp", action="store_true")
    args = ap.parse_args()
    send(args) if args.cmd == "send" else recv(args)


if __name__ == "__main__":
    main()
