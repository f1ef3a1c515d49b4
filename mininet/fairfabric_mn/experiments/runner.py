"""The shared runner of the experiments: what every result carries and how it is written.

A result is one JSON document (results/NAME.json) and one figure (results/NAME.png):
  {"schema": 1, "experiment": NAME, "paper": ..., "quick": bool,
   "parameters": {...},             what was run (topology, scale, seeds, rates)
   "environment": {...},            machine, load average before and after, commit, versions
   "series": {...},                 every measured series, by name
   "paper_values": {...},           the paper's figures this compares with
   "problems": {...},               allocation problems in ./fairfabric allocate's input format
   "checks": [{"name", "ok", "detail"}],  the direction of each result
   "summary": [[label, paper, fairfabric], ...]}
"""

import datetime
import json
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCHEMA = 1


def progress(name, message):
    """One line of progress on the terminal (stderr, flushed: long runs show where they are)."""
    sys.stderr.write("[experiment %s %s] %s\n" % (name, time.strftime("%H:%M:%S"), message))
    sys.stderr.flush()


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def _git_commit():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def environment():
    return {"started_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "host_cpus": os.cpu_count(), "kernel": platform.release(), "python": platform.python_version(),
            "loadavg_start": loadavg(), "commit": _git_commit()}


def pct(values, p):
    """Nearest-rank percentile; None for no values."""
    s = sorted(values)
    return s[max(0, min(len(s) - 1, -(-p * len(s) // 100) - 1))] if s else None


class Result:
    def __init__(self, name, paper, quick, parameters):
        self.name = name
        self.doc = {"schema": SCHEMA, "experiment": name, "paper": paper, "quick": bool(quick),
                    "parameters": parameters, "environment": environment(), "series": {},
                    "paper_values": {}, "problems": {}, "checks": [], "summary": []}
        self.t0 = time.time()

    @classmethod
    def load(cls, path):
        """A written result (NAME.json), e.g. to draw its figure again."""
        with open(path) as f:
            doc = json.load(f)
        res = cls.__new__(cls)
        res.name, res.doc, res.t0 = doc["experiment"], doc, time.time()
        return res

    def series(self, name, value):
        self.doc["series"][name] = value

    def paper_value(self, name, value):
        self.doc["paper_values"][name] = value

    def problem(self, name, problem):
        self.doc["problems"][name] = problem

    def check(self, name, ok, detail):
        """Records the direction of one result (what --quick and the test assert)."""
        self.doc["checks"].append({"name": name, "ok": bool(ok), "detail": detail})

    def row(self, label, paper, ours):
        self.doc["summary"].append([label, paper, ours])

    @property
    def ok(self):
        return all(c["ok"] for c in self.doc["checks"])

    def failures(self):
        return [c for c in self.doc["checks"] if not c["ok"]]

    def finish(self):
        env = self.doc["environment"]
        env["loadavg_end"] = loadavg()
        env["duration_s"] = round(time.time() - self.t0, 1)

    def write(self, outdir, figure):
        """Writes NAME.json and NAME.png (figure: a matplotlib Figure) into outdir; returns both paths."""
        os.makedirs(outdir, exist_ok=True)
        js = os.path.join(outdir, self.name + ".json")
        png = os.path.join(outdir, self.name + ".png")
        with open(js, "w") as f:
            json.dump(self.doc, f, indent=1, sort_keys=False)
            f.write("\n")
        figure.savefig(png, dpi=110, bbox_inches="tight")
        return js, png

    def print_summary(self, out=sys.stdout):
        env = self.doc["environment"]
        out.write("\n%s (%s)%s\n" % (self.name, self.doc["paper"], " --quick" if self.doc["quick"] else ""))
        rows = [("", "paper", "fairfabric")] + [tuple(str(c) for c in r) for r in self.doc["summary"]]
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        for r in rows:
            out.write("  %s  %s  %s\n" % tuple(r[i].ljust(widths[i]) for i in range(3)))
        out.write("  load average %s at the start, %s at the end; %s CPUs; %.0f s\n"
                  % (" ".join("%.2f" % x for x in env["loadavg_start"]),
                     " ".join("%.2f" % x for x in env["loadavg_end"]), env["host_cpus"], env["duration_s"]))
        for c in self.doc["checks"]:
            out.write("  direction %s: %s (%s)\n" % ("ok  " if c["ok"] else "FAIL", c["name"], c["detail"]))
