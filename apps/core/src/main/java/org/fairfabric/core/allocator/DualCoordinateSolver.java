package org.fairfabric.core.allocator;

/**
 * Exact dual coordinate descent for relaxations in which every session has a single path
 * (one variable over a set of links):
 *
 * <pre>
 *   minimise over μ ≥ 0   D(μ) = Σ_e μ_e C_e + Σ_i max_{g_i ≤ x ≤ d_i} (w_i log x − l_i x),   l_i = Σ_{e ∈ i} μ_e
 * </pre>
 *
 * One sweep minimises D exactly in each link price in turn: with the other prices fixed, the
 * derivative in μ_e is C_e − Σ_{i ∋ e} x_i(l_i), non-decreasing in μ_e, so μ_e is the root of
 * the link's load equation (or 0 when the link is not full at price 0). Each such root costs a
 * few safeguarded Newton steps over the link's sessions, so a sweep is linear in the size of the
 * relaxation. After each sweep the primal x_i = clamp(w_i / l_i, g_i, d_i) is repaired (every
 * session scaled down by its most overloaded link) and the certified relative gap of the
 * relaxation is computed; the solver stops at the target.
 *
 * <p>Started from the previous prices (a warm start), a small change only moves prices near it,
 * so few sweeps are needed. Guarantees that cannot be met make D unbounded below; the solver
 * then reports failure and the caller falls back to the interior-point method, which certifies
 * infeasibility.
 */
final class DualCoordinateSolver {
    private final int m;
    private final int n;
    private final double[] cap;
    private final double[] w;
    private final double[] g;
    private final double[] d;
    /** Links of session i: sl[sls[i] .. sls[i+1]). */
    private final int[] sls;
    private final int[] sl;
    /** Sessions of link e: ls[lss[e] .. lss[e+1]). */
    private final int[] lss;
    private final int[] ls;
    private final double sumW;

    final double[] mu;
    /** Price of each session's path, Σ of its links' prices. */
    private final double[] price;
    /** Primal before the repair: the best rate at each session's price, or the kept rate. */
    final double[] x;
    /** The best rate at each session's price (what the dual function is evaluated with). */
    private final double[] bestRate;
    /** Whether session i's rate is its kept rate; per link, the load of the sessions whose rate moved. */
    private final boolean[] kept;
    private final double[] moved;
    /** Per link, the repair factor of sessions whose rate moved, and of those whose rate was kept. */
    private final double[] movedScale;
    private final double[] keptScale;
    private final double[] load;
    final double[] xRepaired;

    /**
     * Warm starts: per session, a rate to keep while its price is exactly {@code keepPrice[i]}
     * (the previous solve's repaired rate at the previous price), or NaN; null when cold.
     */
    private double[] keep;
    private double[] keepPrice;

    private final SolveCheckpoint checkpoint;
    private int sweeps;
    private double gap = Double.POSITIVE_INFINITY;
    private double infeasibility;
    private boolean unbounded;

    DualCoordinateSolver(double[] cap, double[] w, double[] g, double[] d, int[] sls, int[] sl) {
        this(cap, w, g, d, sls, sl, SolveCheckpoint.NONE);
    }

    DualCoordinateSolver(double[] cap, double[] w, double[] g, double[] d, int[] sls, int[] sl, SolveCheckpoint checkpoint) {
        this.checkpoint = checkpoint;
        this.cap = cap;
        this.w = w;
        this.g = g;
        this.d = d;
        this.sls = sls;
        this.sl = sl;
        m = cap.length;
        n = w.length;
        lss = new int[m + 1];
        for (int k = 0; k < sl.length; k++) {
            lss[sl[k] + 1]++;
        }
        for (int e = 0; e < m; e++) {
            lss[e + 1] += lss[e];
        }
        ls = new int[sl.length];
        int[] fill = new int[m];
        for (int i = 0; i < n; i++) {
            for (int k = sls[i]; k < sls[i + 1]; k++) {
                int e = sl[k];
                ls[lss[e] + fill[e]++] = i;
            }
        }
        sumW = Duality.sum(w);
        mu = new double[m];
        price = new double[n];
        x = new double[n];
        bestRate = new double[n];
        kept = new boolean[n];
        moved = new double[m];
        movedScale = new double[m];
        keptScale = new double[m];
        load = new double[m];
        xRepaired = new double[n];
    }

    /** Starts from the given prices (copied; null for all zero). */
    void start(double[] initialPrices) {
        if (initialPrices != null) {
            System.arraycopy(initialPrices, 0, mu, 0, m);
        }
        for (int i = 0; i < n; i++) {
            double l = 0;
            for (int k = sls[i]; k < sls[i + 1]; k++) {
                l += mu[sl[k]];
            }
            price[i] = l;
        }
    }

    /**
     * Keeps rate {@code rates[i]} (NaN: none) as session i's primal for as long as its price is
     * what the current prices give it, instead of the best rate at that price. A warm start
     * passes the previous repaired rates: they fitted before, so sessions away from a change keep
     * bit-identical rates (their paths need no new split) and the sessions whose price moved take
     * up any overload. The gap is certified as before (any capacity-feasible primal will do).
     * Call after {@link #start}.
     */
    void keepRates(double[] rates) {
        keep = rates;
        keepPrice = price.clone();
    }

