#!/usr/bin/env python3
"""Independent oracle for the allocator: solves the same JSON problem with cvxpy + Clarabel.

    maximise  sum_i w_i log(sum_p r_i(p))
    s.t.      sum of r over paths through e <= C(e),  r >= 0,
              g_i <= sum_p r_i(p) <= d_i   (optional minRate / demand)

usage: oracle.py [--instance SPEC] FILE|-
Prints {"solver", "status", "solveSeconds", "objective", "instance"?, "sessions": [{"id", "rate"}]}
with one session per line. Exit 0 on success, 3 if infeasible, 1 on solver failure.
Capacities are divided by the largest one before solving (Clarabel is far more accurate on
a well-scaled problem) and rates are scaled back.
"""
import argparse
import json
import sys
import time

import cvxpy as cp
import numpy as np
import scipy.sparse as sp


def build(problem):
    links = problem["links"]
    index = {link["id"]: e for e, link in enumerate(links)}
    cap = np.array([float(link["capacity"]) for link in links])
    scale = cap.max() if len(cap) else 1.0
    rows, cols, owner = [], [], []
    sessions = problem["sessions"]
    for i, s in enumerate(sessions):
        for path in s["paths"]:
            p = len(owner)
            owner.append(i)
            for link_id in path:
                rows.append(index[link_id])
                cols.append(p)
    n_paths = len(owner)
    A = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(links), n_paths))
    S = sp.csr_matrix((np.ones(n_paths), (owner, range(n_paths))), shape=(len(sessions), n_paths))
    w = np.array([float(s["weight"]) for s in sessions])
    d = np.array([float(s["demand"]) if s.get("demand") is not None else np.inf for s in sessions])
    g = np.array([float(s.get("minRate") or 0.0) for s in sessions])
    return A, S, cap / scale, w, d / scale, g / scale, scale


def solve(problem):
    A, S, cap, w, d, g, scale = build(problem)
    r = cp.Variable(A.shape[1], nonneg=True)
    x = S @ r
    constraints = [A @ r <= cap]
    capped = np.where(np.isfinite(d))[0]
    if len(capped):
        constraints.append(x[capped] <= d[capped])
    guaranteed = np.where(g > 0)[0]
    if len(guaranteed):
        constraints.append(x[guaranteed] >= g[guaranteed])
    objective = cp.Maximize(w @ cp.log(x))
    started = time.perf_counter()
    prob = cp.Problem(objective, constraints)
    prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-9, tol_gap_rel=1e-9, tol_feas=1e-9, max_iter=500)
    seconds = time.perf_counter() - started
    rates = None if r.value is None else (S @ r.value) * scale
    return prob.status, seconds, prob.value, rates


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--instance", help="generator spec recorded in the output")
    args = parser.parse_args()
    text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    problem = json.loads(text)
    status, seconds, value, rates = solve(problem)
    if status in ("infeasible", "infeasible_inaccurate"):
        print(f"oracle: infeasible ({status})", file=sys.stderr)
        return 3
    if rates is None or status not in ("optimal", "optimal_inaccurate"):
        print(f"oracle: solver failed ({status})", file=sys.stderr)
        return 1
    head = {"solver": "cvxpy-clarabel", "status": status, "solveSeconds": round(seconds, 3),
            "objective": value}
    if args.instance:
        head["instance"] = args.instance
    lines = [json.dumps(head)[:-1] + ', "sessions": [']
    body = [json.dumps({"id": s["id"], "rate": float(x)}) for s, x in zip(problem["sessions"], rates)]
    lines.append(",\n".join(body))
    lines.append("]}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
