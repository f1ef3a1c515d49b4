"""Promenade, convergence: Algorithm 1 as printed (./fairfabric allocate --mode paper) on the
paper's example, a k=4 fat-tree with 4 sessions x 2 paths ("converges after 35 iterations"),
against exact weighted PF (--mode exact) on the same problems. Instances come from the
allocator's generator (--generate k=4,sessions=4,paths=2,seed=S), one per seed: the paper
does not give its placement or weights, so several seeds show the spread."""

import math

from fairfabric_mn.experiments import allocate, oracle, plot
from fairfabric_mn.experiments.runner import Result, progress

NAME = "promenade-convergence"
SUMMARY = "Promenade Algorithm 1's iterations on k=4, 4 sessions x 2 paths, vs exact PF"
PAPER = "Promenade (Chen et al.), Sec. evaluation: 'converges after 35 iterations'"
NEEDS_ROOT = False
PAPER_ITERATIONS = 35


def objective(problem, rates):
    w = {s["id"]: s["weight"] for s in problem["sessions"]}
    return sum(w[i] * math.log(x) for i, x in rates.items())


def run(quick=False):
    seeds = list(range(1, 4)) if quick else list(range(1, 11))
    res = Result(NAME, PAPER, quick, {"topology": "k=4 fat-tree (allocator generator, capacity 1000 per directed link)",
                                      "sessions": 4, "paths_per_session": 2, "seeds": seeds,
                                      "generator": "k=4,sessions=4,paths=2,seed=S,caps=0,guarantees=0 (Algorithm 1 has no caps or guarantees)",
                                      "paper_mode_m": "directed links (96), docs/allocator.md A4"})
    res.paper_value("iterations", PAPER_ITERATIONS)
    paper_iters, exact_iters, ratios, gaps, obj_gain, oracle_diff = [], [], [], [], [], []
    for seed in seeds:
        spec = "k=4,sessions=4,paths=2,seed=%d,caps=0,guarantees=0" % seed
        progress(NAME, "seed %d: generate, paper mode, exact mode" % seed)
        problem = allocate.generate(spec)
        paper = allocate.solve(problem, "paper")
        exact = allocate.solve(problem, "exact")
        res.problem("seed-%d" % seed, problem)
        pr, er = allocate.session_rates(paper), allocate.session_rates(exact)
        orc = oracle.session_rates(problem)
        oracle_diff.append(oracle.max_relative_difference(er, orc))
        paper_iters.append(paper["iterations"])
        exact_iters.append(exact["iterations"])
        ratios.append({i: pr[i] / er[i] for i in er})
        gaps.append(exact.get("relativeGap"))
        obj_gain.append(objective(problem, er) - objective(problem, pr))
        if not paper["converged"]:
            res.check("paper mode converges (seed %d)" % seed, False, "converged=false")
        res.series("seed-%d" % seed, {"paper_rates": pr, "exact_rates": er, "oracle_rates": orc, "paper_iterations": paper["iterations"],
                                      "exact_iterations": exact["iterations"], "exact_relative_gap": exact.get("relativeGap")})
    res.series("paper_iterations", paper_iters)
    res.series("exact_iterations", exact_iters)
    res.series("paper_over_exact_rate", ratios)
    res.series("exact_minus_paper_objective", obj_gain)
    res.series("exact_vs_oracle_max_relative_difference", oracle_diff)
    mean_it = sum(paper_iters) / len(paper_iters)
    all_ratios = [r for d in ratios for r in d.values()]
    res.row("Algorithm 1 iterations", "35", "%.1f mean (%d..%d over %d seeds)" % (mean_it, min(paper_iters), max(paper_iters), len(seeds)))
    res.row("exact mode iterations", "-", "%d..%d (dual sweeps; docs/allocator.md)" % (min(exact_iters), max(exact_iters)))
    res.row("Alg. 1 rate / exact PF rate", "- (claims O(log rho)-approx.)", "%.2f..%.2f" % (min(all_ratios), max(all_ratios)))
    res.row("exact objective - Alg. 1 objective", "-", "%.3f..%.3f (sum w log x, >0: exact ahead)" % (min(obj_gain), max(obj_gain)))
    res.row("exact PF vs cvxpy/Clarabel oracle", "-", "max relative difference %.2g" % max(oracle_diff))
    res.check("exact mode agrees with the cvxpy/Clarabel oracle within 1e-4", max(oracle_diff) < 1e-4,
              "max relative difference %.2g" % max(oracle_diff))
    res.check("Algorithm 1 iterations within the digest's [20, 50] band around the paper's 35",
              20 <= mean_it <= 50, "mean %.1f" % mean_it)
    res.check("exact PF's objective at least Algorithm 1's on every seed", all(g >= -1e-9 for g in obj_gain),
              "min difference %.4g" % min(obj_gain))
    res.check("exact mode certified within its tolerance", all(g is not None and g <= 1e-4 for g in gaps),
              "max relative gap %s" % max(g or 0 for g in gaps))
    res.finish()

    fig, (ax1, ax2) = plot.figure(2)
    xs = list(range(len(seeds)))
    ax1.bar([x - 0.2 for x in xs], paper_iters, 0.4, label="Algorithm 1 (--mode paper)")
    ax1.bar([x + 0.2 for x in xs], exact_iters, 0.4, label="exact PF (--mode exact)")
    ax1.axhline(PAPER_ITERATIONS, color="red", ls="--", label="paper: 35 iterations")
    ax1.set_xticks(xs, [str(s) for s in seeds])
    ax1.set_xlabel("instance (generator seed)")
    ax1.set_ylabel("iterations (loop passes / dual sweeps)")
    ax1.set_title("Convergence, k=4 fat-tree, 4 sessions x 2 paths")
    ax1.set_ylim(0, max(paper_iters + [PAPER_ITERATIONS]) * 1.4)
    ax1.legend(fontsize=8, loc="upper left", ncol=2)
    for k, d in enumerate(ratios):
        ax2.scatter([k] * len(d), list(d.values()), color="C0", s=18, label="session rate, Alg. 1 / exact PF" if k == 0 else None)
    ax2.axhline(1.0, color="C1", ls="-", label="exact PF (= 1)")
    ax2.set_xticks(xs, [str(s) for s in seeds])
    ax2.set_xlabel("instance (generator seed)")
    ax2.set_ylabel("rate ratio (dimensionless)")
    ax2.set_ylim(0, max(1.5, max(all_ratios) * 1.1))
    ax2.set_title("Algorithm 1's rates relative to exact PF")
    ax2.legend(fontsize=8)
    plot.caption(fig, res)
    return res, fig
