package org.fairfabric.core.allocator;

/**
 * Exact weighted proportional-fair allocation: maximises Σ_i w_i log(Σ_p r_i(p)) subject to
 * link capacities, demand caps and minimum rates, and stops when the certified relative duality
 * gap (D(μ) − P(r)) / Σ_i w_i of the reported (capacity-feasible) allocation and prices is at
 * most the tolerance. See docs/allocator.md for the method.
 */
public final class ExactAllocator {
    public static final double DEFAULT_TOLERANCE = 1e-4;
    public static final int DEFAULT_MAX_ITERATIONS = 200;

    private final double tolerance;
    private final int maxIterations;
    private final SolveCheckpoint checkpoint;

    public ExactAllocator() {
        this(DEFAULT_TOLERANCE, DEFAULT_MAX_ITERATIONS);
    }

    public ExactAllocator(double tolerance, int maxIterations) {
        this(tolerance, maxIterations, SolveCheckpoint.NONE);
    }

    /** @param checkpoint reached between the methods' steps (it may block the solve for a while) */
    public ExactAllocator(double tolerance, int maxIterations, SolveCheckpoint checkpoint) {
        if (!(tolerance > 0) || tolerance >= 1) {
            throw new IllegalArgumentException("tolerance must be in (0, 1), got " + tolerance);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be positive, got " + maxIterations);
        }
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
        this.checkpoint = checkpoint;
    }

    /** Cold solve. */
    public Allocation solve(AllocationProblem problem) throws InfeasibleProblemException {
        return solve(problem, null);
    }

    /**
     * Solve, starting from {@code warm} (the previous allocation's {@link Allocation#warmStart()})
     * when it is not null.
     *
     * <p>The lazy-link method ({@link LazyLinkSolver}) runs first. When it fails to certify the
     * tolerance (and has not merely hit the rounding floor below {@link #ROUNDING_FLOOR}), the
     * interior-point method solves the whole problem and the better certified result is returned.
     *
     * @throws InfeasibleProblemException when the minimum rates cannot all be met
     */
    public Allocation solve(AllocationProblem problem, WarmStart warm) throws InfeasibleProblemException {
        Allocation lazy = new LazyLinkSolver(problem, tolerance, maxIterations, checkpoint).solve(warm);
        if (accepted(lazy, tolerance)) {
            return lazy;
        }
        WarmStart iterate = warm != null && warm.hasInteriorPointState() ? warm : null;
        Allocation whole = solveInteriorPoint(problem, tolerance, maxIterations, iterate, checkpoint);
        return whole.relativeGap() <= lazy.relativeGap() ? whole.plusIterations(lazy.iterations())
                : lazy.plusIterations(whole.iterations());
    }

    private static boolean accepted(Allocation a, double tolerance) {
        return a.converged() || a.relativeGap() <= Math.max(tolerance, ROUNDING_FLOOR);
    }

    /**
     * The interior-point method on the whole of {@code problem}: the fast configuration first,
     * the classic one when that fails to certify the tolerance (the better result is returned).
     */
    static Allocation solveInteriorPoint(AllocationProblem problem, double tolerance, int maxIterations,
                                         WarmStart warm, SolveCheckpoint checkpoint) throws InfeasibleProblemException {
        Allocation fast = solveWith(problem, tolerance, maxIterations, warm, true, checkpoint);
        if (accepted(fast, tolerance)) {
            return fast;
        }
        Allocation classic = solveWith(problem, tolerance, maxIterations, warm, false, checkpoint).plusIterations(fast.iterations());
        return classic.relativeGap() <= fast.relativeGap() ? classic : fast.plusIterations(classic.iterations());
    }

    private static Allocation solveWith(AllocationProblem problem, double tolerance, int maxIterations,
                                        WarmStart warm, boolean fast, SolveCheckpoint checkpoint) throws InfeasibleProblemException {
        if (warm != null && warm.hasInteriorPointState() && restartsInteriorPoint(tolerance)) {
            // A warm start that does not pay off quickly (a large change) falls back to a cold one.
            Allocation attempt = new InteriorPointSolver(problem, tolerance, Math.min(maxIterations, WARM_ITERATIONS),
                    fast, checkpoint).solve(warm);
            if (attempt.converged()) {
                return attempt;
            }
            return new InteriorPointSolver(problem, tolerance, maxIterations, fast, checkpoint).solve(null)
                    .plusIterations(attempt.iterations());
        }
        return new InteriorPointSolver(problem, tolerance, maxIterations, fast, checkpoint).solve(null);
    }

    /**
     * Whether the interior-point method restarts from a saved iterate when it solves to
     * {@code target}: only when that iterate was saved within 100 × the target
     * ({@link InteriorPointSolver#WARM_SAVE_FACTOR}), i.e. for targets of 1e-5 and more. Decision
     * (session 15, docs/controller.md): below, the iterate is saved at the 1e-3 floor
     * ({@link InteriorPointSolver#WARM_SAVE_GAP}), and warm restarts to the controller's 1e-6 lost
     * more than they won: at k=12 with 4,000 sessions one restart took 9 iterations (1.2 s) against a
     * cold 38 (2.4 s), the next 30 that missed, then 34 cold (6.7 s) against 34 (2.0 s) — a warm
     * iteration (plain steps from an off-centre point) took three times as long as a cold one.
     * At 1e-4 warm restarts pay (session 8's loop rounds: 52, 14, 12 iterations against 82 cold).
     */
    static boolean restartsInteriorPoint(double target) {
        return InteriorPointSolver.WARM_SAVE_FACTOR * target >= InteriorPointSolver.WARM_SAVE_GAP;
    }

    /** Certified gaps below this are at the rounding floor: no fallback is tried. */
    static final double ROUNDING_FLOOR = 1e-9;

    /** Iteration budget of a warm start before falling back to a cold solve. */
    static final int WARM_ITERATIONS = 30;
}
