package org.fairfabric.core.allocator;

/**
 * Optimality and feasibility measures of an allocation against its problem, in the problem's
 * units: used by tests, the CLI and the benchmark to verify results independently of the solver.
 */
public final class AllocationChecks {
    private AllocationChecks() {
    }

    /** max_e (load_e − C_e)⁺ / C_e. */
    public static double maxRelativeOverload(Allocation a) {
        AllocationProblem pb = a.problem();
        double worst = 0;
        for (int e = 0; e < pb.linkCount(); e++) {
            worst = Math.max(worst, (a.linkLoad(e) - pb.capacity(e)) / pb.capacity(e));
        }
        return worst;
    }

    /** Largest relative violation of a demand cap or a minimum rate. */
    public static double maxSessionBoundViolation(Allocation a) {
        AllocationProblem pb = a.problem();
        double worst = 0;
        for (int i = 0; i < pb.sessionCount(); i++) {
            double x = a.sessionRate(i);
            if (x > pb.demand(i)) {
                worst = Math.max(worst, (x - pb.demand(i)) / pb.demand(i));
            }
            if (x < pb.minRate(i)) {
                worst = Math.max(worst, (pb.minRate(i) - x) / pb.minRate(i));
            }
        }
        return worst;
    }

    /** (D(μ) − Σ w_i log x_i) / Σ w_i for the allocation's rates and link prices. */
    public static double relativeDualityGap(Allocation a) {
        AllocationProblem pb = a.problem();
        double[] lmin = cheapestPathPrices(a);
        double dual = Duality.dualObjective(pb.capacityArray(), a.linkPrices(), pb.weightArray(),
                pb.minRateArray(), pb.demandArray(), lmin);
        double primal = Duality.primalObjective(pb.weightArray(), a.sessionRates());
        return (dual - primal) / Duality.sum(pb.weightArray());
    }

    /**
     * Stationarity: max_i |x_i − clamp(w_i / l_i^min, g_i, d_i)| / x_i. At the optimum each
     * session's rate is its weight over its cheapest path price, unless a cap or guarantee binds.
     */
    public static double stationarityResidual(Allocation a) {
        AllocationProblem pb = a.problem();
        double[] lmin = cheapestPathPrices(a);
        double worst = 0;
        for (int i = 0; i < pb.sessionCount(); i++) {
            double x = a.sessionRate(i);
            double best = Math.min(pb.demand(i), Math.max(pb.minRate(i), pb.weight(i) / lmin[i]));
            worst = Math.max(worst, Math.abs(x - best) / x);
        }
        return worst;
    }

    /**
     * Path optimality: max over paths carrying more than {@code share} of their session's rate
     * of (l_p − l_i^min) / (w_i / x_i), the price excess relative to the session's marginal
     * utility. Only cheapest paths may carry traffic.
     */
    public static double pathPriceResidual(Allocation a, double share) {
        AllocationProblem pb = a.problem();
        double[] lmin = cheapestPathPrices(a);
        double[] mu = a.linkPrices();
        double worst = 0;
        for (int i = 0; i < pb.sessionCount(); i++) {
            for (int p = pb.firstPath(i); p < pb.endPath(i); p++) {
                if (a.pathRate(p) > share * a.sessionRate(i)) {
                    double marginal = pb.weight(i) / a.sessionRate(i);
                    worst = Math.max(worst, (pathPrice(pb, mu, p) - lmin[i]) / marginal);
                }
            }
        }
        return worst;
    }

    /** Complementary slackness: Σ_e μ_e (C_e − load_e) / Σ_e μ_e C_e. */
    public static double slacknessResidual(Allocation a) {
        AllocationProblem pb = a.problem();
        double unused = 0;
        double worth = 0;
        for (int e = 0; e < pb.linkCount(); e++) {
            unused += a.linkPrice(e) * Math.abs(pb.capacity(e) - a.linkLoad(e));
            worth += a.linkPrice(e) * pb.capacity(e);
        }
        return worth > 0 ? unused / worth : 0;
    }

    private static double[] cheapestPathPrices(Allocation a) {
        AllocationProblem pb = a.problem();
        double[] lmin = new double[pb.sessionCount()];
        Duality.cheapestPathPrices(pb.sessionPathStartArray(), pb.pathLinkStartArray(), pb.pathLinksArray(),
                a.linkPrices(), lmin);
        return lmin;
    }

    private static double pathPrice(AllocationProblem pb, double[] mu, int p) {
        double l = 0;
        for (int k = 0; k < pb.pathLength(p); k++) {
            l += mu[pb.pathLink(p, k)];
        }
        return l;
    }
}
