# summary: host shim enforcement: precision and CPU of HTB+eBPF (the shim) vs HTB+u32, HTB+iptables CLASSIFY, tbf, eBPF policer for 1, 10, 100 sessions
# Sourced by ./fairfabric bench. Usage: ./fairfabric bench shim [SECONDS]   (default window 5 s)
# Two Mininet hosts on a Linux bridge; hsh2 holds one address per session; hsh1 sends
# TCP to every address (shimctl blast) at once; the receiving application counts bytes
# per address (shimctl sink). Each session's throughput, converted to Ethernet frames,
# is compared with its rate; CPU is the whole machine's busy time in the same window,
# next to an idle baseline measured in the same run.

if [ -z "${FF_ROOT:-}" ]; then  # run directly rather than by ./fairfabric bench
    set -euo pipefail
    FF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    export FF_ROOT
    # shellcheck source=../lib/common.sh
    source "$FF_ROOT/tools/lib/common.sh"
fi
need_root "bench shim"
ensure_setup
window="${1:-5}"
case "$window" in ''|*[!0-9]*) die "bench shim: window must be whole seconds, got '$window'" ;; esac
kafka_was_running=0
pid_alive kafka && kafka_was_running=1
"$FF_ROOT/fairfabric" kafka start >/dev/null
trap '[ "$kafka_was_running" = 1 ] || "$FF_ROOT/fairfabric" kafka stop >/dev/null' EXIT
say bench "shim: window $window s per point; results also in $FF_RUN/bench-shim.json"

WINDOW="$window" OUT="$FF_RUN/bench-shim.json" PYTHONPATH="$FF_ROOT/mininet:$FF_ROOT/mininet/tests" \
    "$FF_VENV/bin/python" - <<'PY'
import json, os, signal, subprocess, time

from mininet.log import setLogLevel
import shimnet
from fairfabric_mn import shim

setLogLevel("error")
WINDOW = int(os.environ["WINDOW"])
TOTAL_BPS = 200e6
SESSIONS = (1, 10, 100)
MECHANISMS = ("htb+ebpf (shim)", "htb+u32", "htb+iptables CLASSIFY", "tbf", "ebpf policer")
DEV = shimnet.h(1) + "-eth0"


def cpu_busy():
    f = open("/proc/stat").readline().split()[1:]
    v = [int(x) for x in f]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def busy_pct(a, b):
    return 100.0 * (b[0] - a[0]) / max(1, b[1] - a[1]) * os.cpu_count()


def tc_batch(host, lines):
    path = "/tmp/ff-bench-tc-%d" % os.getpid()
    open(path, "w").write("\n".join(lines) + "\n")
    t0 = time.time()
    out = host.cmd("tc -batch %s && echo TC-OK" % path)
    if "TC-OK" not in out:
        raise RuntimeError(out)
    return (time.time() - t0) * 1000


def htb_lines(dsts, rate):
    burst = max(int(rate / 8 * 0.002), 65536 + 1600)
    lines = ["qdisc replace dev %s root handle 1: htb default fffe" % DEV,
             "class add dev %s parent 1: classid 1:fffe htb rate 10gbit" % DEV]
    for i, _ in enumerate(dsts, 1):
        lines.append("class add dev %s parent 1: classid 1:%x htb rate %dbit ceil %dbit burst %d cburst %d"
                     % (DEV, i, rate, rate, burst, burst))
    return lines


def setup(mech, h1, dsts, rate, kafka):
    """Installs mech on hsh1; returns (setup ms, cleanup function)."""
    if mech == "htb+ebpf (shim)":
        shims = shim.ShimSet(h1_net, hosts=[h1], kafka=kafka, topic_suffix=shim.unique_suffix(), period="1s")
        shims.publish(shimnet.h(1), shim.table(shimnet.h(1), 1, [("s%d" % i, d, [(0, rate)]) for i, d in enumerate(dsts)]))
        shims[shimnet.h(1)].wait_version(1, timeout=60)
        return shims[shimnet.h(1)].health()["last_apply_ms"], shims.stop
    if mech == "htb+u32":
        lines = htb_lines(dsts, rate) + ["filter add dev %s parent 1: protocol ip prio 1 u32 match ip dst %s/32 flowid 1:%x"
                                         % (DEV, d, i) for i, d in enumerate(dsts, 1)]
        return tc_batch(h1, lines), lambda: h1.cmd("tc qdisc del dev %s root" % DEV)
    if mech == "htb+iptables CLASSIFY":
        ms = tc_batch(h1, htb_lines(dsts, rate))
        rules = "*mangle\n" + "".join("-A POSTROUTING -o %s -d %s/32 -j CLASSIFY --set-class 1:%x\n" % (DEV, d, i)
                                      for i, d in enumerate(dsts, 1)) + "COMMIT\n"
        open("/tmp/ff-bench-ipt", "w").write(rules)
        t0 = time.time()
        h1.cmd("iptables-restore --noflush < /tmp/ff-bench-ipt")
        ms += (time.time() - t0) * 1000
        return ms, lambda: (h1.cmd("iptables -t mangle -F POSTROUTING"), h1.cmd("tc qdisc del dev %s root" % DEV))
    if mech == "tbf":
        if len(dsts) != 1:
            return None, None  # classless: one rate for the whole interface
        return tc_batch(h1, ["qdisc replace dev %s root tbf rate %dbit burst %d limit 3000000"
                             % (DEV, rate, max(int(rate / 8 * 0.002), 65536 + 1600))]), \
            lambda: h1.cmd("tc qdisc del dev %s root" % DEV)
    if mech == "ebpf policer":
        args = " ".join("-dst %s=%d" % (d, rate) for d in dsts)
        t0 = time.time()
        out = h1.cmd("%s police -dev %s %s && echo POLICE-OK" % (shim.binary("shimctl"), DEV, args))
        if "POLICE-OK" not in out:
            raise RuntimeError(out)
        return (time.time() - t0) * 1000, lambda: h1.cmd("tc qdisc del dev %s clsact" % DEV)
    raise ValueError(mech)


