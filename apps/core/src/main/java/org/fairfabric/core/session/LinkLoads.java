package org.fairfabric.core.session;

import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of one measurement period: r_i(p) per session-path (bit/s), the carried rate per
 * link (bit/s), the normalised load Lambda_e = sum r / C(e) per link, and the session-paths whose
 * bytes could not be charged (unknown session or path id).
 */
public final class LinkLoads {
    private final Map<SessionPath, Double> pathRatesBps;
    private final Map<String, Double> linkRatesBps;
    private final Map<String, Double> linkLoads;
    private final Set<SessionPath> unattributed;

    LinkLoads(Map<SessionPath, Double> pathRatesBps, Map<String, Double> linkRatesBps, Map<String, Double> linkLoads,
              Set<SessionPath> unattributed) {
        this.pathRatesBps = Collections.unmodifiableMap(pathRatesBps);
        this.linkRatesBps = Collections.unmodifiableMap(linkRatesBps);
        this.linkLoads = Collections.unmodifiableMap(linkLoads);
        this.unattributed = Collections.unmodifiableSet(unattributed);
    }

    public Map<SessionPath, Double> pathRatesBps() {
        return pathRatesBps;
    }

    public Map<String, Double> linkRatesBps() {
        return linkRatesBps;
    }

    /** Lambda_e per link id, a fraction of capacity. Links nothing crossed are absent (load 0). */
    public Map<String, Double> linkLoads() {
        return linkLoads;
    }

    public double load(String linkId) {
        return linkLoads.getOrDefault(linkId, 0.0);
    }

    public Set<SessionPath> unattributed() {
        return unattributed;
    }
}
