package org.fairfabric.core.allocator;

import java.util.Arrays;

/**
 * A problem derived from an existing one without rebuilding it: links and sessions appended after
 * its own (in that order, so the existing indices stay), and the weight, demand and minimum rate of
 * some of its sessions replaced. The result equals what {@link AllocationProblemBuilder} gives for
 * the same links and sessions in the same order. What the base problem holds is not validated
 * again; appended links and sessions and replaced parameters are, with the builder's rules, except
 * that ids are not checked for duplicates — the caller knows its ids (the builder's maps of every
 * id are what this class exists to avoid).
 */
public final class AllocationProblemExtension {
    private String[] linkIds;
    private double[] capacity;
    private int links;
    private String[] sessionIds;
    private double[] weight;
    private double[] demand;
    private double[] minRate;
    private int[] sessionPathStart;
    private int sessions;
    private int[] pathLinkStart;
    private int paths;
    private int[] pathLinks;
    private int nnz;

    /** Copies {@code base}'s arrays once, with room for about this much more. */
    public AllocationProblemExtension(AllocationProblem base, int moreLinks, int moreSessions, int morePaths, int morePathLinks) {
        links = base.linkCount();
        sessions = base.sessionCount();
        paths = base.pathCount();
        nnz = base.pathLinkStartArray()[paths];
        linkIds = new String[links + Math.max(1, moreLinks)];
        System.arraycopy(base.linkIdsArray(), 0, linkIds, 0, links);
        capacity = Arrays.copyOf(base.capacityArray(), linkIds.length);
        int s = sessions + Math.max(1, moreSessions);
        sessionIds = new String[s];
        System.arraycopy(base.sessionIdsArray(), 0, sessionIds, 0, sessions);
        weight = Arrays.copyOf(base.weightArray(), s);
        demand = Arrays.copyOf(base.demandArray(), s);
        minRate = Arrays.copyOf(base.minRateArray(), s);
        sessionPathStart = Arrays.copyOf(base.sessionPathStartArray(), s + 1);
        pathLinkStart = Arrays.copyOf(base.pathLinkStartArray(), paths + 1 + Math.max(1, morePaths));
        pathLinks = Arrays.copyOf(base.pathLinksArray(), nnz + Math.max(1, morePathLinks));
    }

    /** Appends a link; returns its index. */
    public int addLink(String id, double linkCapacity) {
        String field = "links[" + links + "]";
        if (id == null || id.isEmpty()) {
            throw new InvalidProblemException(field + ".id", "missing or empty");
        }
        if (!(linkCapacity > 0) || Double.isInfinite(linkCapacity)) {
            throw new InvalidProblemException(field + ".capacity", "must be a positive finite number, got " + linkCapacity);
        }
        if (links == linkIds.length) {
            linkIds = Arrays.copyOf(linkIds, 2 * links);
            capacity = Arrays.copyOf(capacity, 2 * links);
        }
        linkIds[links] = id;
        capacity[links] = linkCapacity;
        return links++;
    }

    /** Replaces the weight, demand cap and minimum rate of session {@code i} (one of the base problem's or an appended one). */
    public void setSession(int i, double sessionWeight, double demandCap, double guaranteedRate) {
        if (i < 0 || i >= sessions) {
            throw new IndexOutOfBoundsException("session " + i + " of " + sessions);
        }
        check("sessions[" + i + "]", sessionWeight, demandCap, guaranteedRate);
        weight[i] = sessionWeight;
        demand[i] = demandCap;
        minRate[i] = guaranteedRate;
    }

    /** Appends a session whose paths are link indices; returns its index. */
    public int addSessionByIndex(String id, double sessionWeight, double demandCap, double guaranteedRate, int[][] linkPaths) {
        String field = "sessions[" + sessions + "]";
        if (id == null || id.isEmpty()) {
            throw new InvalidProblemException(field + ".id", "missing or empty");
        }
        check(field, sessionWeight, demandCap, guaranteedRate);
        if (linkPaths.length == 0) {
            throw new InvalidProblemException(field + ".paths", "a session needs at least one path");
        }
        for (int j = 0; j < linkPaths.length; j++) {
            if (linkPaths[j].length == 0) {
                throw new InvalidProblemException(field + ".paths[" + j + "]", "empty path");
            }
            for (int k = 0; k < linkPaths[j].length; k++) {
                if (linkPaths[j][k] < 0 || linkPaths[j][k] >= links) {
                    throw new InvalidProblemException(field + ".paths[" + j + "][" + k + "]", "unknown link index " + linkPaths[j][k]);
                }
            }
        }
        if (sessions == weight.length) {
            int n = 2 * sessions;
            sessionIds = Arrays.copyOf(sessionIds, n);
            weight = Arrays.copyOf(weight, n);
            demand = Arrays.copyOf(demand, n);
            minRate = Arrays.copyOf(minRate, n);
            sessionPathStart = Arrays.copyOf(sessionPathStart, n + 1);
        }
        sessionIds[sessions] = id;
        weight[sessions] = sessionWeight;
        demand[sessions] = demandCap;
        minRate[sessions] = guaranteedRate;
        for (int[] path : linkPaths) {
            if (paths + 1 >= pathLinkStart.length) {
                pathLinkStart = Arrays.copyOf(pathLinkStart, 2 * pathLinkStart.length);
            }
            while (nnz + path.length > pathLinks.length) {
                pathLinks = Arrays.copyOf(pathLinks, 2 * pathLinks.length);
            }
            System.arraycopy(path, 0, pathLinks, nnz, path.length);
            nnz += path.length;
            paths++;
            pathLinkStart[paths] = nnz;
        }
        sessionPathStart[++sessions] = paths;
        return sessions - 1;
    }

    private static void check(String field, double w, double d, double g) {
        if (!(w > 0) || Double.isInfinite(w)) {
            throw new InvalidProblemException(field + ".weight", "must be a positive finite number, got " + w);
        }
        if (!(d > 0)) {
            throw new InvalidProblemException(field + ".demand", "must be a positive number, got " + d);
        }
        if (!(g >= 0) || Double.isInfinite(g)) {
            throw new InvalidProblemException(field + ".minRate", "must be a non-negative finite number, got " + g);
        }
        if (g > d) {
            throw new InvalidProblemException(field + ".minRate", "exceeds the session's demand (" + g + " > " + d + ")");
        }
    }

    public AllocationProblem build() {
        return new AllocationProblem(Arrays.copyOf(linkIds, links), Arrays.copyOf(capacity, links),
                Arrays.copyOf(sessionIds, sessions), Arrays.copyOf(weight, sessions),
                Arrays.copyOf(demand, sessions), Arrays.copyOf(minRate, sessions),
                Arrays.copyOf(sessionPathStart, sessions + 1), Arrays.copyOf(pathLinkStart, paths + 1),
                Arrays.copyOf(pathLinks, nnz));
    }
}
