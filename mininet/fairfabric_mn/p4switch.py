"""Mininet switch classes for p4switch: P4Switch runs one p4switch process per
switch (what a user of simple_switch_grpc expects), P4FabricSwitch one `p4switch
fabric` process for all the switches of the net (fewer processes to schedule).

Each switch gets its interfaces as ports (Mininet port numbers), a gRPC port
for P4Runtime, a device id, and per-port queue settings taken from the link
parameters: ``bw`` (Mbit/s) becomes the port's rate, ``delay`` and ``loss``
(percent) become the traffic manager's link emulation, ``max_queue_size`` its
depth. This kernel has no netem, so links are plain ``Link``s (never
``TCLink``): the parameters are read from the interface, never given to tc.

The switch turns off GRO/GSO/TSO on its own veths (so that it sees real
frames) and transmit checksum offload on the hosts' interfaces facing it
(otherwise TCP segments leave with unfilled checksums and are dropped).
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import time

from mininet.log import error, info
from mininet.node import Switch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    """A TCP port on localhost that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_binary(name):
    """$P4SWITCH_BIN_DIR/name, else bin/name in the repository, else PATH."""
    for d in (os.environ.get("P4SWITCH_BIN_DIR"), os.path.join(ROOT, "bin")):
        if d and os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    found = shutil.which(name)
    if not found:
        raise RuntimeError("%s not found: run ./fairfabric setup or set P4SWITCH_BIN_DIR" % name)
    return found


def ethtool(node, intf, *features):
    """Turns offload features off; a failure is reported, not ignored."""
    args = " ".join("%s off" % f for f in features)
    out = node.cmd("ethtool -K %s %s 2>&1; echo rc=$?" % (intf, args))
    if "rc=0" not in out:
        raise RuntimeError("ethtool -K %s %s failed: %s" % (intf, args, out.strip()))


