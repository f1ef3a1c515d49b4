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
        /** The last relaxation's path classes (reused for sessions whose paths did not change). */
        final PathClasses classes;
        /** The last relaxation's class rates, from which pathRates were split. */
        final double[] classRate;
        /** Link loads of pathRates. */
        final double[] loads;
        /** Warm solves since the loads were last summed from scratch (they are updated incrementally). */
        final int generation;
        /** How much the split and repair added to the relaxation's certified gap. */
        final double splitCost;

        Result(AllocationProblem problem, double[] pathRates, double[] prices, boolean[] active,
               WarmStart relaxationStart, PathClasses classes, double[] classRate, double[] loads, int generation,
               double splitCost) {
            this.splitCost = splitCost;
            this.classes = classes;
            this.classRate = classRate;
            this.loads = loads;
            this.generation = generation;
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
    private final SolveCheckpoint checkpoint;
    private int iterations;
    private int rounds;

    LazyLinkSolver(AllocationProblem pb, double tolerance, int maxIterations) {
        this(pb, tolerance, maxIterations, SolveCheckpoint.NONE);
    }

    LazyLinkSolver(AllocationProblem pb, double tolerance, int maxIterations, SolveCheckpoint checkpoint) {
        this.pb = pb;
        this.checkpoint = checkpoint;
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
        relaxationTarget = RELAXATION_SHARE * tolerance;
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
        Result previous = warm == null ? null : warm.lazy;
        if (previous == null) {
            active = initialActiveLinks(null);
        } else {
            adopt(previous);
        }
        PathClasses reusable = sameAs != null ? previous.classes : null;
        PathClasses classes = null;
        Allocation last = null;
        for (rounds = 1; rounds <= MAX_ROUNDS; rounds++) {
            if (classes == null) {
                classes = reusable != null ? new PathClasses(pb, active, reusable, sameAs) : new PathClasses(pb, active);
                reusable = null;
            }
            solveRelaxation(classes);
            int[] activeLinks = classes.activeLinks;
            double[] mu = new double[pb.linkCount()];
            for (int r = 0; r < activeLinks.length; r++) {
                mu[activeLinks[r]] = reducedPrices[r];
            }
            // A warm split starts from the base rates, in place.
            double[] rates = baseLoads != null && previousClassRate != null ? baseRates : new double[pb.pathCount()];
            PathSplitBalancer balancer = new PathSplitBalancer(classes);
            Certificate certificate = splitAndCertify(balancer, rates, mu);
            boolean converged = meets(certificate);
            last = new Allocation(pb, converged, iterations, tolerance, certificate.gap, certificate.repairedRates, mu,
                    certificate.sessionRates, certificate.loads);
            last.withWarmStart(new WarmStart(new Result(pb, certificate.repairedRates, mu, active.clone(),
                    relaxationStart, classes, classRate, certificate.loads, baseLoads != null ? generation + 1 : 0,
                    certificate.gap - relaxationGap)));
            if (converged) {
                return last;
            }
            // A warm round that missed solves the same relaxation again as a cold round would (kept
            // rates, the incremental split or the wider target may be why), unless its relaxation
            // already had several classes per session and the split could not fit the inactive
            // links: re-solving cannot fit them either, so they become active as in a cold round.
            // (A single-class relaxation keeps its active set: more links would end its dual
            // coordinate descent.)
            boolean sameRelaxation = warmShortcuts && (classes.singleClass || !balancer.overloadsInactive());
            if (warmShortcuts) {
                warmShortcuts = false;
                unchanged = null;
                relaxationTarget = RELAXATION_SHARE * tolerance;
            }
            if (!sameRelaxation) {
                int added = 0;
                for (int e = 0; e < pb.linkCount(); e++) {
                    if (!active[e] && balancer.load[e] > pb.capacity(e)) {
                        active[e] = true;
                        added++;
                    }
                }
                if (added == 0) {
                    return last;
                }
                classes = null;
            }
            prices = mu;
            previousRates = certificate.repairedRates;
            changed = null;
            baseLoads = null;
        }
        return last;
    }

    // State of a solve: the active links, and what the next relaxation starts from.
    private boolean[] active;
    /** Link prices to start the dual method from (whole-problem indices), or null. */
    private double[] prices;
    /** Path rates whose within-class proportions the split starts from, or null. */
    private double[] previousRates;
    private WarmStart relaxationStart;
    /** Warm starts: the previous session with exactly the same paths, or -1; null when none is reusable. */
    private int[] sameAs;
    /** Warm starts: sessions whose paths, weight, demand and minimum rate are all as before. */
    private boolean[] unchanged;
    /**
     * Warm starts on the same links and active set: the first round keeps rates, splits
     * incrementally and may solve the relaxation to a wider target; a miss turns this off.
     */
    private boolean warmShortcuts;
    /** Warm starts: links whose constraint or traffic may have changed (the dual method starts there). */
    private boolean[] changed;
    /**
     * Warm starts on the same links: the loads of {@code baseRates} (the previous rates of
     * sessions whose paths are unchanged, zero elsewhere), the previous class rates, and how many
     * incremental load updates the loads have been through; null when loads are summed afresh.
     */
    private double[] baseLoads;
    private double[] baseRates;
    private double[] previousClassRate;
    private int generation;
    /** The gap the relaxation is solved to, and the gap it was certified at. */
    private double relaxationTarget;
    private double relaxationGap;
    /** The relaxation's solution: a rate per class and a price per active link. */
    private double[] classRate;
    private double[] reducedPrices;

    /** Takes over the previous solve's active links, prices and split, and finds what changed. */
    private void adopt(Result previous) {
        int m = pb.linkCount();
        int n = pb.sessionCount();
        AllocationProblem old = previous.problem;
        int[] linkFrom = match(old, pb, true);
        int[] sessionFrom = match(old, pb, false);
        boolean sameLinks = old.linkCount() == m;
        for (int e = 0; e < m && sameLinks; e++) {
            sameLinks = linkFrom[e] == e;
        }
        changed = new boolean[m];
        // identical[i]: the previous session with exactly session i's paths (same links only), or -1.
        int[] identical = new int[n];
        Arrays.fill(identical, -1);
        if (sameLinks) {
            findIdentical(old, sessionFrom, identical);
        }
        boolean[] kept = new boolean[old.sessionCount()];
        unchanged = new boolean[n];
        for (int i = 0; i < n; i++) {
            int j = sessionFrom[i];
            if (j >= 0) {
                kept[j] = true;
                if (identical[i] >= 0) {
                    if (old.weight(j) == pb.weight(i) && old.demand(j) == pb.demand(i)
                            && old.minRate(j) == pb.minRate(i)) {
                        unchanged[i] = true;
                        continue;
                    }
                } else if (sameLinks) {
                    markLinks(old, j, changed);
                }
            }
            markLinks(pb, i, changed);
        }
        if (sameLinks) {
            for (int j = 0; j < kept.length; j++) {
                if (!kept[j]) {
                    markLinks(old, j, changed);
                }
            }
        } else {
            Arrays.fill(changed, true);
        }
        sameAs = identical;
        // Sessions with unchanged paths were covered by the previous active set.
        active = initialActiveLinks(sameAs);
        prices = new double[m];
        for (int e = 0; e < m; e++) {
            if (linkFrom[e] < 0 || old.capacity(linkFrom[e]) != pb.capacity(e)) {
                changed[e] = true;
            }
            if (linkFrom[e] >= 0) {
                active[e] |= previous.active[linkFrom[e]];
                prices[e] = previous.prices[linkFrom[e]];
            }
        }
        boolean sameActive = sameLinks;
        for (int e = 0; e < m && sameActive; e++) {
            sameActive = active[e] == previous.active[e];
        }
        if (!sameActive) {
            sameAs = null;
            Arrays.fill(changed, true);
        }
        // Rates of sessions with unchanged paths, copied in runs; the loads follow incrementally.
        int paths = pb.pathCount();
        baseRates = new double[paths];
        copyRuns(old, previous.pathRates, identical, baseRates);
        // Split proportions: also the previous rates of sessions whose paths changed but not their count.
        previousRates = baseRates;
        for (int i = 0; i < n; i++) {
            int j = sessionFrom[i];
            int count = pb.endPath(i) - pb.firstPath(i);
            if (j >= 0 && identical[i] < 0 && old.endPath(j) - old.firstPath(j) == count) {
                if (previousRates == baseRates) {
                    previousRates = baseRates.clone();
                }
                System.arraycopy(previous.pathRates, old.firstPath(j), previousRates, pb.firstPath(i), count);
            }
        }
        if (sameLinks && sameAs != null && previous.loads != null && previous.generation < LOAD_REFRESH) {
            baseLoads = previous.loads.clone();
            int[] pls = old.pathLinkStartArray();
            int[] pl = old.pathLinksArray();
            for (int j = 0; j < kept.length; j++) {
                if (!kept[j]) {
                    unload(old, j, previous.pathRates, pls, pl);
                }
            }
            for (int i = 0; i < n; i++) {
                int j = sessionFrom[i];
                if (j >= 0 && identical[i] < 0) {
                    unload(old, j, previous.pathRates, pls, pl);
                }
            }
            previousClassRate = previous.classRate;
            generation = previous.generation;
        } else {
            baseLoads = null;
        }
        relaxationStart = previous.relaxationStart;
        warmShortcuts = baseLoads != null;
        if (warmShortcuts) {
            // The split will leave most rates as they are, and cost the gap about what it did
            // last time: the relaxation gets the rest of the tolerance, less a margin.
            double share = 1 - WARM_SPLIT_MARGIN - previous.splitCost / tolerance;
            relaxationTarget = Math.max(MIN_RELAXATION_SHARE, Math.min(MAX_RELAXATION_SHARE, share)) * tolerance;
        }
    }

    /** Warm solves that update loads incrementally before they are summed afresh (bounds rounding drift). */
    static final int LOAD_REFRESH = 64;

    private void unload(AllocationProblem old, int j, double[] rates, int[] pls, int[] pl) {
        for (int p = old.firstPath(j); p < old.endPath(j); p++) {
            double r = rates[p];
            if (r != 0) {
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    baseLoads[pl[k]] -= r;
                }
            }
        }
    }

    /**
     * Sets identical[i] = sessionFrom[i] for each session whose paths are exactly those of its
     * previous namesake. Runs of sessions consecutive in both problems are compared in bulk.
     */
    private void findIdentical(AllocationProblem old, int[] sessionFrom, int[] identical) {
        int n = sessionFrom.length;
        int i = 0;
        while (i < n) {
            int j = sessionFrom[i];
            if (j < 0) {
                i++;
                continue;
            }
            int len = runLength(sessionFrom, i);
            boolean whole = sameRun(old, j, pb, i, len);
            for (int t = 0; t < len; t++) {
                if (whole || sameRun(old, j + t, pb, i + t, 1)) {
                    identical[i + t] = j + t;
                }
            }
            i += len;
        }
    }

    /** The length of the run from i in which map[i + t] = map[i] + t (consecutive in both numberings). */
    static int runLength(int[] map, int i) {
        int len = 1;
        while (i + len < map.length && map[i + len] == map[i] + len) {
            len++;
        }
        return len;
    }

    /** Whether sessions j..j+len of a have exactly the paths of sessions i..i+len of b. */
    private static boolean sameRun(AllocationProblem a, int j, AllocationProblem b, int i, int len) {
        int[] as = a.sessionPathStartArray();
        int[] bs = b.sessionPathStartArray();
        int ap = as[j];
        int bp = bs[i];
        for (int t = 1; t <= len; t++) {
            if (as[j + t] - ap != bs[i + t] - bp) {
                return false;
            }
        }
        int paths = as[j + len] - ap;
        int[] al = a.pathLinkStartArray();
        int[] bl = b.pathLinkStartArray();
        int ak = al[ap];
        int bk = bl[bp];
        for (int q = 1; q <= paths; q++) {
            if (al[ap + q] - ak != bl[bp + q] - bk) {
                return false;
            }
        }
        return Arrays.equals(a.pathLinksArray(), ak, al[ap + paths], b.pathLinksArray(), bk, bl[bp + paths]);
    }

    /** Copies the path rates of sessions with identical[i] ≥ 0, a run of consecutive sessions at a time. */
    private void copyRuns(AllocationProblem old, double[] from, int[] identical, double[] to) {
        int n = identical.length;
        int i = 0;
        while (i < n) {
            int j = identical[i];
            if (j < 0) {
                i++;
                continue;
            }
            int len = runLength(identical, i);
            int start = old.firstPath(j);
            System.arraycopy(from, start, to, pb.firstPath(i), old.endPath(j + len - 1) - start);
            i += len;
        }
    }

    /**
     * Dual coordinate descent when every session is one class (locally from the changed links on
     * a warm start), else, or when that fails, the interior-point method.
     */
    private void solveRelaxation(PathClasses classes) throws InfeasibleProblemException {
        int[] activeLinks = classes.activeLinks;
        if (classes.singleClass) {
            double[] cap = new double[activeLinks.length];
            double[] start = new double[activeLinks.length];
            for (int r = 0; r < activeLinks.length; r++) {
                cap[r] = pb.capacity(activeLinks[r]);
                start[r] = prices == null ? 0 : prices[activeLinks[r]];
            }
            DualCoordinateSolver dual = new DualCoordinateSolver(cap, pb.weightArray(), pb.minRateArray(),
                    pb.demandArray(), classes.classLinkStart, classes.classLinks, checkpoint);
            dual.start(start);
            if (unchanged != null && previousClassRate != null) {
                // Sessions left as they were keep their rates while their prices stay put (a
                // single-class relaxation numbers its classes like the sessions).
                double[] keep = new double[classes.classCount()];
                Arrays.fill(keep, Double.NaN);
                for (int c = 0; c < keep.length; c++) {
                    int f = classes.classFrom[c];
                    if (f >= 0 && unchanged[c]) {
                        keep[c] = previousClassRate[f];
                    }
                }
                dual.keepRates(keep);
            }
            boolean ok;
            if (changed != null) {
                boolean[] seeds = new boolean[activeLinks.length];
                for (int r = 0; r < activeLinks.length; r++) {
                    seeds[r] = changed[activeLinks[r]];
                }
                ok = dual.solveFrom(seeds, relaxationTarget, MAX_SWEEPS);
            } else {
                ok = dual.solve(relaxationTarget, MAX_SWEEPS);
            }
            iterations += dual.sweeps();
            if (ok) {
                relaxationGap = dual.gap();
                classRate = dual.xRepaired;
                reducedPrices = dual.mu;
                return;
            }
        }
        Allocation relaxed = ExactAllocator.solveInteriorPoint(classes.relaxation(), relaxationTarget, maxIterations,
                relaxationStart, checkpoint);
        iterations += relaxed.iterations();
        relaxationGap = relaxed.relativeGap();
        classRate = relaxed.pathRates();
        reducedPrices = relaxed.linkPrices();
        relaxationStart = relaxed.warmStart();
    }

    /**
     * Splits the class rates over the member paths, balancing until the whole-problem
     * certificate meets the tolerance or no inactive link is overloaded beyond what the
     * tolerance allows, and returns the certificate.
     */
    private Certificate splitAndCertify(PathSplitBalancer balancer, double[] rates, double[] mu) {
        boolean overloadsTooLarge = false;
        if (baseLoads != null && previousClassRate != null) {
            balancer.warmSplit(classRate, previousRates, previousClassRate, baseLoads, rates);
            // Usually only a few classes moved: let them take up the overloads they caused, and
            // keep that when it certifies (the other classes' paths are then left as they were).
            // When that misses, or when most classes grew (the overloads are then spread out),
            // the grown classes through overloaded links first move what they can to their other
            // paths.
            Certificate absorbed = balancer.mostGrew() ? null : absorb(balancer, rates, mu);
            boolean missed = absorbed != null && !meets(absorbed);
            if ((missed || balancer.mostGrew()) && balancer.balanceGrown(rates)) {
                Certificate again = absorb(balancer, rates, mu);
                absorbed = again != null ? again : absorbed;
            }
            if (absorbed != null && meets(absorbed)) {
                return absorbed;
            }
            overloadsTooLarge = absorbed != null;
        } else {
            balancer.initialSplit(classRate, previousRates, rates);
        }
        int sweeps = 0;
        Certificate certificate = null;
        if (previousRates != null && !overloadsTooLarge) {
            // The previous split usually still fits after a small change: check before balancing.
            certificate = Certificate.of(balancer.classes(), rates, balancer.load, mu);
        }
        while (certificate == null || !meets(certificate)) {
            double worst = balancer.maxInactiveUtilisation();
            if (sweeps >= BALANCE_SWEEPS || worst <= 1 + OVERLOAD_SHARE * tolerance) {
                break;
            }
            checkpoint.reached();
            balancer.sweep(rates);
            sweeps++;
            // Overloads on a few links cost the certificate little: check once they are small.
            certificate = balancer.maxInactiveUtilisation() <= 1 + CHECK_OVERLOAD * tolerance
                    ? Certificate.of(balancer.classes(), rates, balancer.load, mu) : null;
        }
        return certificate != null ? certificate : Certificate.of(balancer.classes(), rates, balancer.load, mu);
    }

    /**
     * Lets the grown classes take up the overloads ({@link PathSplitBalancer#absorbOverloads}) and
     * certifies that; undoes it when the certificate misses. Null when there was nothing to absorb
     * or the overloads were too large for the grown classes.
     */
    private Certificate absorb(PathSplitBalancer balancer, double[] rates, double[] mu) {
        if (!balancer.absorbOverloads(rates)) {
            return null;
        }
        Certificate certificate = Certificate.of(balancer.classes(), rates, balancer.load, mu);
        if (!meets(certificate)) {
            balancer.undoAbsorb(rates);
        }
        return certificate;
    }

    /** Share of the tolerance the relaxation is solved to, leaving room for the split. */
    private static final double RELAXATION_SHARE = 0.5;
    /** Warm starts: the smallest and largest share of the tolerance the relaxation is solved to. */
    private static final double MIN_RELAXATION_SHARE = 0.2;
    private static final double MAX_RELAXATION_SHARE = 0.8;
    /** Warm starts: the share of the tolerance kept for a split that costs more than the last one. */
    private static final double WARM_SPLIT_MARGIN = 0.1;
    /**
     * Overload of an inactive link the split may leave: the repair then scales the paths through
     * it down by at most this fraction, which adds at most this much to the relative gap.
     */
    private static final double OVERLOAD_SHARE = 0.25;
    /** Overload (in tolerances) below which the certificate is worth computing during balancing. */
    private static final double CHECK_OVERLOAD = 100;

    private boolean meets(Certificate c) {
        return c.gap <= tolerance && c.infeasibility <= tolerance;
    }

    /**
     * Links that every path of some session crosses, plus the smallest link of any path that
     * crosses none of those. Any set is sound; this one holds the host links of a fat-tree.
     */
    private boolean[] initialActiveLinks(int[] skip) {
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
            if (skip != null && skip[i] >= 0) {
                continue;
            }
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
        for (int i = 0; i < pb.sessionCount(); i++) {
            if (skip != null && skip[i] >= 0) {
                continue;
            }
            for (int p = sps[i]; p < sps[i + 1]; p++) {
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
        }
        return active;
    }

    private static void markLinks(AllocationProblem a, int i, boolean[] marks) {
        int[] starts = a.pathLinkStartArray();
        int[] links = a.pathLinksArray();
        for (int k = starts[a.firstPath(i)]; k < starts[a.endPath(i)]; k++) {
            marks[links[k]] = true;
        }
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
