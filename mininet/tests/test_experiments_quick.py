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


def test_jain_index():
    from fairfabric_mn.experiments.fabric_run import jain_index
    assert jain_index([1, 1, 1, 1]) == pytest.approx(1.0)
    assert jain_index([1, 0, 0, 0]) == pytest.approx(0.25)
    assert jain_index([0.95, 0, 0, 0.98]) == pytest.approx(0.4999, abs=1e-3)
    assert jain_index([0, 0]) == 0.0


def test_vfab_failover_reads_the_benchmark_lines():
    # lines exactly as `./fairfabric bench failover` prints them (FailoverFabricTest's format)
    from fairfabric_mn.experiments import vfab_failover
    text = "\n".join([
        "  fail-stop 1: spine 1 (path 1): declared 2807 ms, shim moved 2821 ms, re-allocated by 3681 ms, traffic restored 474 ms"
        " (new allocation 6.00 Mbit/s) after the failure (load 10.81 13.63 19.43 2/549 32344)",
        "  fail-stop, 1 failures: traffic restored p50 474 ms p99 474 ms; declared p50 2807 p99 2807 ms; shim moved p50 2821 p99 2821 ms;"
        " re-allocated p50 3681 p99 3681 ms; other links declared failed so far: 0 (load 10.81 13.63 19.43 2/652 32685)",
        "  gray 5 % 1: spine 2 (path 2): declared 10871 ms, shim moved 10886 ms, re-allocated by 11175 ms, traffic restored n/a"
        " (loss, no outage) (new allocation 6.00 Mbit/s) after the failure (load 26.44 43.31 38.29 12/984 18658)",
        "  gray 5 %, 1 failures: declared p50 10871 p99 10871 ms; shim moved (lossy link avoided) p50 10886 p99 10886 ms;"
        " re-allocated p50 11175 p99 11175 ms; other links declared failed so far: 2 (load 52.91 34.53 32.41 51/1428 3871)"])
    failures, false = vfab_failover.parse(text)
    assert false == 2
    assert failures == [
        {"kind": "fail-stop", "n": 1, "spine": 1, "path": 1, "declared_ms": 2807, "moved_ms": 2821, "reallocated_ms": 3681,
         "restored_ms": 474, "allocation_mbps": 6.0, "load": [10.81, 13.63, 19.43]},
        {"kind": "gray", "n": 1, "spine": 2, "path": 2, "declared_ms": 10871, "moved_ms": 10886, "reallocated_ms": 11175,
         "restored_ms": None, "allocation_mbps": 6.0, "load": [26.44, 43.31, 38.29]}]
    assert vfab_failover.pct(list(range(1, 11)), 50) == 5 and vfab_failover.pct(list(range(1, 11)), 99) == 10


def test_delay_probe_measures_every_record_over_a_pipe_and_mptcp(tmp_path):
    # Table 2's measurement (promenade-rlnc): records at 2 Mbit/s for 1 s, through a pipe and over
    # MPTCP on a loopback of its own namespace; every record arrives, in order, each with its delay
    from fairfabric_mn.experiments import delay_probe
    probe = delay_probe.__file__
    rate, seconds = 2e6, 1
    written = delay_probe.records(rate, seconds)
    out = tmp_path / "pipe.json"
    subprocess.run("python3 %s send --rate %d --seconds %d | python3 %s recv --out %s" % (probe, rate, seconds, probe, out),
                   shell=True, check=True, timeout=30)
    got = json.loads(out.read_text())
    assert got["records"] == written and len(got["delays_ms"]) == written and min(got["delays_ms"]) >= 0
    out = tmp_path / "mptcp.json"
    subprocess.run(["unshare", "--net", "bash", "-c",
                    "ip link set lo up; python3 {p} recv --listen 127.0.0.1:7103 --mptcp --out {o} > /dev/null & "
                    "sleep 0.5; python3 {p} send --rate {r} --seconds {s} --connect 127.0.0.1:7103 --mptcp; wait".format(
                        p=probe, o=out, r=int(rate), s=seconds)], check=True, timeout=30)
    assert json.loads(out.read_text())["records"] == written


def test_delay_probe_refuses_a_stream_out_of_order(tmp_path):
    from fairfabric_mn.experiments import delay_probe
    rec = lambda n: delay_probe.HEADER.pack(n, 0) + bytes(delay_probe.RECORD - delay_probe.HEADER.size)
    p = subprocess.run([sys.executable, delay_probe.__file__, "recv", "--out", str(tmp_path / "x.json")],
                       input=rec(0) + rec(2), capture_output=True, timeout=30)
    assert p.returncode != 0 and b"record 2 arrived where 1 was due" in p.stderr
    assert not (tmp_path / "x.json").exists()