    /**
     * Sweeps until the certified relative gap of the relaxation is at most {@code target} and
     * guarantees are met within it, or {@code maxSweeps} have run. Returns whether it got there.
     */
    boolean solve(double target, int maxSweeps) {
        certify();
        return sweepUntil(target, maxSweeps);
    }

    /** {@link #solve} once the current prices are certified. */
    private boolean sweepUntil(double target, int maxSweeps) {
        double reference = gap;
        int first = sweeps;
        int referenceSweep = sweeps;
        while (!(gap <= target && infeasibility <= target)) {
            if (sweeps >= maxSweeps || unbounded) {
                return false;
            }
            // Linear convergence that has stalled (rounding, or guarantees pushing prices up
            // without bound) will not get there: let the caller use another method.
            if (sweeps - referenceSweep > STALL_SWEEPS) {
                return false;
            }
            checkpoint.reached();
            sweep();
            // Certifying costs about a third of a sweep: skip every other one once under way.
            if (sweeps - first <= 2 || (sweeps - first) % 2 == 0) {
                certify();
                if (gap <= 0.5 * reference) {
                    reference = gap;
                    referenceSweep = sweeps;
                }
            }
        }
        return true;
    }

    /** Sweeps without halving the gap after which descent is abandoned. */
    private static final int STALL_SWEEPS = 40;

    /**
     * A warm solve: re-solves only the links in {@code seeds} and, transitively, the links of
     * sessions whose price moved by more than a threshold, then certifies. When that does not
     * meet the target, it goes again from every link it touched with a threshold ten times
     * smaller, and after {@link #LOCAL_PASSES} passes sweeps as in {@link #solve}. A small
     * change moves few prices, so this touches few links: sessions elsewhere keep their prices
     * exactly, and with {@link #keepRates} their rates.
     */
    boolean solveFrom(boolean[] seeds, double target, int maxSweeps) {
        boolean[] from = seeds.clone();
        double threshold = LOCAL_THRESHOLD_PER_TARGET * target;
        for (int pass = 0; pass < LOCAL_PASSES; pass++) {
            checkpoint.reached();
            localPass(from, threshold);
            sweeps++;
            certify();
            if (gap <= target && infeasibility <= target) {
                return true;
            }
            threshold /= 10;
        }
        return sweepUntil(target, maxSweeps);
    }

    /**
     * Re-solves the links in {@code from}, and the neighbours of any whose price moved by more
     * than {@code threshold} relative; marks every link it re-solved in {@code from}.
     */
    private void localPass(boolean[] from, double threshold) {
        int[] queue = new int[m];
        boolean[] queued = new boolean[m];
        int head = 0;
        int size = 0;
        double scale = 0;
        for (int e = 0; e < m; e++) {
            scale += mu[e];
            if (from[e]) {
                queue[size++] = e;
                queued[e] = true;
            }
        }
        scale = m > 0 ? scale / m : 0;
        // Bounded like a few sweeps (a pass revisits a link only after its neighbours moved it).
        long budget = (long) LOCAL_PASS_SWEEPS * m;
        for (long pops = 0; size > 0 && pops < budget; pops++) {
            int e = queue[head];
            head = head + 1 == m ? 0 : head + 1;
            size--;
            queued[e] = false;
            from[e] = true;
            double old = mu[e];
            double next = linkPrice(e, old);
            double delta = next - old;
            if (delta == 0) {
                continue;
            }
            mu[e] = next;
            for (int k = lss[e]; k < lss[e + 1]; k++) {
                price[ls[k]] += delta;
            }
            if (Math.abs(delta) <= threshold * (old + scale)) {
                continue;
            }
            for (int k = lss[e]; k < lss[e + 1]; k++) {
                int i = ls[k];
                for (int q = sls[i]; q < sls[i + 1]; q++) {
                    int f = sl[q];
                    if (!queued[f] && f != e) {
                        queued[f] = true;
                        int tail = head + size;
                        queue[tail >= m ? tail - m : tail] = f;
                        size++;
                    }
                }
            }
        }
    }

    /** Local passes of a warm solve before it falls back to sweeps. */
    private static final int LOCAL_PASSES = 2;
    /** Link re-solves a local pass may spend, in sweeps' worth. */
    private static final int LOCAL_PASS_SWEEPS = 20;

    /** Relative price change (per unit of target gap) below which a warm solve does not revisit the neighbours. */
    private static final double LOCAL_THRESHOLD_PER_TARGET = 50;

    int sweeps() {
        return sweeps;
    }

    double gap() {
        return gap;
    }

