"""The allocator's independent oracle (tools/oracle/oracle.py: cvxpy + Clarabel), loaded once
in-process so that every exact allocation an experiment reports is re-checked by another solver."""

import importlib.util
import os

from fairfabric_mn.experiments.runner import ROOT

_module = None


def session_rates(problem):
    """{session id: rate} from the oracle; raises when it does not report an optimum."""
    global _module
    if _module is None:
        spec = importlib.util.spec_from_file_location("ff_oracle", os.path.join(ROOT, "tools", "oracle", "oracle.py"))
        _module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_module)
    status, _, _, rates = _module.solve(problem)
    if status != "optimal" or rates is None:
        raise RuntimeError("oracle: status %s" % status)
    return {s["id"]: float(r) for s, r in zip(problem["sessions"], rates)}


def max_relative_difference(a, b):
    return max(abs(a[i] - b[i]) / max(abs(b[i]), 1e-12) for i in b)
