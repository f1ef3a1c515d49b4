"""Promenade, PF vs max-min on a parking lot: L unit links in series, one long session over
all of them (weight w) and one short session per link (weight 1). Max-min (progressive
filling, maxmin.py) gives the long session w/(w+1) of a link; proportional fairness gives it
w/(w+L) (digest T1/T16), and Algorithm 1 as printed something else again. PF from
./fairfabric allocate --mode exact, Algorithm 1 from --mode paper. Allocations only: no
traffic is sent (achieved rates on a parking lot in Mininet are future work, docs/results.md)."""

from fairfabric_mn.experiments import allocate, maxmin, oracle, plot
from fairfabric_mn.experiments.runner import Result, progress

NAME = "promenade-parking-lot"
SUMMARY = "PF (exact and Algorithm 1) vs max-min on a parking lot of L links"
PAPER = "Promenade (Chen et al.): weighted proportional fairness, Eq. (2); digest T1/T16"
NEEDS_ROOT = False


def parking_lot(L, w_long):
    links = [{"id": "l%d" % k, "capacity": 1.0} for k in range(1, L + 1)]
    sessions = [{"id": "long", "weight": w_long, "paths": [[l["id"] for l in links]]}]
    sessions += [{"id": "short%d" % k, "weight": 1, "paths": [["l%d" % k]]} for k in range(1, L + 1)]
    return {"links": links, "sessions": sessions}


def run(quick=False):
    hops = [1, 2, 3] if quick else [1, 2, 3, 4, 5, 6, 8]
    weights = [1] if quick else [1, 2]
    res = Result(NAME, PAPER, quick, {"links_in_series": hops, "long_session_weights": weights,
                                      "capacity": "1 per link (rates are fractions of a link)",
                                      "short_session_weight": 1})
    res.paper_value("pf_long_rate", "w/(w+L)")
    res.paper_value("pf_short_rate", "L/(w+L)")
    table = {}
    for w in weights:
        rows = []
        for L in hops:
            progress(NAME, "w=%d L=%d: exact, paper mode, max-min" % (w, L))
            problem = parking_lot(L, w)
            res.problem("w%d-L%d" % (w, L), problem)
            ex = allocate.session_rates(allocate.solve(problem, "exact"))
            pa = allocate.session_rates(allocate.solve(problem, "paper"))
            mm = maxmin.weighted_maxmin(problem)
            orc = oracle.session_rates(problem)
            rows.append({"L": L, "theory_pf_long": w / (w + L), "theory_pf_short": L / (w + L),
                         "exact_long": ex["long"], "exact_short": ex["short1"],
                         "paper_long": pa["long"], "paper_short": pa["short1"],
                         "oracle_long": orc["long"], "oracle_short": orc["short1"],
                         "exact_vs_oracle": oracle.max_relative_difference(ex, orc),
                         "maxmin_long": mm["long"], "maxmin_short": mm["short1"],
                         "exact_total": sum(ex.values()), "maxmin_total": sum(mm.values()),
                         "paper_total": sum(pa.values())})
        table[w] = rows
        res.series("w%d" % w, rows)
    rows1 = table[1]
    worst = max(abs(r["exact_long"] - r["theory_pf_long"]) / r["theory_pf_long"] for rs in table.values() for r in rs)
    for r in rows1:
        res.row("L=%d long / short (w=1)" % r["L"], "PF %.3f / %.3f" % (r["theory_pf_long"], r["theory_pf_short"]),
                "exact %.3f / %.3f; Alg.1 %.3f / %.3f; max-min %.3f / %.3f"
                % (r["exact_long"], r["exact_short"], r["paper_long"], r["paper_short"], r["maxmin_long"], r["maxmin_short"]))
    res.row("exact PF vs closed form", "w/(w+L)", "max relative error %.2g" % worst)
    worst_oracle = max(r["exact_vs_oracle"] for rs in table.values() for r in rs)
    res.row("exact PF vs cvxpy/Clarabel oracle", "-", "max relative difference %.2g" % worst_oracle)
    res.check("exact mode agrees with the cvxpy/Clarabel oracle within 1e-4", worst_oracle < 1e-4,
              "max relative difference %.2g" % worst_oracle)
    big = [r for rs in table.values() for r in rs if r["L"] >= 2]
    res.check("exact PF matches the closed form w/(w+L) within 1e-3", worst < 1e-3, "max relative error %.2g" % worst)
    res.check("for L>=2, PF gives the long session less than max-min does",
              all(r["exact_long"] < r["maxmin_long"] - 1e-6 for r in big), "%d cases" % len(big))
    res.check("for L>=2, PF carries more in total than max-min",
              all(r["exact_total"] > r["maxmin_total"] + 1e-6 for r in big), "%d cases" % len(big))
    res.check("L=1: PF and max-min agree (one bottleneck cannot tell them apart)",
              all(abs(r["exact_long"] - r["maxmin_long"]) < 1e-3 for rs in table.values() for r in rs if r["L"] == 1), "")
    res.finish()

    fig, axes = plot.figure(len(weights))
    for ax, w in zip(axes, weights):
        rows = table[w]
        Ls = [r["L"] for r in rows]
        ax.plot(Ls, [r["theory_pf_long"] for r in rows], "r--", lw=2.5, alpha=0.5, label="PF closed form: long w/(w+L), short L/(w+L)")
        ax.plot(Ls, [r["theory_pf_short"] for r in rows], "r--", lw=2.5, alpha=0.5)
        ax.plot(Ls, [r["exact_long"] for r in rows], "o-", color="C0", label="long, exact PF (--mode exact)")
        ax.plot(Ls, [r["paper_long"] for r in rows], "s:", color="C2", label="long, Algorithm 1 (--mode paper)")
        ax.plot(Ls, [r["maxmin_long"] for r in rows], "^-", color="C3", label="long, max-min")
        ax.plot(Ls, [r["exact_short"] for r in rows], "o-", color="C0", alpha=0.45, label="short, exact PF")
        ax.plot(Ls, [r["paper_short"] for r in rows], "s:", color="C2", alpha=0.45, label="short, Algorithm 1")
        ax.plot(Ls, [r["maxmin_short"] for r in rows], "^--", color="C3", alpha=0.45,
                label="short, max-min (w=1: under long's 1/2)")
        ax.set_xticks(Ls)
        ax.set_xlabel("links in series L")
        ax.set_ylabel("session rate (fraction of link capacity)")
        ax.set_ylim(0, 1.05)
        ax.set_title("Parking lot, long session weight w=%d" % w)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=8)
    plot.caption(fig, res)
    return res, fig
