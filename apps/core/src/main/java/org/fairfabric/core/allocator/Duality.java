package org.fairfabric.core.allocator;

/**
 * Objective, dual function and feasibility measures on raw arrays (any consistent units). Used
 * by the solver for its stopping test and, through {@link AllocationChecks}, by callers.
 *
 * <p>Dual function: D(μ) = Σ_e μ_e C(e) + Σ_i max_{g_i ≤ x ≤ d_i} (w_i log x − l_i^min(μ)·x),
 * where l_i^min is the price of session i's cheapest path; the inner maximum is at
 * x = clamp(w_i / l_i^min, g_i, d_i). For any μ ≥ 0 and any feasible allocation with session
 * rates x, Σ w_i log x_i ≤ D(μ), so D − P bounds the distance to the optimum.
 */
final class Duality {
    private Duality() {
    }

    static double sum(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v;
        }
        return s;
    }

    /** Σ_i w_i log x_i (−∞ if some x_i is 0). */
    static double primalObjective(double[] w, double[] x) {
        double f = 0;
        for (int i = 0; i < w.length; i++) {
            f += w[i] * Math.log(x[i]);
        }
        return f;
    }

    /** Cheapest path price of each session under link prices mu. */
    static void cheapestPathPrices(int[] sps, int[] pls, int[] pl, double[] mu, double[] lminOut) {
        int n = lminOut.length;
        for (int i = 0; i < n; i++) {
            double best = Double.POSITIVE_INFINITY;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                double l = 0;
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    l += mu[pl[k]];
                }
                if (l < best) {
                    best = l;
                }
            }
            lminOut[i] = best;
        }
    }

    /** D(μ) given the cheapest path prices; +∞ when some uncapped session has a free path. */
    static double dualObjective(double[] capacity, double[] mu, double[] w, double[] g, double[] d,
                                double[] lmin) {
        double dual = 0;
        for (int e = 0; e < capacity.length; e++) {
            dual += mu[e] * capacity[e];
        }
        for (int i = 0; i < w.length; i++) {
            double x = lmin[i] > 0 ? w[i] / lmin[i] : Double.POSITIVE_INFINITY;
            x = Math.min(d[i], Math.max(g[i], x));
            if (Double.isInfinite(x)) {
                return Double.POSITIVE_INFINITY;
            }
            dual += w[i] * Math.log(x) - lmin[i] * x;
        }
        return dual;
    }

    /**
     * Farkas test for the minimum rates: Σ_i g_i l_i^min(μ) − Σ_e μ_e C(e), relative to
     * Σ_e μ_e C(e). Positive means the guarantees are infeasible (each unit of capacity priced by
     * μ is worth less than what the guaranteed traffic would have to pay on its cheapest paths).
     */
    static double guaranteeExcess(double[] capacity, double[] mu, double[] g, double[] lmin) {
        double worth = 0;
        for (int e = 0; e < capacity.length; e++) {
            worth += mu[e] * capacity[e];
        }
        double cost = 0;
        for (int i = 0; i < g.length; i++) {
            cost += g[i] * lmin[i];
        }
        return worth > 0 ? (cost - worth) / worth : -1;
    }

    static void sessionRates(int[] sps, double[] r, double[] xOut) {
        for (int i = 0; i < xOut.length; i++) {
            double x = 0;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                x += r[p];
            }
            xOut[i] = x;
        }
    }

    static void linkLoads(int[] pls, int[] pl, double[] r, double[] loadOut) {
        java.util.Arrays.fill(loadOut, 0);
        int paths = pls.length - 1;
        for (int p = 0; p < paths; p++) {
            double rp = r[p];
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                loadOut[pl[k]] += rp;
            }
        }
    }
}