    void sweep() {
        sweeps++;
        for (int e = 0; e < m; e++) {
            double old = mu[e];
            double next = linkPrice(e, old);
            if (next != old) {
                double delta = next - old;
                mu[e] = next;
                for (int k = lss[e]; k < lss[e + 1]; k++) {
                    price[ls[k]] += delta;
                }
            }
        }
        // Recompute the sums now and then so that incremental updates cannot drift.
        if (sweeps % 32 == 0) {
            start(null);
        }
    }

    private static double rate(double wi, double gi, double di, double l) {
        double v = l > 0 ? wi / l : Double.POSITIVE_INFINITY;
        return v < gi ? gi : (v > di ? di : v);
    }

    /** The price of link e that zeroes its load excess with the other prices fixed. */
    private double linkPrice(int e, double current) {
        double c = cap[e];
        int first = lss[e];
        int end = lss[e + 1];
        double excessAtZero = -c;
        double sumG = 0;
        double sumWe = 0;
        for (int k = first; k < end; k++) {
            int i = ls[k];
            double other = Math.max(price[i] - current, 0);
            excessAtZero += rate(w[i], g[i], d[i], other);
            sumG += g[i];
            sumWe += w[i];
        }
        if (!(excessAtZero > 0)) {
            return 0;
        }
        if (sumG >= c) {
            unbounded = true;
            return current;
        }
        double lo = 0;
        double hi = sumWe / (c - sumG);
        double t = current > lo && current < hi ? current : hi;
        for (int iter = 0; iter < 100; iter++) {
            double f = -c;
            double df = 0;
            for (int k = first; k < end; k++) {
                int i = ls[k];
                double l = Math.max(price[i] - current, 0) + t;
                double v = w[i] / l;
                if (v <= g[i]) {
                    f += g[i];
                } else if (v >= d[i]) {
                    f += d[i];
                } else {
                    f += v;
                    df -= v / l;
                }
            }
            if (f > 0) {
                lo = t;
            } else {
                hi = t;
            }
            if (Math.abs(f) <= 1e-14 * c || hi - lo <= 1e-15 * hi) {
                break;
            }
            double newton = df < 0 ? t - f / df : Double.NaN;
            t = newton > lo && newton < hi ? newton : 0.5 * (lo + hi);
        }
        return t;
    }

    /** Primal from the prices, repaired to feasibility, and the certified gap. */
    void certify() {
        java.util.Arrays.fill(load, 0);
        java.util.Arrays.fill(moved, 0);
        for (int i = 0; i < n; i++) {
            // Summed afresh (not the incrementally updated sum), so that the same prices always
            // give bit-identical rates: a warm solve then recognises the sessions it left alone.
            double l = 0;
            for (int k = sls[i]; k < sls[i + 1]; k++) {
                l += mu[sl[k]];
            }
            price[i] = l;
            double best = rate(w[i], g[i], d[i], l);
            bestRate[i] = best;
            kept[i] = keep != null && l == keepPrice[i] && !Double.isNaN(keep[i]);
            double v = kept[i] ? keep[i] : best;
            x[i] = v;
            for (int k = sls[i]; k < sls[i + 1]; k++) {
                load[sl[k]] += v;
                if (!kept[i]) {
                    moved[sl[k]] += v;
                }
            }
        }
        // The repair: kept rates fitted before, so the sessions whose rate moved take up an
        // overload when they can (then kept sessions keep bit-identical rates); otherwise every
        // session through the link is scaled by capacity / load.
        for (int e = 0; e < m; e++) {
            double excess = load[e] - cap[e];
            // Within rounding of the capacity is not an overload (the sums' order may differ
            // from the previous solve's), as in the whole problem's certificate.
            if (!(excess > cap[e] * Certificate.ROUNDING)) {
                movedScale[e] = 1;
                keptScale[e] = 1;
            } else if (moved[e] >= excess && moved[e] < load[e]) {
                movedScale[e] = 1 - excess / moved[e];
                keptScale[e] = 1;
            } else {
                movedScale[e] = cap[e] / load[e];
                keptScale[e] = movedScale[e];
            }
        }
        double dual = 0;
        for (int e = 0; e < m; e++) {
            dual += mu[e] * cap[e];
        }
        double infeasible = 0;
        for (int i = 0; i < n; i++) {
            double[] scale = kept[i] ? keptScale : movedScale;
            double f = 1;
            for (int k = sls[i]; k < sls[i + 1]; k++) {
                double t = scale[sl[k]];
                f = t < f ? t : f;
            }
            double xr = x[i] * f;
            xRepaired[i] = xr;
            // w log b − l b (the dual's term, b the best rate at price l) less w log x_r (the
            // primal's), with one log.
            double best = bestRate[i];
            if (Double.isInfinite(best)) {
                dual = Double.POSITIVE_INFINITY;
            } else {
                dual += w[i] * Math.log(best / xr) - price[i] * best;
            }
            if (xr < g[i]) {
                infeasible = Math.max(infeasible, (g[i] - xr) / g[i]);
            }
        }
        gap = n == 0 ? 0 : dual / sumW;
        if (Double.isNaN(gap)) {
            gap = Double.POSITIVE_INFINITY;
        }
        infeasibility = infeasible;
    }
}
