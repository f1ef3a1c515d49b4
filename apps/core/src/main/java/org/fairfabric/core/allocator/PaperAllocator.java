package org.fairfabric.core.allocator;

import java.util.Arrays;

/**
 * Promenade's Algorithm 1 exactly as printed (an O(log ρ)-approximation; it neither reaches the
 * optimum nor honours weights beyond the increment size). The paper's silences are resolved as
 * in the digest §2.2:
 * <ul>
 * <li>A1: every session's cheapest path p* is recomputed after every price update;</li>
 * <li>A2: ties go to the lowest path index;</li>
 * <li>A3: r⁰ = min C / (2n) is put on p* at t = 0 only (all paths optionally, which can start
 *     infeasible);</li>
 * <li>A4: m counts the problem's links, which are directed (overridable);</li>
 * <li>A5/A6: Λ_e is computed from the allocated rates, so ΔΛ ≥ 0 and μ never decreases;</li>
 * <li>A9: n counts sessions.</li>
 * </ul>
 * Demand caps and minimum rates are not part of Algorithm 1 and are ignored in this mode.
 */
public final class PaperAllocator {
    /** Guard against non-termination on degenerate input (the printed loop has no bound). */
    public static final int MAX_ITERATIONS = 10_000_000;

    private final boolean initialRateOnAllPaths;
    private final int linkCountOverride;

    /** The digest's recommended reading: r⁰ on one path, m = number of (directed) links. */
    public PaperAllocator() {
        this(false, 0);
    }

    /**
     * @param initialRateOnAllPaths put r⁰ on every path of a session instead of on p* only
     * @param linkCountOverride the m used in ρ (e.g. undirected links); 0 means the problem's count
     */
    public PaperAllocator(boolean initialRateOnAllPaths, int linkCountOverride) {
        this.initialRateOnAllPaths = initialRateOnAllPaths;
        this.linkCountOverride = linkCountOverride;
    }

    /** Observes each iteration (tests check the invariants on it). */
    public interface Observer {
        void afterIteration(int t, double[] pathRates, double[] linkPrices, double[] normalisedLoads);
    }

    public Allocation solve(AllocationProblem problem) {
        return solve(problem, null);
    }

    public Allocation solve(AllocationProblem problem, Observer observer) {
        int n = problem.sessionCount();
        int links = problem.linkCount();
        int paths = problem.pathCount();
        double[] r = new double[paths];
        double[] mu = new double[links];
        if (n == 0) {
            return new Allocation(problem, Allocation.Mode.PAPER, true, 0, Double.NaN, Double.NaN, r, mu);
        }
        double cmin = Double.POSITIVE_INFINITY;
        double cmax = 0;
        for (int e = 0; e < links; e++) {
            cmin = Math.min(cmin, problem.capacity(e));
            cmax = Math.max(cmax, problem.capacity(e));
        }
        int m = linkCountOverride > 0 ? linkCountOverride : links;
        double rho = Math.max(Math.max(n, m), cmax / cmin);
        double delta = 12 * Math.log(rho) + 2;
        Arrays.fill(mu, delta / (2 * rho * rho * rho));
        int[] pstar = new int[n];
        for (int i = 0; i < n; i++) {
            pstar[i] = cheapestPath(problem, mu, i);
            if (initialRateOnAllPaths) {
                for (int p = problem.firstPath(i); p < problem.endPath(i); p++) {
                    r[p] = cmin / (2.0 * n);
                }
            } else {
                r[pstar[i]] = cmin / (2.0 * n);
            }
        }
        double[] lambdaPrev = normalisedLoads(problem, r);
        double[] lambda = new double[links];
        boolean[] active = new boolean[n];
        int t = 0;
        while (anyActive(problem, mu, pstar, active)) {
            if (t == MAX_ITERATIONS) {
                return new Allocation(problem, Allocation.Mode.PAPER, false, t, Double.NaN, Double.NaN, r, mu);
            }
            t++;
            for (int i = 0; i < n; i++) {
                if (active[i]) {
                    r[pstar[i]] += problem.weight(i) * cmin / (n * delta);
                }
            }
            lambda = normalisedLoads(problem, r);
            for (int e = 0; e < links; e++) {
                mu[e] = mu[e] * (1 + delta * (lambda[e] - lambdaPrev[e]));
            }
            lambdaPrev = lambda;
            for (int i = 0; i < n; i++) {
                pstar[i] = cheapestPath(problem, mu, i);
            }
            if (observer != null) {
                observer.afterIteration(t, r.clone(), mu.clone(), lambda.clone());
            }
        }
        return new Allocation(problem, Allocation.Mode.PAPER, true, t, Double.NaN, Double.NaN, r, mu);
    }

    /** Sets active[i] = l_i(p*) < 1 and returns whether any session is active. */
    private static boolean anyActive(AllocationProblem problem, double[] mu, int[] pstar, boolean[] active) {
        boolean any = false;
        for (int i = 0; i < active.length; i++) {
            active[i] = pathPrice(problem, mu, pstar[i]) < 1;
            any |= active[i];
        }
        return any;
    }

    private static int cheapestPath(AllocationProblem problem, double[] mu, int i) {
        int best = problem.firstPath(i);
        double bestPrice = pathPrice(problem, mu, best);
        for (int p = best + 1; p < problem.endPath(i); p++) {
            double price = pathPrice(problem, mu, p);
            if (price < bestPrice) {
                best = p;
                bestPrice = price;
            }
        }
        return best;
    }

    private static double pathPrice(AllocationProblem problem, double[] mu, int p) {
        double l = 0;
        for (int k = 0; k < problem.pathLength(p); k++) {
            l += mu[problem.pathLink(p, k)];
        }
        return l;
    }

    private static double[] normalisedLoads(AllocationProblem problem, double[] r) {
        double[] load = new double[problem.linkCount()];
        Duality.linkLoads(problem.pathLinkStartArray(), problem.pathLinksArray(), r, load);
        for (int e = 0; e < load.length; e++) {
            load[e] /= problem.capacity(e);
        }
        return load;
    }
}
