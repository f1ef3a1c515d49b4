package org.fairfabric.core.allocator;

import java.util.Arrays;

/**
 * Compact, immutable allocator input: links with capacities, sessions with weight, demand cap
 * and minimum rate, and each session's paths as link indices in CSR form. Build one with
 * {@link AllocationProblemBuilder}; the arrays are owned by this object and never exposed.
 */
public final class AllocationProblem {
    /** Marker for "no demand cap". */
    public static final double NO_DEMAND = Double.POSITIVE_INFINITY;

    private final String[] linkIds;
    private final double[] capacity;
    private final String[] sessionIds;
    private final double[] weight;
    private final double[] demand;
    private final double[] minRate;
    /** Paths of session i are [sessionPathStart[i], sessionPathStart[i+1]). */
    private final int[] sessionPathStart;
    /** Links of path p are pathLinks[pathLinkStart[p] .. pathLinkStart[p+1]). */
    private final int[] pathLinkStart;
    private final int[] pathLinks;

    AllocationProblem(String[] linkIds, double[] capacity, String[] sessionIds, double[] weight,
                      double[] demand, double[] minRate, int[] sessionPathStart,
                      int[] pathLinkStart, int[] pathLinks) {
        this.linkIds = linkIds;
        this.capacity = capacity;
        this.sessionIds = sessionIds;
        this.weight = weight;
        this.demand = demand;
        this.minRate = minRate;
        this.sessionPathStart = sessionPathStart;
        this.pathLinkStart = pathLinkStart;
        this.pathLinks = pathLinks;
    }

    public int linkCount() { return capacity.length; }
    public int sessionCount() { return weight.length; }
    public int pathCount() { return pathLinkStart.length - 1; }
    public String linkId(int e) { return linkIds[e]; }
    public double capacity(int e) { return capacity[e]; }
    public String sessionId(int i) { return sessionIds[i]; }
    public double weight(int i) { return weight[i]; }
    /** The demand cap, or {@link #NO_DEMAND}. */
    public double demand(int i) { return demand[i]; }
    /** The guaranteed minimum rate; 0 when none. */
    public double minRate(int i) { return minRate[i]; }
    public int firstPath(int i) { return sessionPathStart[i]; }
    public int endPath(int i) { return sessionPathStart[i + 1]; }
    public int pathLength(int p) { return pathLinkStart[p + 1] - pathLinkStart[p]; }
    public int pathLink(int p, int k) { return pathLinks[pathLinkStart[p] + k]; }

    // Package-private raw views for the solvers' hot loops (never modified by them).
    int[] sessionPathStartArray() { return sessionPathStart; }
    int[] pathLinkStartArray() { return pathLinkStart; }
    int[] pathLinksArray() { return pathLinks; }
    double[] capacityArray() { return capacity; }
    double[] weightArray() { return weight; }
    double[] demandArray() { return demand; }
    double[] minRateArray() { return minRate; }
    String[] linkIdsArray() { return linkIds; }
    String[] sessionIdsArray() { return sessionIds; }

    public boolean hasMinRates() {
        for (double g : minRate) {
            if (g > 0) {
                return true;
            }
        }
        return false;
    }

    /** Index of a session id, or -1. Linear: meant for tests and tools, not hot loops. */
    public int sessionIndex(String id) {
        return Arrays.asList(sessionIds).indexOf(id);
    }

    /** Index of a link id, or -1. Linear: meant for tests and tools, not hot loops. */
    public int linkIndex(String id) {
        return Arrays.asList(linkIds).indexOf(id);
    }

    /** Equal problems: the same links, sessions and paths, in the same order, with bitwise equal numbers. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AllocationProblem)) {
            return false;
        }
        AllocationProblem other = (AllocationProblem) o;
        return Arrays.equals(linkIds, other.linkIds) && Arrays.equals(capacity, other.capacity)
                && Arrays.equals(sessionIds, other.sessionIds) && Arrays.equals(weight, other.weight)
                && Arrays.equals(demand, other.demand) && Arrays.equals(minRate, other.minRate)
                && Arrays.equals(sessionPathStart, other.sessionPathStart) && Arrays.equals(pathLinkStart, other.pathLinkStart)
                && Arrays.equals(pathLinks, other.pathLinks);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(sessionIds) + Arrays.hashCode(linkIds);
    }

    /** The same problem without session {@code leaving}; used for departures and benchmarks. */
    public AllocationProblem withoutSession(int leaving) {
        AllocationProblemBuilder b = new AllocationProblemBuilder();
        for (int e = 0; e < linkCount(); e++) {
            b.addLink(linkIds[e], capacity[e]);
        }
        for (int i = 0; i < sessionCount(); i++) {
            if (i == leaving) {
                continue;
            }
            int[][] paths = new int[endPath(i) - firstPath(i)][];
            for (int p = firstPath(i); p < endPath(i); p++) {
                paths[p - firstPath(i)] = Arrays.copyOfRange(pathLinks, pathLinkStart[p], pathLinkStart[p + 1]);
            }
            b.addSessionByIndex(sessionIds[i], weight[i], demand[i], minRate[i], paths);
        }
        return b.build();
    }
}
