"""The chaos scenario (issue 21; test_chaos.py and `./fairfabric soak` use it): a p4switch
leaf-spine in Mininet with a Kafka broker, a central monitor instance and the controller of its
own, a host shim on every host and the demo's three competing tenants (competition.py: weights
1:2:3, VMs sharing the sending server's cable) with greedy iperf3 TCP.

It offers the faults (kill -9 of a switch, the broker, the monitor or the controller, each
restarted) and the measurements the tests check after each: what every tenant is allocated
(GET /allocations) and achieves (the sending server's shim, /stats), the switches' entries read
back over P4Runtime, reachability, and the processes' RSS and open file descriptors.

Everything runs on a broker of its own (own FF_RUN and port), so killing it disturbs nobody and
its topics go with it."""

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from fairfabric_mn import fabric, runstate
from fairfabric_mn.competition import TENANTS, Competition
from fairfabric_mn.controller import P4INFO, ControllerProcess, classpath
from fairfabric_mn.p4switch import ROOT
from fairfabric_mn.shim import ShimSet

PREFIX = "ch"
SENDER, RECEIVER = "chh1", "chh2"  # one server per leaf: every VM session crosses a spine


def free_port_pair():
    """A free port whose successor is free too (the broker's KRaft controller listener)."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        try:
            with socket.socket() as s2:
                s2.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue
    raise RuntimeError("no free port pair")


class Broker:
    """A single-node broker of our own (`./fairfabric kafka` with its own FF_RUN and port)."""

    def __init__(self):
        libs = os.path.join(os.environ.get("FF_RUN", os.path.join(ROOT, ".run")), "kafka", "libs")
        if not os.path.isdir(libs):
            raise RuntimeError("Kafka jars missing in %s: run ./fairfabric setup" % libs)
        self.run = tempfile.mkdtemp(prefix="ff-chaos-kafka-")
        os.makedirs(os.path.join(self.run, "kafka"))
        os.symlink(libs, os.path.join(self.run, "kafka", "libs"))
        self.port = free_port_pair()
        self.env = dict(os.environ, FF_RUN=self.run, FF_KAFKA_PORT=str(self.port))

    @property
    def address(self):
        return "127.0.0.1:%d" % self.port

    @property
    def pid(self):
        try:
            with open(os.path.join(self.run, "pids", "kafka.pid")) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return None

    def ctl(self, action):
        out = subprocess.run([os.path.join(ROOT, "fairfabric"), "kafka", action], env=self.env,
                             capture_output=True, text=True, timeout=180)
        if out.returncode != 0:
            raise RuntimeError("kafka %s failed: %s %s" % (action, out.stdout[-1500:], out.stderr[-1500:]))

    def start(self, timeout=240):
        """Starts the broker and waits until it serves; `kafka start` gives up after 60 s, a
        broker recovering its logs after a kill -9 on a loaded machine can take longer."""
        try:
            self.ctl("start")
            return
        except RuntimeError as e:
            if not (self.pid and _alive(self.pid)):
                raise
            slow = e
        deadline = time.time() + timeout
        while time.time() < deadline:
            if subprocess.run([os.path.join(ROOT, "fairfabric"), "kafka", "status"], env=self.env,
                              capture_output=True, timeout=60).returncode == 0:
                return
            if not _alive(self.pid):
                break
            time.sleep(1)
        raise RuntimeError("the broker did not become ready: %s" % slow)

    def kill9(self):
        pid = self.pid
        os.kill(pid, signal.SIGKILL)
        while _alive(pid):
            time.sleep(0.05)

    @property
    def log_path(self):
        return os.path.join(self.run, "logs", "kafka.log")

    def remove(self, keep_log=None):
        """Stops the broker and deletes its directory (keep_log: copy its log there first)."""
        try:
            self.ctl("stop")
        finally:
            if keep_log and os.path.exists(self.log_path):
                shutil.copyfile(self.log_path, keep_log)
            shutil.rmtree(self.run, ignore_errors=True)


class MonitorProcess:
    """One central monitor instance (monitor/, docs/monitor.md) on the given broker."""

    def __init__(self, workdir, kafka, instance=0):
        self.kafka = kafka
        self.instance = instance
        self.state_dir = os.path.join(workdir, "monitor-%d" % instance)
        self.log_path = os.path.join(workdir, "monitor-%d.log" % instance)
        self.proc = None
        out = subprocess.run(["bash", "-c", 'source "$1/tools/lib/monitor-java.sh" && ff_monitor_classpath "$1"',
                              "_", ROOT], capture_output=True, text=True, timeout=900)
        if out.returncode != 0:
            raise RuntimeError("the monitor's classpath: %s" % out.stderr[-2000:])
        self.classpath = out.stdout.strip()

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def start(self):
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen(["java", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", self.classpath,
                                      "org.fairfabric.monitor.Monitor", "--kafka", self.kafka,
                                      "--instance-id", str(self.instance), "--state-dir", self.state_dir],
                                     stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        return self

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _alive(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    # a zombie (our own child, not yet reaped) counts as gone
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def process_figures(pid):
    """(RSS in KiB, open file descriptors, threads) of a process, or None when it is gone."""
    try:
        rss = threads = None
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("Threads:"):
                    threads = int(line.split()[1])
        return rss, len(os.listdir("/proc/%d/fd" % pid)), threads
    except OSError:
        return None


def table_names():
    """Every table of the fabric program (from the checked-in P4Info)."""
    names, in_table = [], False
    with open(P4INFO) as f:
        for line in f:
            if line.startswith("tables {"):
                in_table = True
            elif in_table and line.strip().startswith("name:"):
                names.append(line.split('"')[1])
                in_table = False
    return names


def read_entries(switch, tables=None, attempts=3):
    """The switch's entries (P4Runtime Read without arbitration: the controller stays primary).
    A failed read is tried again (its 30 s deadline can pass on a loaded machine, or the switch
    is restarting)."""
    for attempt in range(attempts):
        out = subprocess.run(["java", "-XX:TieredStopAtLevel=1", "-cp", classpath(),
                              "org.fairfabric.controller.program.ReadEntries", "127.0.0.1:%d" % switch.grpc_port,
                              str(switch.device_id), P4INFO] + list(tables or table_names()),
                             capture_output=True, text=True, timeout=120)
        if out.returncode == 0:
            return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
        time.sleep(1)
    raise RuntimeError("reading %s: %s" % (switch.name, out.stderr[-1500:]))


def canonical(entries):
    """Entries without what a rebuild may renumber (AQ ids, their register slots) and without the
    priorities of the upward routing tables (P4TE's loop adds, drops and reorders the levels of a
    prefix as the measured queues, delays and loads change: not a fault's doing), as a sorted list
    of distinct entries (a P4Runtime key is unique, so only those levels collapse)."""
    out = []
    for e in entries:
        e = json.loads(json.dumps(e))
        if ".upward_routing." in e["table"]:
            e.pop("priority", None)
        e["match"].pop("aq_id", None)
        for p in ("ing_aq_id", "egr_aq_id", "index"):
            e["params"].pop(p, None)
        out.append(json.dumps(e, sort_keys=True))
    return sorted(set(out))


def wait_for(what, check, timeout, every=0.5):
    """Polls check until it returns something true; returns (value, seconds waited)."""
    t0 = time.time()
    while True:
        try:
            got = check()
        except OSError:
            got = None  # a REST endpoint down for a moment is a not-yet
        if got:
            return got, time.time() - t0
        if time.time() - t0 > timeout:
            raise AssertionError("timed out after %d s waiting for %s" % (timeout, what))
        time.sleep(every)


class ChaosFabric:
    """The scenario; use as a context manager (everything it started stops on exit)."""

    def __init__(self, bw=12, spines=2, log=print):
        self.bw = bw
        self.spines = spines
        self.say = log
        self.workdir = tempfile.mkdtemp(prefix="ff-chaos.")
        self.net = self.topo = self.broker = self.monitor = self.ctl = self.shims = self.comp = None

    # ---- life cycle
    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def start(self):
        t0 = time.time()
        self.broker = Broker()
        self.broker.start()
        self.net, self.topo = fabric.build("leafspine", prefix=PREFIX, leaves=2, spines=self.spines,
                                           hosts_per_leaf=1, bw=self.bw)
        for sw in self.net.switches:  # not /tmp/p4switch-NAME.log: another scenario's switches have the same names
            sw.log_path = os.path.join(self.workdir, "p4switch-%s.log" % sw.name)
        fabric.start(self.net)
        runstate.extend(self.net, pids=[self.broker.pid])
        self.monitor = MonitorProcess(self.workdir, self.broker.address).start()
        runstate.extend(self.net, pids=[self.monitor.pid])
        cfg = os.path.join(self.workdir, "netcfg.json")
        net_cfg = fabric.netcfg(self.net, self.topo)
        for entry in net_cfg["hosts"].values():
            entry.setdefault("fairfabric", {})["shim"] = True
        with open(cfg, "w") as f:
            json.dump(net_cfg, f, indent=2)
        self.shims = ShimSet(self.net, kafka=self.broker.address)
        self.ctl = ControllerProcess(self.workdir, cfg, kafka=self.broker.address)
        self.ctl.start()
        runstate.extend(self.net, pids=[self.ctl.pid])
        self.ctl.wait_devices_available(180)
        self.comp = Competition(self.ctl, self.net, self.net.get(SENDER), self.net.get(RECEIVER), self.say)
        self.comp.provision()
        self.comp.start_traffic(86400)
        self.say("fabric, broker, monitor, controller, shims and traffic up in %.1f s" % (time.time() - t0))

    def close(self):
        for step in (lambda: self.comp and self.comp.stop(),
                     lambda: self.ctl and self.ctl.stop(),
                     lambda: self.shims and self.shims.stop(keep_topics=True),
                     lambda: self.monitor and self.monitor.stop(),
                     lambda: self.net and fabric.stop(self.net),
                     lambda: self.broker and self.broker.remove(keep_log=os.path.join(self.workdir, "kafka.log"))):
            try:
                step()
            except Exception as e:  # one failing step must not leave the others running
                self.say("cleanup: %s" % e)

    # ---- what the tenants get
    def sender_shim(self):
        return self.shims[SENDER]

    def allocations(self):
        """tenant -> allocated bit/s (sum over its declared sessions) from GET /allocations. The
        sessions the monitor detects (MonitorView.DETECTED_PREFIX "detected/...": here the TCP
        acknowledgements flowing back, VM 2 -> VM 1) are allocated too, on the reverse direction,
        and come and go with the monitor's view: they are left out of the per-tenant figures."""
        out = {}
        for a in self.ctl.get("/allocations"):
            if a["paths"] and not a["sessionId"].startswith("detected/"):
                out[a["tenantId"]] = out.get(a["tenantId"], 0.0) + a["totalBps"]
        return out

    def achieved(self, owners=None):
        """tenant -> bit/s the sending server's shim sent in its last period (Ethernet frames)."""
        owners = owners or {a["sessionId"]: a["tenantId"] for a in self.ctl.get("/allocations")}
        sent = {}
        for p in self.sender_shim().stats().get("paths") or []:
            tid = owners.get(p["session"])
            if tid:
                sent[tid] = sent.get(tid, 0.0) + p["sent_rate_bps"]
        return sent

    def sample(self, seconds, owners=None, every=1.0):
        """tenant -> list of achieved rates over seconds (the shim's 1 s periods)."""
        out = {tid: [] for tid, _, _ in TENANTS}
        t_end = time.time() + seconds
        while time.time() < t_end:
            try:
                got = self.achieved(owners)
            except OSError:
                got = {}
            for tid in out:
                out[tid].append(got.get(tid, 0.0))
            time.sleep(every)
        return out

    def served(self, reference, bound):
        """True when every tenant achieves at least (1 - bound) of its reference rate now."""
        got = self.achieved()
        return all(got.get(tid, 0.0) >= (1 - bound) * ref for tid, ref in reference.items())

    def same_allocation(self, reference, rel=1e-3):
        got = self.allocations()
        return set(got) == set(reference) and all(abs(got[t] - reference[t]) <= rel * reference[t] for t in reference)

    def reachable(self):
        """Every tenant's VMs reach each other and the servers reach each other (one ping each)."""
        s, r = self.net.get(SENDER, RECEIVER)
        pairs = [(None, r.IP())] + [(vms[1], vms[3]) for vms in self.comp.vms.values()]
        for src_ip, dst_ip in pairs:
            out = s.cmd("ping -c1 -W1 %s %s" % ("-I %s" % src_ip if src_ip else "", dst_ip))
            if " 0% packet loss" not in out:
                return False
        return True

    def all_entries(self):
        """Every switch's entries, canonical (two reads at a time: each read is a JVM)."""
        with ThreadPoolExecutor(2) as pool:
            read = dict(zip([sw.name for sw in self.net.switches], pool.map(read_entries, self.net.switches)))
        return {name: canonical(entries) for name, entries in read.items()}

    def busiest_spine(self):
        """The spine that carries the most allocated rate."""
        load = {}
        for a in self.ctl.get("/allocations"):
            for p in a["paths"]:
                for d in p["devices"]:
                    if "spine" in d:
                        load[d.split(":", 1)[1]] = load.get(d.split(":", 1)[1], 0.0) + p["rateBps"]
        return self.net.get(max(sorted(load), key=lambda n: load[n]))

    def logs(self):
        """name -> log file of every process that writes levelled logs (the broker's is copied into
        the work directory when the scenario closes)."""
        out = {"controller": self.ctl.log_path, "monitor": self.monitor.log_path,
               "kafka": self.broker.log_path if os.path.exists(self.broker.log_path)
               else os.path.join(self.workdir, "kafka.log")}
        for sw in self.net.switches:
            out["p4switch-" + sw.name] = sw.log_path
        return out

    def processes(self):
        """name -> pid of every long-running process of the scenario."""
        procs = {"controller": self.ctl.pid, "kafka": self.broker.pid, "monitor": self.monitor.pid}
        for name, shim in self.shims.shims.items():
            procs["shim-" + name] = shim.proc.pid
        for sw in self.net.switches:
            procs["p4switch-" + sw.name] = sw.switch_pid
        return procs

    # ---- faults
    def kill_switch(self, sw, down_s):
        sw.proc.kill()
        sw.proc.wait()
        time.sleep(down_s)
        sw.start([])
        runstate.extend(self.net, pids=[sw.switch_pid])

    def kill_broker(self, down_s):
        self.broker.kill9()
        time.sleep(down_s)
        self.broker.start()
        runstate.extend(self.net, pids=[self.broker.pid])

    def kill_monitor(self, down_s):
        self.monitor.kill9()
        time.sleep(down_s)
        self.monitor.start()
        runstate.extend(self.net, pids=[self.monitor.pid])

    def kill_shim(self, name, down_s):
        """kill -9 of a host shim (its datapath stays attached: nothing is cleaned up), restarted
        after down_s; returns the time (s since the epoch) just before the new process started."""
        shim = self.shims[name]
        shim.proc.kill()
        shim.proc.wait()
        time.sleep(down_s)
        t = time.time()
        self.shims.restart(name)
        return t

    def kill_controller(self, down_s):
        self.ctl.kill9()
        time.sleep(down_s)
        self.ctl.start()
        runstate.extend(self.net, pids=[self.ctl.pid])
