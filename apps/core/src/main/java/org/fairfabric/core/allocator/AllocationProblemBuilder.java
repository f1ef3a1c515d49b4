package org.fairfabric.core.allocator;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds an {@link AllocationProblem} from ids, validating as it goes. Every error is an
 * {@link InvalidProblemException} naming the field as it appears in the JSON problem
 * ({@code links[2].capacity}, {@code sessions[3].paths[1][0]}), so callers can report it as is.
 *
 * <p>{@link #extending} starts from an existing problem instead of from nothing: links and sessions
 * are appended after its own (so its indices stay) and its sessions' parameters may be replaced
 * ({@link #setSession}); the result equals a build of the same links and sessions in the same order.
 * Such a builder keeps no maps of ids — building them for every session is what it exists to avoid
 * — so it takes paths by link index only and does not check ids for duplicates: the caller knows
 * its ids.
 */
public final class AllocationProblemBuilder {
    /** Null when extending a problem (no id checks). */
    private final Map<String, Integer> linkIndex;
    private final Map<String, Integer> sessionIndex;
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

    public AllocationProblemBuilder() {
        this(16, 16, 64, 256);
    }

    /**
     * A builder with room for a problem of about this size from the start (it still grows past
     * it), so that a large problem is not built through repeated copies.
     */
    public AllocationProblemBuilder(int expectedLinks, int expectedSessions, int expectedPaths, int expectedPathLinks) {
        linkIndex = new HashMap<>(Math.max(16, expectedLinks * 4 / 3 + 1));
        sessionIndex = new HashMap<>(Math.max(16, expectedSessions * 4 / 3 + 1));
        linkIds = new String[Math.max(16, expectedLinks)];
        capacity = new double[linkIds.length];
        sessionIds = new String[Math.max(16, expectedSessions)];
        weight = new double[sessionIds.length];
        demand = new double[sessionIds.length];
        minRate = new double[sessionIds.length];
        sessionPathStart = new int[sessionIds.length + 1];
        pathLinkStart = new int[Math.max(64, expectedPaths + 1)];
        pathLinks = new int[Math.max(256, expectedPathLinks)];
    }

    /**
     * A builder holding {@code base} as it is (not validated again), with room for about this much
     * more; see the class comment.
     */
    public static AllocationProblemBuilder extending(AllocationProblem base, int moreLinks, int moreSessions, int morePaths,
                                                     int morePathLinks) {
        return new AllocationProblemBuilder(base, moreLinks, moreSessions, morePaths, morePathLinks);
    }

    private AllocationProblemBuilder(AllocationProblem base, int moreLinks, int moreSessions, int morePaths, int morePathLinks) {
        linkIndex = null;
        sessionIndex = null;
        links = base.linkCount();
        sessions = base.sessionCount();
        paths = base.pathCount();
        nnz = base.pathLinkStartArray()[paths];
        linkIds = Arrays.copyOf(base.linkIdsArray(), links + Math.max(1, moreLinks));
        capacity = Arrays.copyOf(base.capacityArray(), linkIds.length);
        int s = sessions + Math.max(1, moreSessions);
        sessionIds = Arrays.copyOf(base.sessionIdsArray(), s);
        weight = Arrays.copyOf(base.weightArray(), s);
        demand = Arrays.copyOf(base.demandArray(), s);
        minRate = Arrays.copyOf(base.minRateArray(), s);
        sessionPathStart = Arrays.copyOf(base.sessionPathStartArray(), s + 1);
        pathLinkStart = Arrays.copyOf(base.pathLinkStartArray(), paths + 1 + Math.max(1, morePaths));
        pathLinks = Arrays.copyOf(base.pathLinksArray(), nnz + Math.max(1, morePathLinks));
    }

    /** Links so far: the next one added gets this index. */
    public int linkCount() {
        return links;
    }

    public AllocationProblemBuilder addLink(String id, double linkCapacity) {
        String field = "links[" + links + "]";
        if (id == null || id.isEmpty()) {
            throw new InvalidProblemException(field + ".id", "missing or empty");
        }
        if (linkIndex != null && linkIndex.containsKey(id)) {
            throw new InvalidProblemException(field + ".id", "duplicate link id \"" + id + "\"");
        }
        if (!(linkCapacity > 0) || Double.isInfinite(linkCapacity)) {
            throw new InvalidProblemException(field + ".capacity",
                    "must be a positive finite number, got " + linkCapacity);
        }
        if (links == capacity.length) {
            linkIds = Arrays.copyOf(linkIds, 2 * links);
            capacity = Arrays.copyOf(capacity, 2 * links);
        }
        linkIds[links] = id;
        capacity[links] = linkCapacity;
        if (linkIndex != null) {
            linkIndex.put(id, links);
        }
        links++;
        return this;
    }

    /** Replaces the weight, demand cap and minimum rate of session {@code i} (already added or in the base problem). */
    public AllocationProblemBuilder setSession(int i, double sessionWeight, double demandCap, double guaranteedRate) {
        if (i < 0 || i >= sessions) {
            throw new IndexOutOfBoundsException("session " + i + " of " + sessions);
        }
        checkParameters("sessions[" + i + "]", sessionWeight, demandCap, guaranteedRate);
        weight[i] = sessionWeight;
        demand[i] = demandCap;
        minRate[i] = guaranteedRate;
        return this;
    }

    /**
     * Adds a session whose paths are lists of link ids.
     *
     * @param demandCap {@link AllocationProblem#NO_DEMAND} for none
     * @param guaranteedRate 0 for none
     */
    public AllocationProblemBuilder addSession(String id, double sessionWeight, double demandCap,
                                               double guaranteedRate, List<List<String>> linkPaths) {
        if (linkIndex == null) {
            throw new IllegalStateException("a builder extending a problem takes paths by link index");
        }
        checkSession(id, sessionWeight, demandCap, guaranteedRate);
        String field = field();
        if (linkPaths == null || linkPaths.isEmpty()) {
            throw new InvalidProblemException(field + ".paths", "a session needs at least one path");
        }
        int[][] resolved = new int[linkPaths.size()][];
        for (int j = 0; j < linkPaths.size(); j++) {
            List<String> path = linkPaths.get(j);
            if (path == null || path.isEmpty()) {
                throw new InvalidProblemException(field + ".paths[" + j + "]", "empty path");
            }
            resolved[j] = new int[path.size()];
            for (int k = 0; k < path.size(); k++) {
                Integer e = linkIndex.get(path.get(k));
                if (e == null) {
                    throw new InvalidProblemException(field + ".paths[" + j + "][" + k + "]",
                            "unknown link \"" + path.get(k) + "\"");
                }
                resolved[j][k] = e;
            }
        }
        append(id, sessionWeight, demandCap, guaranteedRate, resolved);
        return this;
    }

    /** Adds a session whose paths are already link indices (generators, derived problems). */
    public AllocationProblemBuilder addSessionByIndex(String id, double sessionWeight, double demandCap,
                                                      double guaranteedRate, int[][] linkPaths) {
        checkSession(id, sessionWeight, demandCap, guaranteedRate);
        if (linkPaths.length == 0) {
            throw new InvalidProblemException(field() + ".paths", "a session needs at least one path");
        }
        for (int j = 0; j < linkPaths.length; j++) {
            if (linkPaths[j].length == 0) {
                throw new InvalidProblemException(field() + ".paths[" + j + "]", "empty path");
            }
            for (int k = 0; k < linkPaths[j].length; k++) {
                if (linkPaths[j][k] < 0 || linkPaths[j][k] >= links) {
                    throw new InvalidProblemException(field() + ".paths[" + j + "][" + k + "]",
                            "unknown link index " + linkPaths[j][k]);
                }
            }
        }
        append(id, sessionWeight, demandCap, guaranteedRate, linkPaths);
        return this;
    }

    /** The JSON field of the session being added, for error messages (built only when one is thrown). */
    private String field() {
        return "sessions[" + sessions + "]";
    }

    private void checkSession(String id, double w, double d, double g) {
        if (id == null || id.isEmpty()) {
            throw new InvalidProblemException(field() + ".id", "missing or empty");
        }
        if (sessionIndex != null && sessionIndex.containsKey(id)) {
            throw new InvalidProblemException(field() + ".id", "duplicate session id \"" + id + "\"");
        }
        checkParameters(field(), w, d, g);
    }

    private static void checkParameters(String field, double w, double d, double g) {
        if (!(w > 0) || Double.isInfinite(w)) {
            throw new InvalidProblemException(field + ".weight", "must be a positive finite number, got " + w);
        }
        if (!(d > 0)) {
            throw new InvalidProblemException(field + ".demand", "must be a positive number, got " + d);
        }
        if (!(g >= 0) || Double.isInfinite(g)) {
            throw new InvalidProblemException(field + ".minRate",
                    "must be a non-negative finite number, got " + g);
        }
        if (g > d) {
            throw new InvalidProblemException(field + ".minRate",
                    "exceeds the session's demand (" + g + " > " + d + ")");
        }
    }

    private void append(String id, double w, double d, double g, int[][] linkPaths) {
        if (sessions == weight.length) {
            int n = 2 * sessions;
            sessionIds = Arrays.copyOf(sessionIds, n);
            weight = Arrays.copyOf(weight, n);
            demand = Arrays.copyOf(demand, n);
            minRate = Arrays.copyOf(minRate, n);
            sessionPathStart = Arrays.copyOf(sessionPathStart, n + 1);
        }
        sessionIds[sessions] = id;
        weight[sessions] = w;
        demand[sessions] = d;
        minRate[sessions] = g;
        if (sessionIndex != null) {
            sessionIndex.put(id, sessions);
        }
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
        sessions++;
        sessionPathStart[sessions] = paths;
    }

    public AllocationProblem build() {
        return new AllocationProblem(Arrays.copyOf(linkIds, links), Arrays.copyOf(capacity, links),
                Arrays.copyOf(sessionIds, sessions), Arrays.copyOf(weight, sessions),
                Arrays.copyOf(demand, sessions), Arrays.copyOf(minRate, sessions),
                Arrays.copyOf(sessionPathStart, sessions + 1), Arrays.copyOf(pathLinkStart, paths + 1),
                Arrays.copyOf(pathLinks, nnz));
    }
}
