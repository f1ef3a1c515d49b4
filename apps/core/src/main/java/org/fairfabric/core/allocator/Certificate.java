package org.fairfabric.core.allocator;

/**
 * The certified relative duality gap of path rates and link prices on a whole problem, in the
 * problem's units: the rates are first repaired into a capacity-feasible allocation (every path
 * scaled down by its most overloaded link, every session down to its demand), then
 * (D(μ) − Σ_i w_i log x_i) / Σ_i w_i is computed. D(μ) bounds every feasible allocation's
 * utility for any μ ≥ 0, so the gap bounds the repaired allocation's suboptimality.
 *
 * <p>When the prices come from a relaxation ({@link #of}) they are zero off its active links,
 * so every path of a class costs its class's price. If moreover no link is overloaded (beyond
 * {@link #ROUNDING}), no path needs repairing and the certificate is computed from the classes
 * and the session totals without reading the path→link entries at all; otherwise one pass over
 * them finds each path's repair factor (one read per entry).
 */
final class Certificate {
    /**
     * The repaired rates. When nothing needed repairing they may be the given array itself:
     * a certificate describes its arrays as they were when it was computed.
     */
    double[] repairedRates;
    final double[] sessionRates;
    /** Link loads of the repaired rates (like the rates, possibly the given array). */
    double[] loads;
    /** Whether repairedRates / loads are still the caller's arrays (copied on first change). */
    private boolean sharedRates;
    private boolean sharedLoads;
    final double gap;
    /** Largest relative shortfall below a minimum rate after the repair. */
    final double infeasibility;

    /**
     * Relative load above capacity that is rounding, not overload: a relaxation's rates fill its
     * binding links to within a few ulps, either side, and repairing them would only move the
     * rounding. Reported loads may exceed capacity by this much, never more (and session rates
     * their demand caps).
     */
    static final double ROUNDING = 1e-12;

    private double worstShortfall;

    /**
     * The certificate of rates split from relaxation {@code classes} with prices {@code mu};
     * {@code load} must be the loads of {@code pathRates}.
     */
    static Certificate of(PathClasses classes, double[] pathRates, double[] load, double[] mu) {
        AllocationProblem pb = classes.full;
        double[] cap = pb.capacityArray();
        int[] reduced = classes.reducedLink;
        double[] scale = null;
        for (int e = 0; e < cap.length; e++) {
            if (mu[e] != 0 && reduced[e] < 0) {
                return new Certificate(pb, pathRates, load, mu);
            }
            if (load[e] > cap[e] * (1 + ROUNDING)) {
                if (scale == null) {
                    scale = new double[cap.length];
                    java.util.Arrays.fill(scale, 1);
                }
                scale[e] = cap[e] / load[e];
            }
        }

        return new Certificate(classes, pathRates, load, mu, scale);
    }

