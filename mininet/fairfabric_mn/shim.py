"""Start one host shim per Mininet host and stop them on exit.

The shim runs in the root network namespace (so that it reaches the Kafka broker on
127.0.0.1) and enforces on the host's interface inside the host's namespace
(`-netns /proc/PID/ns/net`). Each shim's health and metrics endpoint listens on a
free localhost port, written to its state file."""

import json
import re
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from fairfabric_mn import runstate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("FF_BIN", os.path.join(ROOT, "bin"))


def binary(name):
    path = os.path.join(BIN, name)
    if not os.access(path, os.X_OK):
        raise RuntimeError("%s is missing: run ./fairfabric setup (it builds bin/)" % path)
    return path


class Shim:
    def __init__(self, host, proc, state_file, log_path):
        self.host = host
        self.proc = proc
        self.state_file = state_file
        self.log_path = log_path
        self.metrics_addr = None

    @property
    def name(self):
        return self.host.name

    def wait_ready(self, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("shim %s exited (%s): %s" % (self.name, self.proc.returncode, self.log()))
            if os.path.exists(self.state_file):
                addr = open(self.state_file).read().strip()
                if addr:
                    self.metrics_addr = addr
                    try:
                        return self.health()
                    except OSError:
                        pass
            time.sleep(0.05)
        raise RuntimeError("shim %s not ready after %s s: %s" % (self.name, timeout, self.log()))

    def get(self, path):
        with urllib.request.urlopen("http://%s%s" % (self.metrics_addr, path), timeout=2) as r:
            return r.read().decode()

    def health(self):
        return json.loads(self.get("/healthz"))

    def stats(self):
        return json.loads(self.get("/stats"))

    def wait_version(self, version, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.health()["rates_version"] >= version:
                return
            time.sleep(0.02)
        raise RuntimeError("shim %s did not apply version %d: %s" % (self.name, version, self.log()[-2000:]))

    def log(self):
        try:
            return open(self.log_path).read()
        except OSError:
            return ""

    def stop(self, timeout=10):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class ShimSet:
    """The shims of one Mininet net; use as a context manager so they stop on exit."""

    def __init__(self, net, hosts=None, kafka=None, mode="lossless", period="1s", extra=(), topic_suffix=""):
        self.net = net
        self.kafka = kafka or os.environ.get("FAIRFABRIC_KAFKA")
        self.suffix = topic_suffix
        self.shims = {}
        self.dir = tempfile.mkdtemp(prefix="ff-shims-")
        self.options = (mode, period, list(extra))
        kafka = self.kafka
        if not kafka:
            raise RuntimeError("no Kafka broker: set FAIRFABRIC_KAFKA (./fairfabric test does)")
        try:
            for h in hosts or net.hosts:
                self.shims[h.name] = self._start(h, kafka, mode, period, extra)
            runstate.extend(net, pids=[s.proc.pid for s in self.shims.values()])
            for s in self.shims.values():
                s.wait_ready()
        except Exception:
            self.stop()
            raise

    def _start(self, h, kafka, mode, period, extra, log_mode="w"):
        state = os.path.join(self.dir, h.name + ".addr")
        log_path = os.path.join(self.dir, h.name + ".log")
        cmd = [binary("host-shim"), "-host", h.name, "-addr", h.IP(), "-dev", h.defaultIntf().name,
               "-netns", "/proc/%d/ns/net" % h.pid, "-proc-net", "/proc/%d/net" % h.pid,
               "-kafka", kafka, "-mode", mode, "-period", period,
               "-metrics", "127.0.0.1:0", "-state-file", state, "-topic-suffix", self.suffix] + list(extra)
        log = open(log_path, log_mode)
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        return Shim(h, proc, state, log_path)

    def restart(self, name):
        """Starts the shim of host name again (after it died) with the same options; appends to its log."""
        old = self.shims[name]
        if os.path.exists(old.state_file):
            os.unlink(old.state_file)  # wait_ready reads the new process's address from it
        shim = self._start(old.host, self.kafka, *self.options, log_mode="a")
        self.shims[name] = shim
        runstate.extend(self.net, pids=[shim.proc.pid])
        shim.wait_ready()
        return shim

    def publish(self, host, table):
        """Publishes a rates table for host on this set's rates topic; returns its timestamp (ms)."""
        return publish(self.kafka, host, table, topic="ff.ctl.rates.v1" + self.suffix)

    def consume(self, topic, key=None, **kw):
        """Reads one of the shim topics (name without suffix) of this set."""
        return consume(self.kafka, topic + self.suffix, key=key, **kw)

    def __getitem__(self, name):
        return self.shims[name]

    def stop(self, keep_topics=False):
        """Stops the shims and deletes the run's topics (keep_topics: a test reads them first,
        then calls delete_topics())."""
        for s in self.shims.values():
            s.stop()
        if not keep_topics:
            self.delete_topics()

    def delete_topics(self):
        if self.suffix and self.kafka:
            # the run's own topics go with it (./fairfabric test fails on test topics left behind)
            try:
                delete_topics(self.kafka, re.escape(self.suffix) + "$")
            except (subprocess.SubprocessError, OSError) as e:
                sys.stderr.write("shim topics %s*: not deleted: %s\n" % (self.suffix, e))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def publish(kafka, host, table, topic="ff.ctl.rates.v1"):
    """Publishes a rates table (dict, or str for malformed input) keyed by host;
    returns the broker's record timestamp in ms."""
    value = table if isinstance(table, str) else json.dumps(table)
    out = subprocess.run([binary("shimctl"), "publish", "-kafka", kafka, "-topic", topic, "-key", host, "-value", "-"],
                         input=value.encode(), capture_output=True, check=True, timeout=30)
    return json.loads(out.stdout)["ts_ms"]


def consume(kafka, topic, key=None, idle="2s", max_wait="20s"):
    """Returns the topic's records (dicts with key, offset, ts_ms, value)."""
    cmd = [binary("shimctl"), "consume", "-kafka", kafka, "-topic", topic, "-idle", idle, "-max", max_wait]
    if key:
        cmd += ["-key", key]
    out = subprocess.run(cmd, capture_output=True, check=True, timeout=120)
    return [json.loads(l) for l in out.stdout.decode().splitlines() if l.strip()]


def delete_topics(kafka, match):
    """Deletes the topics whose names match the regular expression; returns their names."""
    out = subprocess.run([binary("shimctl"), "topics", "-kafka", kafka, "-match", match, "-delete"],
                         capture_output=True, check=True, timeout=60)
    return json.loads(out.stdout)["topics"]


def unique_suffix():
    """A topic suffix unique to this run, so tests never see each other's records."""
    return ".t%d-%d" % (os.getpid(), int(time.time() * 1000))


def table(host, version, sessions):
    """sessions: list of (session id, dst IP, [(path id, rate bps), ...])."""
    return {"schema": 1, "host": host, "version": version, "sessions": [
        {"id": sid, "tenant": "t1", "dst": dst, "paths": [{"id": p, "rate_bps": int(r)} for p, r in paths]}
        for sid, dst, paths in sessions]}
