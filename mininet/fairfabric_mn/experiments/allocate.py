"""Calls ./fairfabric allocate (the project's allocator CLI) on a problem dict."""

import json
import os
import subprocess

from fairfabric_mn.experiments.runner import ROOT


def _run(args, stdin=None):
    out = subprocess.run([os.path.join(ROOT, "fairfabric"), "allocate"] + args, input=stdin,
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError("./fairfabric allocate %s: exit %d: %s" % (" ".join(args), out.returncode, out.stderr))
    return json.loads(out.stdout)


def solve(problem, mode="exact"):
    """The allocation of problem (the allocator's JSON input) in mode exact or paper."""
    return _run(["--mode", mode, "-"], json.dumps(problem))


def generate(spec):
    """A generated fat-tree problem, e.g. generate("k=4,sessions=4,paths=2,seed=1")."""
    return _run(["--generate", spec])


def session_rates(allocation):
    """{session id: rate} from an allocation."""
    return {s["id"]: s["rate"] for s in allocation["sessions"]}
