package org.fairfabric.core.allocator;

import java.util.Collections;
import java.util.Map;

/**
 * State from a previous exact solve for the next one: the lazy-link method's active links,
 * prices and path rates, or a well-centred interior-point iterate (the first one whose
 * certified gap came within a small factor of the tolerance), keyed by ids so the next problem
 * may differ: sessions and links may come and go, weights, caps and capacities may change.
 * A session's path state is reused only when its path count is unchanged (paths are matched
 * by position). Values are stored in the problem's units.
 */
public final class WarmStart {
    /** Per link: {slack, price}. */
    private final Map<String, double[]> links;
    /** Per session: {u, α, v, β, r_0..r_k-1, z_0..z_k-1}. */
    private final Map<String, double[]> sessions;
    /** The lazy-link method's result (null when the whole problem went to the interior-point method). */
    final LazyLinkSolver.Result lazy;

    WarmStart(Map<String, double[]> links, Map<String, double[]> sessions) {
        this.links = Collections.unmodifiableMap(links);
        this.sessions = Collections.unmodifiableMap(sessions);
        this.lazy = null;
    }

    WarmStart(LazyLinkSolver.Result lazy) {
        this.links = Collections.emptyMap();
        this.sessions = Collections.emptyMap();
        this.lazy = lazy;
    }

    /** Whether this holds an interior-point iterate (rather than only a lazy-link result). */
    boolean hasInteriorPointState() {
        return !links.isEmpty() || !sessions.isEmpty();
    }

    double[] link(String id) {
        return links.get(id);
    }

    double[] session(String id) {
        return sessions.get(id);
    }

    public int sessionCount() {
        return lazy != null ? lazy.problem.sessionCount() : sessions.size();
    }
}
