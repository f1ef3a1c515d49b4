package org.fairfabric.core.allocator;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Exact solve by lazy link constraints (constraint generation) with path-class merging.
 *
 * <ol>
 *   <li>Start with an active set of links: every link that all paths of some session cross (in a
 *   fat-tree, the host links), plus, for any path that would otherwise cross none, its smallest
 *   link; on a warm start, also the previous solve's active links.</li>
 *   <li>Solve the relaxation that keeps only the active links' constraints, with each session's
 *   paths merged into classes by the active links they cross ({@link PathClasses}): by exact
 *   dual coordinate descent when every session is a single class, else by the interior-point
 *   method.</li>
 *   <li>Split each class's rate over its member paths ({@link PathSplitBalancer}) and certify on
 *   the whole problem: the relaxation's prices, zero on the inactive links, are dual feasible for
 *   the whole problem and give the same cheapest-path prices, so when no inactive link is
 *   overloaded the relaxation's gap is the whole problem's. The certificate is computed on the
 *   whole problem ({@link Certificate}) whatever happened before.</li>
 *   <li>Otherwise the overloaded inactive links become active and the relaxation is solved again,
 *   warm.</li>
 * </ol>
 * With every link active this is the interior-point method on the whole problem.
 */
final class LazyLinkSolver {
    /** Rounds of constraint generation before giving up (the caller then solves the whole problem). */
    static final int MAX_ROUNDS = 12;
    /** Dual coordinate descent sweeps before falling back to the interior-point method. */
    static final int MAX_SWEEPS = 1000;
    /** Balancing sweeps per round. */
    static final int BALANCE_SWEEPS = 40;

    /** What a solve leaves for the next one (problem units). */
    static final class Result {
        final AllocationProblem problem;
        final double[] pathRates;
        final double[] prices;
        final boolean[] active;
        /** The interior-point iterate of the last relaxation, when that method solved it. */
        final WarmStart relaxationStart;

        Result(AllocationProblem problem, double[] pathRates, double[] prices, boolean[] active,
               WarmStart relaxationStart) {
            this.problem = problem;
            this.pathRates = pathRates;
            this.prices = prices;
            this.active = active;
            this.relaxationStart = relaxationStart;
        }
    }

    private final AllocationProblem pb;
    private final double tolerance;
    private final int maxIterations;
    private int iterations;
    private int rounds;

    LazyLinkSolver(AllocationProblem pb, double tolerance, int maxIterations) {
        this.pb = pb;
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
    }

    int rounds() {
        return rounds;
    }

    /**
     * Solves from {@code warm} when it holds a lazy-link result. Returns an allocation that is
     * converged when the whole problem's certified gap met the tolerance.
     *
     * @throws InfeasibleProblemException when a relaxation's minimum rates cannot be met (then
     *     neither can the whole problem's; the certificate prices are valid for both)
     */
    Allocation solve(WarmStart warm) throws InfeasibleProblemException {
        int m = pb.linkCount();
        int paths = pb.pathCount();
        boolean[] active = initialActiveLinks();
        double[] previousRates = null;
        double[] prices = null;
        WarmStart relaxationStart = null;
        Result previous = warm == null ? null : warm.lazy;
        if (previous != null) {
            int[] linkFrom = match(previous.problem, pb, true);
            int[] sessionFrom = match(previous.problem, pb, false);
            prices = new double[m];
            for (int e = 0; e < m; e++) {
                if (linkFrom[e] >= 0) {
                    active[e] |= previous.active[linkFrom[e]];
                    prices[e] = previous.prices[linkFrom[e]];
                }
            }
            previousRates = new double[paths];
            for (int i = 0; i < pb.sessionCount(); i++) {
                int j = sessionFrom[i];
                int count = pb.endPath(i) - pb.firstPath(i);
                if (j >= 0 && previous.problem.endPath(j) - previous.problem.firstPath(j) == count) {
                    System.arraycopy(previous.pathRates, previous.problem.firstPath(j), previousRates,
                            pb.firstPath(i), count);
                }
            }
            relaxationStart = previous.relaxationStart;
        }
        Allocation last = null;
        for (rounds = 1; rounds <= MAX_ROUNDS; rounds++) {
            long tA = System.nanoTime();
            PathClasses classes = new PathClasses(pb, active);
            long tB = System.nanoTime();
            int[] activeLinks = classes.activeLinks;
            double[] classRate = null;
            double[] reducedPrices = null;
            if (classes.singleClass) {
                double[] cap = new double[activeLinks.length];
                double[] start = new double[activeLinks.length];
                for (int r = 0; r < activeLinks.length; r++) {
                    cap[r] = pb.capacity(activeLinks[r]);
                    start[r] = prices == null ? 0 : prices[activeLinks[r]];
                }
                DualCoordinateSolver dual = new DualCoordinateSolver(cap, pb.weightArray(), pb.minRateArray(),
                        pb.demandArray(), classes.classLinkStart, classes.classLinks);
                dual.start(start);
                boolean ok = dual.solve(RELAXATION_SHARE * tolerance, MAX_SWEEPS);
                iterations += dual.sweeps();
                if (ok) {
                    classRate = dual.xRepaired;
                    reducedPrices = dual.mu;
                }
            }
            if (classRate == null) {
                Allocation relaxed = ExactAllocator.solveInteriorPoint(classes.relaxation(),
                        RELAXATION_SHARE * tolerance, maxIterations, relaxationStart);
                iterations += relaxed.iterations();
                classRate = relaxed.pathRates();
                reducedPrices = relaxed.linkPrices();
                relaxationStart = relaxed.warmStart();
            }
            long tC = System.nanoTime();
            double[] mu = new double[m];
            for (int r = 0; r < activeLinks.length; r++) {
                mu[activeLinks[r]] = reducedPrices[r];
            }
            double[] rates = new double[paths];
            PathSplitBalancer balancer = new PathSplitBalancer(classes);
            balancer.initialSplit(classRate, previousRates, rates);
            long tD = System.nanoTime();
            int bs = 0;
            Certificate certificate = null;
            if (previousRates != null) {
                // The previous split usually still fits after a small change: check before balancing.
                certificate = new Certificate(pb, rates, balancer.load, mu);
            }
            if (certificate == null || !(certificate.gap <= tolerance && certificate.infeasibility <= tolerance)) {
                bs = balancer.balance(rates, BALANCE_SWEEPS, OVERLOAD_SHARE * tolerance);
                certificate = new Certificate(pb, rates, balancer.load, mu);
            }
            long tF = System.nanoTime();
            if (DEBUG) System.err.printf("classes %.1f relax %.1f split %.1f balance+cert %.1f (%d sweeps, max util %.6f) ms%n", (tB-tA)/1e6, (tC-tB)/1e6, (tD-tC)/1e6, (tF-tD)/1e6, bs, balancer.maxInactiveUtilisation());
            boolean converged = certificate.gap <= tolerance && certificate.infeasibility <= tolerance;
            last = new Allocation(pb, Allocation.Mode.EXACT, converged, iterations, tolerance, certificate.gap,
                    certificate.repairedRates, mu);
            last.withWarmStart(new WarmStart(new Result(pb, certificate.repairedRates, mu, active.clone(),
                    relaxationStart)));
            if (converged) {
                return last;
            }
            int added = 0;
            for (int e = 0; e < m; e++) {
                if (!active[e] && balancer.load[e] > pb.capacity(e)) {
                    active[e] = true;
                    added++;
                }
            }
            if (added == 0) {
                return last;
            }
            prices = mu;
            previousRates = certificate.repairedRates;
        }
        return last;
    }

