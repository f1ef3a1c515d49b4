"""The REST API against its OpenAPI document, fuzzed by schemathesis with every check.

The embedded controller runs without switches (the REST API alone: the network
configuration names devices that never connect) and schemathesis (pinned in
requirements.txt) generates positive and negative requests for every operation
of docs/api/openapi.yaml, as the document is served at /api/v1/openapi.json.
Any finding fails the test; schemathesis's report is printed.

Bounded to stay within a few minutes on a loaded 2-core machine: a fixed seed
and FUZZ_EXAMPLES examples per operation and phase.
"""

import os
import re
import subprocess
import sys

import pytest

from fairfabric_mn.controller import ControllerProcess
from fairfabric_mn.p4switch import ROOT

NETCFG = os.path.join(ROOT, "docs", "examples", "netcfg-leafspine-4x4.json")
SCHEMATHESIS = os.path.join(os.path.dirname(sys.executable), "schemathesis")
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemathesis.toml")
FUZZ_EXAMPLES = int(os.environ.get("FF_FUZZ_EXAMPLES", "40"))
SEED = int(os.environ.get("FF_FUZZ_SEED", "21"))
# Logged by Jetty or the API handler when something goes wrong inside the server.
SERVER_TROUBLE = re.compile(r"IllegalStateException|Exception in|\bERROR\b|\bWARN\b.*(Jetty|jetty)")


@pytest.fixture
def controller(tmp_path):
    ctl = ControllerProcess(str(tmp_path), NETCFG, pipeline=False)
    ctl.start()
    yield ctl
    ctl.stop()


def run_schemathesis(ctl, tmp_path, *extra):
    report = os.path.join(str(tmp_path), "schemathesis-junit.xml")
    cmd = [SCHEMATHESIS, "--config-file", CONFIG, "run", ctl.url + "/openapi.json", "--url", ctl.url.rsplit("/api/v1", 1)[0],
           "--checks", "all", "--max-examples", str(FUZZ_EXAMPLES), "--seed", str(SEED),
           "--header", "Authorization: Bearer " + ctl.token, "--workers", "1",
           "--request-timeout", "20", "--no-color", "--generation-database", "none",
           "--report", "junit", "--report-junit-path", report,
           # an endless text/event-stream: nothing to fuzz (no parameters), and a GET never ends
           "--exclude-operation-id", "getStream"] + list(extra)
    # cwd: schemathesis keeps a .schemathesis/ cache in its working directory
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=str(tmp_path))


def test_api_holds_its_openapi_contract_under_fuzzing(controller, tmp_path):
    result = run_schemathesis(controller, tmp_path)
    output = result.stdout + result.stderr
    print(output)
    assert result.returncode == 0, "schemathesis found problems (exit %d):\n%s" % (result.returncode, output[-20000:])
    log = controller.log_tail(10 ** 7)
    assert controller.token not in log, "the API token appears in the controller's log"
    assert controller.token not in output, "the API token appears in schemathesis's report"
    trouble = [line for line in log.splitlines() if SERVER_TROUBLE.search(line)]
    assert not trouble, "the controller logged trouble while fuzzed:\n" + "\n".join(trouble[:40])
