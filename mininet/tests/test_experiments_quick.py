"""The papers' experiments in --quick mode (./fairfabric experiment NAME --quick): each runs
through the real entry point, writes its JSON and PNG, and every result points the way the
paper (or the theory it relies on) says. Directions only, never wall-clock times."""

import json
import os
import subprocess
import sys

import pytest

from fairfabric_mn import experiments
from fairfabric_mn.experiments import maxmin

MININET_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("name", [n for n in experiments.MODULES if n not in experiments.NOT_IN_TEST_SUITE])
def test_quick_experiment_writes_its_result_and_points_the_right_way(name, tmp_path):
    if experiments.load(name).NEEDS_ROOT and os.geteuid() != 0:
        pytest.fail("%s needs root (run ./fairfabric test as root)" % name)
    out = subprocess.run([sys.executable, "-m", "fairfabric_mn.experiments", name, "--quick", "--out", str(tmp_path)],
                         cwd=MININET_DIR, capture_output=True, text=True, timeout=600)
    print(out.stdout)
    assert (tmp_path / (name + ".json")).exists(), "no result written; exit %d: %s" % (out.returncode, out.stderr[-3000:])
    doc = json.load(open(tmp_path / (name + ".json")))
    assert doc["experiment"] == name and doc["quick"] is True
    for key in ("parameters", "environment", "series", "paper_values", "checks", "summary"):
        assert doc[key], key
    assert len(doc["environment"]["loadavg_start"]) == 3
    assert os.path.getsize(tmp_path / (name + ".png")) > 10000
    assert [c for c in doc["checks"] if not c["ok"]] == []
    assert out.returncode == 0, out.stderr[-3000:]


def test_experiment_rejects_an_unknown_name(tmp_path):
    out = subprocess.run([sys.executable, "-m", "fairfabric_mn.experiments", "no-such-thing", "--out", str(tmp_path)],
                         cwd=MININET_DIR, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "unknown experiment no-such-thing" in out.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("problem, expected", [
    # parking lot, 3 unit links: max-min gives every session half a link
    ({"links": [{"id": "a", "capacity": 1}, {"id": "b", "capacity": 1}, {"id": "c", "capacity": 1}],
      "sessions": [{"id": "long", "weight": 1, "paths": [["a", "b", "c"]]},
                   {"id": "s1", "weight": 1, "paths": [["a"]]}, {"id": "s2", "weight": 1, "paths": [["b"]]},
                   {"id": "s3", "weight": 1, "paths": [["c"]]}]},
     {"long": 0.5, "s1": 0.5, "s2": 0.5, "s3": 0.5}),
    # weights 1:3 on one link of 8
    ({"links": [{"id": "a", "capacity": 8}],
      "sessions": [{"id": "x", "weight": 1, "paths": [["a"]]}, {"id": "y", "weight": 3, "paths": [["a"]]}]},
     {"x": 2.0, "y": 6.0}),
    # a session frozen by a small link leaves the rest to the other one
    ({"links": [{"id": "small", "capacity": 1}, {"id": "big", "capacity": 10}],
      "sessions": [{"id": "x", "weight": 1, "paths": [["small", "big"]]}, {"id": "y", "weight": 1, "paths": [["big"]]}]},
     {"x": 1.0, "y": 9.0}),
])
def test_weighted_maxmin(problem, expected):
    got = maxmin.weighted_maxmin(problem)
    assert got == pytest.approx(expected, rel=1e-9)


def test_maxmin_refuses_multipath_sessions():
    with pytest.raises(ValueError, match="sessions\\[x\\]"):
        maxmin.weighted_maxmin({"links": [{"id": "a", "capacity": 1}],
                                "sessions": [{"id": "x", "weight": 1, "paths": [["a"], ["a"]]}]})