    /** Share of the tolerance the relaxation is solved to, leaving room for the split. */
    private static final double RELAXATION_SHARE = 0.5;
    /**
     * Overload of an inactive link the split may leave: the repair then scales the paths through
     * it down by at most this fraction, which adds at most this much to the relative gap.
     */
    private static final double OVERLOAD_SHARE = 0.25;
    static boolean DEBUG = Boolean.getBoolean("ff.debug");

    /**
     * Links that every path of some session crosses, plus the smallest link of any path that
     * crosses none of those. Any set is sound; this one holds the host links of a fat-tree.
     */
    private boolean[] initialActiveLinks() {
        int m = pb.linkCount();
        int[] sps = pb.sessionPathStartArray();
        int[] pls = pb.pathLinkStartArray();
        int[] pl = pb.pathLinksArray();
        boolean[] active = new boolean[m];
        int[] sessionSeen = new int[m];
        int[] pathSeen = new int[m];
        int[] count = new int[m];
        Arrays.fill(sessionSeen, -1);
        Arrays.fill(pathSeen, -1);
        for (int i = 0; i < pb.sessionCount(); i++) {
            int first = sps[i];
            int end = sps[i + 1];
            for (int p = first; p < end; p++) {
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    int e = pl[k];
                    if (pathSeen[e] != p) {
                        pathSeen[e] = p;
                        if (sessionSeen[e] != i) {
                            sessionSeen[e] = i;
                            count[e] = 0;
                        }
                        count[e]++;
                    }
                }
            }
            for (int k = pls[first]; k < pls[first + 1]; k++) {
                if (count[pl[k]] == end - first) {
                    active[pl[k]] = true;
                }
            }
        }
        for (int p = 0; p < pb.pathCount(); p++) {
            int smallest = -1;
            boolean covered = false;
            for (int k = pls[p]; k < pls[p + 1] && !covered; k++) {
                int e = pl[k];
                covered = active[e];
                if (smallest < 0 || pb.capacity(e) < pb.capacity(smallest)) {
                    smallest = e;
                }
            }
            if (!covered) {
                active[smallest] = true;
            }
        }
        return active;
    }

    /**
     * For each link (or session) of {@code to}, its index in {@code from} by id, or -1. Walks
     * both lists in order (a departure or an arrival keeps the rest aligned) and falls back to a
     * hash map only where they diverge.
     */
    static int[] match(AllocationProblem from, AllocationProblem to, boolean links) {
        int size = links ? to.linkCount() : to.sessionCount();
        int fromSize = links ? from.linkCount() : from.sessionCount();
        int[] result = new int[size];
        Map<String, Integer> index = null;
        int j = 0;
        for (int i = 0; i < size; i++) {
            String id = links ? to.linkId(i) : to.sessionId(i);
            if (j < fromSize && id.equals(links ? from.linkId(j) : from.sessionId(j))) {
                result[i] = j++;
            } else if (j + 1 < fromSize && id.equals(links ? from.linkId(j + 1) : from.sessionId(j + 1))) {
                result[i] = j + 1;
                j += 2;
            } else {
                if (index == null) {
                    index = new HashMap<>();
                    for (int k = 0; k < fromSize; k++) {
                        index.put(links ? from.linkId(k) : from.sessionId(k), k);
                    }
                }
                Integer k = index.get(id);
                result[i] = k == null ? -1 : k;
                if (k != null) {
                    j = k + 1;
                }
            }
        }
        return result;
    }
}
