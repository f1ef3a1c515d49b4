package org.fairfabric.core.allocator;

/**
 * The certified relative duality gap of path rates and link prices on a whole problem, in the
 * problem's units: the rates are first repaired into a capacity-feasible allocation (every path
 * scaled down by its most overloaded link, every session down to its demand), then
 * (D(μ) − Σ_i w_i log x_i) / Σ_i w_i is computed. D(μ) bounds every feasible allocation's
 * utility for any μ ≥ 0, so the gap bounds the repaired allocation's suboptimality.
 */
final class Certificate {
    final double[] repairedRates;
    final double[] sessionRates;
    /** Link loads of the repaired rates. */
    final double[] loads;
    final double gap;
    /** Largest relative shortfall below a minimum rate after the repair. */
    final double infeasibility;

    Certificate(AllocationProblem pb, double[] pathRates, double[] load, double[] mu) {
        int[] sps = pb.sessionPathStartArray();
        int[] pls = pb.pathLinkStartArray();
        int[] pl = pb.pathLinksArray();
        double[] cap = pb.capacityArray();
        double[] w = pb.weightArray();
        double[] g = pb.minRateArray();
        double[] d = pb.demandArray();
        int n = pb.sessionCount();
        repairedRates = new double[pathRates.length];
        sessionRates = new double[n];
        // Loads of the repaired rates: the given loads, less what the (few) repaired paths shed.
        loads = load.clone();
        double dual = 0;
        // Per link: the factor a path through it must be scaled by (1 unless overloaded).
        double[] scale = new double[cap.length];
        for (int e = 0; e < cap.length; e++) {
            dual += mu[e] * cap[e];
            scale[e] = load[e] > cap[e] ? cap[e] / load[e] : 1;
        }
        double primal = 0;
        double infeasible = 0;
        for (int i = 0; i < n; i++) {
            double x = 0;
            double cheapest = Double.POSITIVE_INFINITY;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                double f = 1;
                double price = 0;
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    int e = pl[k];
                    price += mu[e];
                    double t = scale[e];
                    f = t < f ? t : f;
                }
                cheapest = Math.min(cheapest, price);
                repairedRates[p] = pathRates[p] * f;
                if (f < 1) {
                    shed(pls, pl, p, pathRates[p] - repairedRates[p]);
                }
                x += repairedRates[p];
            }
            if (x > d[i]) {
                double f = d[i] / x;
                for (int p = sps[i]; p < sps[i + 1]; p++) {
                    double before = repairedRates[p];
                    repairedRates[p] *= f;
                    shed(pls, pl, p, before - repairedRates[p]);
                }
                x = d[i];
            }
            sessionRates[i] = x;
            if (x < g[i]) {
                infeasible = Math.max(infeasible, (g[i] - x) / g[i]);
            }
            double best = cheapest > 0 ? w[i] / cheapest : Double.POSITIVE_INFINITY;
            best = Math.min(d[i], Math.max(g[i], best));
            dual += w[i] * Math.log(best) - cheapest * best;
            primal += w[i] * Math.log(x);
        }
        double value = n == 0 ? 0 : (dual - primal) / Duality.sum(w);
        gap = Double.isNaN(value) ? Double.POSITIVE_INFINITY : value;
        infeasibility = infeasible;
    }

    private void shed(int[] pls, int[] pl, int p, double amount) {
        for (int k = pls[p]; k < pls[p + 1]; k++) {
            loads[pl[k]] -= amount;
        }
    }
}
