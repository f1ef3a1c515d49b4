package org.fairfabric.core.allocator;

/** The allocator's answer: per-path and per-session rates, link loads and link prices. */
public final class Allocation {
    /** Which algorithm produced an allocation. */
    public enum Mode { EXACT, PAPER }

    private final AllocationProblem problem;
    private final Mode mode;
    private final boolean converged;
    private final int iterations;
    private final double tolerance;
    private final double relativeGap;
    private final double[] pathRates;
    private final double[] sessionRates;
    private final double[] linkLoads;
    private final double[] linkPrices;
    private WarmStart warmStart;

    Allocation(AllocationProblem problem, Mode mode, boolean converged, int iterations, double tolerance,
               double relativeGap, double[] pathRates, double[] linkPrices) {
        this(problem, mode, converged, iterations, tolerance, relativeGap, pathRates, linkPrices,
                new double[problem.sessionCount()], new double[problem.linkCount()]);
        Duality.sessionRates(problem.sessionPathStartArray(), pathRates, sessionRates);
        Duality.linkLoads(problem.pathLinkStartArray(), problem.pathLinksArray(), pathRates, linkLoads);
    }

    /** With session rates and link loads already computed from {@code pathRates} (taken as they are). */
    Allocation(AllocationProblem problem, boolean converged, int iterations, double tolerance, double relativeGap,
               double[] pathRates, double[] linkPrices, double[] sessionRates, double[] linkLoads) {
        this(problem, Mode.EXACT, converged, iterations, tolerance, relativeGap, pathRates, linkPrices, sessionRates,
                linkLoads);
    }

    private Allocation(AllocationProblem problem, Mode mode, boolean converged, int iterations, double tolerance,
                       double relativeGap, double[] pathRates, double[] linkPrices, double[] sessionRates,
                       double[] linkLoads) {
        this.problem = problem;
        this.mode = mode;
        this.converged = converged;
        this.iterations = iterations;
        this.tolerance = tolerance;
        this.relativeGap = relativeGap;
        this.pathRates = pathRates;
        this.linkPrices = linkPrices;
        this.sessionRates = sessionRates;
        this.linkLoads = linkLoads;
    }

    public AllocationProblem problem() { return problem; }
    public Mode mode() { return mode; }
    /** Exact mode: the stopping criterion was met. Paper mode: Algorithm 1's loop ended. */
    public boolean converged() { return converged; }
    public int iterations() { return iterations; }
    /** The requested tolerance (exact mode); NaN in paper mode. */
    public double tolerance() { return tolerance; }
    /**
     * Exact mode: the certified relative duality gap (D(μ) − Σ w_i log x_i) / Σ w_i of the
     * reported allocation and prices. NaN in paper mode.
     */
    public double relativeGap() { return relativeGap; }
    /** Rate of path p, indexed like the problem's paths (session i owns firstPath(i)..endPath(i)). */
    public double pathRate(int p) { return pathRates[p]; }
    public double sessionRate(int i) { return sessionRates[i]; }
    public double linkLoad(int e) { return linkLoads[e]; }
    public double linkPrice(int e) { return linkPrices[e]; }

    public double[] pathRates() { return pathRates.clone(); }
    public double[] sessionRates() { return sessionRates.clone(); }
    public double[] linkPrices() { return linkPrices.clone(); }

    /**
     * State for warm-starting the next exact solve on a changed problem; null in paper mode.
     */
    public WarmStart warmStart() {
        return warmStart;
    }

    /** The same allocation, counting iterations spent in earlier (abandoned) attempts too. */
    Allocation plusIterations(int earlier) {
        return new Allocation(problem, mode, converged, iterations + earlier, tolerance, relativeGap, pathRates,
                linkPrices).withWarmStart(warmStart);
    }

    Allocation withWarmStart(WarmStart state) {
        this.warmStart = state;
        return this;
    }
}
