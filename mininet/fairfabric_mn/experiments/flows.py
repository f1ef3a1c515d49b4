"""Traffic run inside Mininet hosts by the experiments: short TCP flows whose completion time the
client measures, and their server. Written to a file and run with the system python3:

  python3 flows.py serve PORT
      accepts connections; each sends a 4-byte length and that many bytes, and gets 1 byte back.
  python3 flows.py client DST PORT SIZE MEAN_GAP_S SECONDS SEED
      opens a connection, sends SIZE bytes, waits for the byte: one flow. Flows start at
      exponential gaps of mean MEAN_GAP_S for SECONDS; prints {"fct_ms": [...], "failed": N}.
"""

SCRIPT = r'''
import json, random, socket, struct, sys, threading, time

def serve(port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(128)
    print("listening", flush=True)
    def one(c):
        try:
            c.settimeout(30)
            head = b""
            while len(head) < 4:
                b = c.recv(4 - len(head))
                if not b:
                    return
                head += b
            n = struct.unpack("!I", head)[0]
            while n > 0:
                b = c.recv(min(n, 65536))
                if not b:
                    return
                n -= len(b)
            c.sendall(b"k")
        except OSError:
            pass
        finally:
            c.close()
    while True:
        c, _ = ls.accept()
        threading.Thread(target=one, args=(c,), daemon=True).start()

def client(dst, port, size, gap, seconds, seed):
    rnd = random.Random(seed)
    payload = struct.pack("!I", size) + bytes(size)
    fct, failed = [], 0
    end = time.monotonic() + seconds
    nxt = time.monotonic()
    while nxt < end:
        now = time.monotonic()
        if nxt > now:
            time.sleep(nxt - now)
        t0 = time.monotonic()
        try:
            s = socket.create_connection((dst, port), timeout=20)
            s.sendall(payload)
            if s.recv(1) != b"k":
                raise OSError("no reply")
            fct.append((time.monotonic() - t0) * 1000.0)
            s.close()
        except OSError:
            failed += 1
        nxt = max(t0 + rnd.expovariate(1.0 / gap), time.monotonic())
    print(json.dumps({"fct_ms": fct, "failed": failed}), flush=True)

if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(int(sys.argv[2]))
    else:
        client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7]))
'''


def write(path):
    with open(path, "w") as f:
        f.write(SCRIPT)
    return path