class P4Switch(Switch):
    """A p4switch process (P4Runtime server) as a Mininet switch.

    Parameters (addSwitch keyword arguments):
      device_id   P4Runtime device id (default: the number in the name, or 1)
      grpc_port   P4Runtime port on 127.0.0.1 (default: a free port)
      admin_port  traffic manager admin port (default: a free port)
      cpu_port    CPU port number (default 255, as the project's programs use)
      p4          a P4 program to load at start (optional)
      log_level   p4switch --log-level (default info)
      log_dir     where <name>.log goes (default /tmp)
      loop        p4switch run --loop: "goroutines" or "epoll" (default: $P4SWITCH_LOOP, else
                  DEFAULT_LOOP, else chosen by the links; see docs/p4switch.md, Mininet)
    """

    # None: "epoll" when every port has a rate (bw), "goroutines" otherwise. The event loop
    # costs 0.66 of the CPU per packet at 40 Mbit/s, but one switch at full speed carried
    # 0.23-0.40 Gbit/s with it against 0.44-0.91 with the goroutines (their writers overlap
    # the veth transmit on a second core).
    DEFAULT_LOOP = None

    def __init__(self, name, device_id=None, grpc_port=None, admin_port=None, cpu_port=255,
                 p4=None, log_level="info", log_dir="/tmp", loop=None, **params):
        Switch.__init__(self, name, **params)
        digits = "".join(c for c in name if c.isdigit())
        self.device_id = device_id if device_id is not None else int(digits or 1)
        self.grpc_port = grpc_port or free_port()
        self.admin_port = admin_port or free_port()
        self.cpu_port = cpu_port
        self.p4 = p4
        self.log_level = log_level
        self.log_path = os.path.join(log_dir, "p4switch-%s.log" % name)
        self.loop = loop or os.environ.get("P4SWITCH_LOOP") or self.DEFAULT_LOOP
        self.proc = None

    def run_loop(self):
        """The --loop this switch runs with (see DEFAULT_LOOP)."""
        if self.loop:
            return self.loop
        intfs = [i for i in self.intfList() if i.name != "lo"]
        return "epoll" if intfs and all(i.params.get("bw") for i in intfs) else "goroutines"

    @property
    def grpc_addr(self):
        return "127.0.0.1:%d" % self.grpc_port

    @property
    def admin_addr(self):
        return "127.0.0.1:%d" % self.admin_port

    @property
    def switch_pid(self):
        """The p4switch process's PID (Node.pid is Mininet's shell)."""
        return self.proc.pid if self.proc else None

    def port_args(self):
        """The -i and per-port queue flags for this switch's interfaces."""
        args = []
        for intf in self.intfList():
            if intf.name == "lo":
                continue
            port = self.ports[intf]
            args += ["-i", "%d@%s" % (port, intf.name)]
            p = intf.params
            if p.get("bw"):
                args += ["--port-rate", "%d=%d" % (port, int(float(p["bw"]) * 1e6))]
            if p.get("delay"):
                args += ["--port-delay", "%d=%s" % (port, p["delay"])]
            if p.get("loss"):
                args += ["--port-loss", "%d=%s%%" % (port, p["loss"])]
            if p.get("max_queue_size"):
                args += ["--port-depth", "%d=%d" % (port, int(p["max_queue_size"]))]
        return args

    def prepare_interfaces(self):
        """Offloads off: GRO/GSO/TSO on the switch's veths, tx checksums on hosts facing it."""
        for intf in self.intfList():
            if intf.name == "lo":
                continue
            ethtool(self, intf.name, "gro", "gso", "tso")
            peer = intf.link.intf2 if intf.link.intf1 is intf else intf.link.intf1
            if not isinstance(peer.node, Switch):
                ethtool(peer.node, peer.name, "tx")

    def spec(self):
        """This switch as an entry of `p4switch fabric --config` (see docs/p4switch.md)."""
        ports, settings = {}, {}
        for intf in self.intfList():
            if intf.name == "lo":
                continue
            port = self.ports[intf]
            ports[str(port)] = intf.name
            p = intf.params
            mine = []
            if p.get("bw"):
                mine.append("rate=%d" % int(float(p["bw"]) * 1e6))
            if p.get("delay"):
                mine.append("delay=%s" % p["delay"])
            if p.get("loss"):
                mine.append("loss=%s%%" % p["loss"])
            if p.get("max_queue_size"):
                mine.append("depth=%d" % int(p["max_queue_size"]))
            if mine:
                settings[str(port)] = mine
        return {"name": self.name, "device_id": self.device_id, "grpc_addr": self.grpc_addr,
                "admin_addr": self.admin_addr, "cpu_port": self.cpu_port, "p4": self.p4 or "",
                "ports": ports, "port_settings": settings}

    def start(self, controllers):
        self.prepare_interfaces()
        cmd = [find_binary("p4switch"), "run",
               "--device-id", str(self.device_id), "--grpc-addr", self.grpc_addr,
               "--admin-addr", self.admin_addr, "--cpu-port", str(self.cpu_port),
               "--log-level", self.log_level, "--loop", self.run_loop()] + self.port_args()
        if self.p4:
            cmd += ["--p4", self.p4]
        info("*** %s: %s\n" % (self.name, " ".join(cmd)))
        log = open(self.log_path, "w")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self._wait_ready()

    def _wait_ready(self, timeout=30.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("p4switch %s exited with %s; see %s:\n%s" % (
                    self.name, self.proc.returncode, self.log_path, open(self.log_path).read()[-2000:]))
            try:
                socket.create_connection(("127.0.0.1", self.grpc_port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("p4switch %s did not listen on %s within %ss" % (self.name, self.grpc_addr, timeout))

    def stop(self, deleteIntfs=True):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                error("p4switch %s ignored SIGTERM; killing pid %d\n" % (self.name, self.proc.pid))
                self.proc.kill()
                self.proc.wait()
        Switch.stop(self, deleteIntfs)


class P4FabricSwitch(P4Switch):
    """A P4Switch whose p4switch runs, with every other P4FabricSwitch of the net, in one
    `p4switch fabric` process: each keeps its own P4Runtime endpoint, device id, admin
    interface and ports, but 20 switches cost the scheduler one process instead of 20.
    Mininet calls start() on each switch (interfaces only), then batchStartup() once.
    Killing or restarting one switch alone is not possible in this mode."""

    fabric_proc = None  # the shared process, per class (one fabric per Python process)
    # `p4switch fabric --loops`: epoll event loops shared by the switches (0: each switch
    # runs its own goroutines). $P4SWITCH_FABRIC_LOOPS overrides it.
    DEFAULT_LOOPS = 2

    @classmethod
    def loops(cls):
        return int(os.environ.get("P4SWITCH_FABRIC_LOOPS") or cls.DEFAULT_LOOPS)

    def start(self, controllers):
        self.prepare_interfaces()

    @classmethod
    def batchStartup(cls, switches, log_dir="/tmp"):
        if not switches:
            return switches
        first = switches[0]
        cfg_path = os.path.join(log_dir, "p4switch-fabric-%s.json" % first.name)
        ready = cfg_path + ".ready"
        if os.path.exists(ready):
            os.unlink(ready)
        with open(cfg_path, "w") as f:
            json.dump({"switches": [s.spec() for s in switches]}, f, indent=1)
        log_path = os.path.join(log_dir, "p4switch-fabric-%s.log" % first.name)
        cmd = [find_binary("p4switch"), "fabric", "--config", cfg_path, "--ready-file", ready,
               "--log-level", first.log_level, "--loops", str(cls.loops())]
        info("*** p4switch fabric (%d switches): %s\n" % (len(switches), " ".join(cmd)))
        log = open(log_path, "w")
        env = dict(os.environ)
        # One OS thread per switch may run Go code: on a machine shared with other
        # processes the fabric then gets the CPU share its switches would get as
        # separate processes (with GOMAXPROCS = cores it would get the share of one).
        env.setdefault("GOMAXPROCS", str(max(os.cpu_count() or 1, len(switches))))
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
        log.close()
        cls.fabric_proc = proc
        for s in switches:
            s.proc = proc
            s.log_path = log_path
        deadline = time.time() + 60 + 2 * len(switches)
        while not os.path.exists(ready):
            if proc.poll() is not None:
                raise RuntimeError("p4switch fabric exited with %s; see %s:\n%s" % (
                    proc.returncode, log_path, open(log_path).read()[-2000:]))
            if time.time() > deadline:
                raise RuntimeError("p4switch fabric not ready within %d s; see %s" % (deadline, log_path))
            time.sleep(0.05)
        return switches

    @classmethod
    def batchShutdown(cls, switches):
        proc = cls.fabric_proc
        if proc and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                error("p4switch fabric ignored SIGTERM; killing pid %d\n" % proc.pid)
                proc.kill()
                proc.wait()
        cls.fabric_proc = None
        for s in switches:
            s.proc = None
        return switches

    def stop(self, deleteIntfs=True):
        if self.proc is not None:
            type(self).batchShutdown([self])
        Switch.stop(self, deleteIntfs)


class P4RuntimeCLI:
    """Drives p4rtctl against one P4Switch."""

    def __init__(self, switch, election_id=1):
        self.switch = switch
        self.election_id = election_id
        self.binary = find_binary("p4rtctl")

    def run(self, *args, timeout=120):
        cmd = [self.binary, "--addr", self.switch.grpc_addr, "--device-id", str(self.switch.device_id),
               "--election-id", str(self.election_id)] + list(args)
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if res.returncode != 0:
            raise RuntimeError("%s failed: %s%s" % (" ".join(cmd), res.stdout, res.stderr))
        return res.stdout

    def push(self, program):
        return self.run("push", program)

    def add(self, table, *args):
        return self.run("add", table, *args)


def record(net):
    """Call after net.start(): records the net and every p4switch PID for
    `./fairfabric clean` (which kills by PID, never by name)."""
    from fairfabric_mn import runstate
    runstate.register(net)
    runstate.extend(net, pids=[s.switch_pid for s in net.switches if getattr(s, "switch_pid", None)])