    /**
     * Prices zero off the active links: path prices by classes; paths scaled by {@code scale}
     * (per link, 1 unless overloaded), or, when it is null (nothing overloaded), not at all.
     */
    private Certificate(PathClasses classes, double[] pathRates, double[] load, double[] mu, double[] scale) {
        AllocationProblem pb = classes.full;
        int[] sps = pb.sessionPathStartArray();
        int[] pls = pb.pathLinkStartArray();
        int[] pl = pb.pathLinksArray();
        double[] cap = pb.capacityArray();
        double[] d = pb.demandArray();
        int[] scs = classes.sessionClassStart;
        int[] cls = classes.classLinkStart;
        int[] cl = classes.classLinks;
        int[] activeLinks = classes.activeLinks;
        int n = pb.sessionCount();
        repairedRates = scale != null ? pathRates.clone() : pathRates;
        sharedRates = scale == null;
        sessionRates = new double[n];
        loads = scale != null ? load.clone() : load;
        sharedLoads = scale == null;
        double dual = 0;
        for (int e = 0; e < cap.length; e++) {
            dual += mu[e] * cap[e];
        }
        double excess = 0;
        for (int i = 0; i < n; i++) {
            double x = 0;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                if (scale != null) {
                    double f = 1;
                    for (int k = pls[p]; k < pls[p + 1]; k++) {
                        double t = scale[pl[k]];
                        f = t < f ? t : f;
                    }
                    if (f < 1) {
                        double before = repairedRates[p];
                        repairedRates[p] = before * f;
                        shed(pls, pl, p, before - repairedRates[p]);
                    }
                }
                x += repairedRates[p];
            }
            double cheapest = Double.POSITIVE_INFINITY;
            for (int c = scs[i]; c < scs[i + 1]; c++) {
                double price = 0;
                for (int k = cls[c]; k < cls[c + 1]; k++) {
                    price += mu[activeLinks[cl[k]]];
                }
                cheapest = price < cheapest ? price : cheapest;
            }
            // A split of a capped rate may sum a few ulps above the cap: rounding, as for loads.
            excess += settle(pb, i, x, cheapest, d[i] * (1 + ROUNDING));
        }
        double value = n == 0 ? 0 : (dual + excess) / Duality.sum(pb.weightArray());
        gap = Double.isNaN(value) ? Double.POSITIVE_INFINITY : value;
        infeasibility = worstShortfall;
    }

    Certificate(AllocationProblem pb, double[] pathRates, double[] load, double[] mu) {
        int[] sps = pb.sessionPathStartArray();
        int[] pls = pb.pathLinkStartArray();
        int[] pl = pb.pathLinksArray();
        double[] cap = pb.capacityArray();
        double[] d = pb.demandArray();
        int n = pb.sessionCount();
        repairedRates = new double[pathRates.length];
        sessionRates = new double[n];
        // Loads of the repaired rates: the given loads, less what the (few) repaired paths shed.
        loads = load.clone();
        // The one pass over every path→link entry: per link, its price and the factor a path
        // through it must be scaled by (1 unless overloaded), interleaved so that an entry costs
        // one memory access.
        double dual = 0;
        double[] priceScale = new double[2 * cap.length];
        for (int e = 0; e < cap.length; e++) {
            dual += mu[e] * cap[e];
            priceScale[2 * e] = mu[e];
            priceScale[2 * e + 1] = load[e] > cap[e] ? cap[e] / load[e] : 1;
        }
        // Σ_i [w_i log(best_i) − l_i best_i − w_i log x_i] is accumulated as one log per session.
        double excess = 0;
        for (int i = 0; i < n; i++) {
            double x = 0;
            double cheapest = Double.POSITIVE_INFINITY;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                double f = 1;
                double price = 0;
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    int e = 2 * pl[k];
                    price += priceScale[e];
                    double t = priceScale[e + 1];
                    f = t < f ? t : f;
                }
                cheapest = price < cheapest ? price : cheapest;
                double r = pathRates[p];
                if (f < 1) {
                    double repaired = r * f;
                    shed(pls, pl, p, r - repaired);
                    r = repaired;
                }
                repairedRates[p] = r;
                x += r;
            }
            excess += settle(pb, i, x, cheapest, d[i]);
        }
        double value = n == 0 ? 0 : (dual + excess) / Duality.sum(pb.weightArray());
        gap = Double.isNaN(value) ? Double.POSITIVE_INFINITY : value;
        infeasibility = worstShortfall;
    }

    /**
     * Session {@code i}'s repaired total {@code x}: scaled down to its demand when above
     * {@code capLimit} (the scaled-off rates shed from the loads), recorded, and its term
     * w_i log(best_i / x_i) − l_i best_i of the gap returned; {@code cheapest} is its cheapest path price.
     */
    private double settle(AllocationProblem pb, int i, double x, double cheapest, double capLimit) {
        int[] sps = pb.sessionPathStartArray();
        int[] pls = pb.pathLinkStartArray();
        int[] pl = pb.pathLinksArray();
        double w = pb.weightArray()[i];
        double g = pb.minRateArray()[i];
        double d = pb.demandArray()[i];
        if (x > capLimit) {
            if (sharedRates) {
                repairedRates = repairedRates.clone();
                sharedRates = false;
            }
            double f = d / x;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                double before = repairedRates[p];
                repairedRates[p] *= f;
                shed(pls, pl, p, before - repairedRates[p]);
            }
            x = d;
        }
        sessionRates[i] = x;
        if (x < g) {
            worstShortfall = Math.max(worstShortfall, (g - x) / g);
        }
        double best = cheapest > 0 ? w / cheapest : Double.POSITIVE_INFINITY;
        best = Math.min(d, Math.max(g, best));
        return w * Math.log(best / x) - cheapest * best;
    }

    private void shed(int[] pls, int[] pl, int p, double amount) {
        if (sharedLoads) {
            loads = loads.clone();
            sharedLoads = false;
        }
        for (int k = pls[p]; k < pls[p + 1]; k++) {
            loads[pl[k]] -= amount;
        }
    }
}