def proc_cpu(*pids):
    """CPU seconds (user + system) of the given processes."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        total += int(f[11]) + int(f[12])
    return total / tick


def measure(h1, h2, dsts):
    sink = h2.popen([shim.binary("shimctl"), "sink", "-listen", ":5201"], stderr=subprocess.STDOUT)
    assert "listening" in sink.stdout.readline().decode()
    blast = h1.popen([shim.binary("shimctl"), "blast", "-dst", ",".join("%s:5201" % d for d in dsts),
                      "-dur", "%ds" % (WINDOW + 3)], stderr=subprocess.STDOUT)
    time.sleep(1.5)
    sink.send_signal(signal.SIGUSR1)
    c0, t0 = proc_cpu(sink.pid, blast.pid), time.time()
    a = json.loads(sink.stdout.readline())
    time.sleep(WINDOW)
    sink.send_signal(signal.SIGUSR1)
    c1, t1 = proc_cpu(sink.pid, blast.pid), time.time()
    b = json.loads(sink.stdout.readline())
    blast.wait()
    sink.send_signal(signal.SIGTERM)
    sink.communicate(timeout=10)
    bps = {d: (b.get(d, 0) - a.get(d, 0)) * 8 / (t1 - t0) * shimnet.WIRE_PER_PAYLOAD for d in dsts}
    return bps, 100 * (c1 - c0) / (t1 - t0)


net = shimnet.start(shimnet.Star(n=2))
h1_net = net
results = []
try:
    h1, h2 = net.get(shimnet.h(1), shimnet.h(2))
    for i in range(1, max(SESSIONS) + 1):
        h2.cmd("ip addr add 10.0.1.%d/8 dev %s" % (i, h2.defaultIntf().name))
    c0 = cpu_busy(); time.sleep(2); idle = busy_pct(c0, cpu_busy())
    print("machine busy before the runs: %.1f%% of one core (other users included; %d cores)" % (idle, os.cpu_count()))
    print("cpu% = user+system time of the sending and receiving applications (their syscalls carry the")
    print("qdisc, classifier and veth work), in % of one core, over the window")
    print("%-22s %4s %9s %10s %10s %10s %9s %9s" % ("mechanism", "n", "rate", "mean|err|", "max|err|", "sum/alloc", "cpu%", "setup ms"))
    for n in SESSIONS:
        dsts = ["10.0.1.%d" % i for i in range(1, n + 1)]
        rate = int(TOTAL_BPS / n)
        for mech in MECHANISMS:
            ms, cleanup = setup(mech, h1, dsts, rate, os.environ["FAIRFABRIC_KAFKA"])
            if cleanup is None:
                print("%-22s %4d %9s  n/a: classless, cannot separate sessions" % (mech, n, "-"))
                results.append({"mechanism": mech, "sessions": n, "supported": False})
                continue
            try:
                bps, cpu = measure(h1, h2, dsts)
            finally:
                cleanup()
            errs = [abs(v / rate - 1) * 100 for v in bps.values()]
            r = {"mechanism": mech, "sessions": n, "rate_bps": rate, "mean_abs_err_pct": sum(errs) / n,
                 "max_abs_err_pct": max(errs), "sum_over_allocated": sum(bps.values()) / TOTAL_BPS,
                 "app_cpu_pct": cpu, "machine_busy_before_pct": idle, "setup_ms": ms, "window_s": WINDOW}
            results.append(r)
            print("%-22s %4d %7.1fM %9.2f%% %9.2f%% %10.3f %9.1f %9.1f" % (mech, n, rate / 1e6, r["mean_abs_err_pct"],
                  r["max_abs_err_pct"], r["sum_over_allocated"], cpu, ms))
finally:
    shimnet.stop(net)
json.dump(results, open(os.environ["OUT"], "w"), indent=1)
PY
