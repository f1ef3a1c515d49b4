"""The embedded controller (apps/controller) as a process, for Mininet runs.

It needs the Java build (`./fairfabric setup` or `mvn -pl apps/api,apps/controller
-am install -DskipTests`): apps/controller/target/classes and the
runtime-classpath.txt the build writes. The pipeline it pushes is the fabric
program: the checked-in P4Info and the `p4switch bundle` of fabric.p4.
"""

import json
import os
import secrets
import signal
import subprocess
import time
import urllib.error
import urllib.request

from fairfabric_mn.p4switch import ROOT, find_binary, free_port

CLASSES = os.path.join(ROOT, "apps", "controller", "target", "classes")
CLASSPATH_FILE = os.path.join(ROOT, "apps", "controller", "target", "runtime-classpath.txt")
P4INFO = os.path.join(ROOT, "pipeconfs", "p4", "p4info.txt")
PROGRAM = os.path.join(ROOT, "pipeconfs", "p4", "fabric.p4")
# C1 only: on a few shared cores, C2's background compilation competes with the P4TE loop for
# seconds after start (docs/controller.md, "P4TE loop latency"; p50 18-51 ms -> 3-7 ms measured).
# As root (Mininet), the JVM applies thread priorities: the exact solver's lowest one is nice 4, so
# that the allocation loop's interim allocations come first (docs/controller.md, "Arrivals and departures").
JVM_OPTIONS = ["-XX:TieredStopAtLevel=1"] + (["-XX:ThreadPriorityPolicy=1"] if os.geteuid() == 0 else [])


def classpath():
    if not (os.path.isdir(CLASSES) and os.path.isfile(CLASSPATH_FILE)):
        raise RuntimeError("the controller is not built (%s missing): run ./fairfabric setup" % CLASSPATH_FILE)
    with open(CLASSPATH_FILE) as f:
        return CLASSES + ":" + f.read().strip()


def bundle(path):
    """Writes the device config of fabric.p4 for p4switch."""
    subprocess.run([find_binary("p4switch"), "bundle", PROGRAM, "-o", path], check=True,
                   capture_output=True, text=True)
    return path


class ControllerProcess:
    """One controller JVM: REST on a free port, bearer token in a file, a data directory."""

    def __init__(self, workdir, netcfg_path, kafka=None, http_port=None, pipeline=True, extra_args=()):
        self.workdir = workdir
        self.extra_args = list(extra_args)  # more command-line options (e.g. --fack-dscp 0)
        self.pipeline = pipeline  # False: no P4 pipeline pushed (the REST API alone, no switches needed)
        self.netcfg_path = netcfg_path
        self.kafka = kafka
        self.http_port = http_port or free_port()
        self.token = secrets.token_urlsafe(24)
        self.token_file = os.path.join(workdir, "token")
        self.data_dir = os.path.join(workdir, "controller-data")
        self.log_path = os.path.join(workdir, "controller.log")
        self.device_config = os.path.join(workdir, "fabric.bundle")
        self.proc = None

    @property
    def url(self):
        return "http://127.0.0.1:%d/api/v1" % self.http_port

    def start(self, timeout=120):
        os.makedirs(self.workdir, exist_ok=True)
        with open(os.open(self.token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(self.token)
        cmd = ["java"] + JVM_OPTIONS + ["-cp", classpath(), "org.fairfabric.controller.Main", "--data-dir", self.data_dir,
               "--netcfg", self.netcfg_path, "--http-port", str(self.http_port), "--token-file", self.token_file]
        if self.pipeline:
            if not os.path.exists(self.device_config):
                bundle(self.device_config)
            cmd += ["--p4info", P4INFO, "--p4-device-config", self.device_config]
        if self.kafka:
            cmd += ["--kafka", self.kafka]
        cmd += self.extra_args
        env = dict(os.environ)
        if not self.kafka:
            env.pop("FAIRFABRIC_KAFKA", None)  # events stay in the REST log
        log = open(self.log_path, "a")
        start_offset = log.tell()
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        log.close()
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the controller exited with %s; log %s:\n%s" % (
                    self.proc.returncode, self.log_path, self.log_tail()))
            with open(self.log_path) as f:
                f.seek(start_offset)
                if "REST API on" in f.read():
                    return self
            time.sleep(0.2)
        raise RuntimeError("the controller did not serve within %ss; log %s:\n%s" % (
            timeout, self.log_path, self.log_tail()))

    def log_tail(self, n=3000):
        with open(self.log_path) as f:
            return f.read()[-n:]

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill9(self):
        """kill -9 of the controller JVM (a crash, nothing flushed or closed)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def send(self, method, path, body=None):
        """A mutation with the bearer token; returns (status, parsed body)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": "Bearer " + self.token, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                raw = r.read()
                return r.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as e:
            raw = e.read()
            return e.code, json.loads(raw) if raw else None

    def wait_devices_available(self, timeout=180):
        """Waits until every switch is connected, primary and reconciled; returns the seconds waited."""
        t0 = time.time()
        while True:
            devices = self.get("/topology")["devices"]
            down = [d["id"] for d in devices if not d["available"]]
            if devices and not down:
                return time.time() - t0
            if time.time() - t0 > timeout:
                raise RuntimeError("devices not available after %ss: %s\n%s" % (timeout, down, self.log_tail()))
            if self.proc.poll() is not None:
                raise RuntimeError("the controller exited: %s" % self.log_tail())
            time.sleep(0.5)
