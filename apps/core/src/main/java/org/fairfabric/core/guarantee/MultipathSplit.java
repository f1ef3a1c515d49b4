package org.fairfabric.core.guarantee;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.core.model.Checks;

/**
 * vFab Algorithm 2 (App. C): split a pair's phi_S over its paths. Every path gets at least the
 * even share phi-bar = phi_S / N_L, a demand-bounded path keeps phi-bar (to let its demand grow)
 * and its unused part goes to the other paths, so the total may exceed phi_S by design (at most
 * 2 phi_S). Fixes: {@code L.tx} read as the path's own {@code l.tx}; "assigned" is a flag rather
 * than l.phi = 0; no division when every path is demand-bounded.
 */
public final class MultipathSplit {
    private MultipathSplit() {
    }

    public static Map<Integer, Double> split(double pairTokens, List<PathDemand> paths, double bandwidthPerTokenBps) {
        Checks.positive(pairTokens, "pair tokens phi_S");
        Checks.positive(bandwidthPerTokenBps, "bandwidth per token B_u");
        if (paths == null || paths.isEmpty()) {
            throw new IllegalArgumentException("a pair needs at least one path");
        }
        Set<Integer> ids = new HashSet<>();
        for (PathDemand p : paths) {
            if (!ids.add(p.pathId())) {
                throw new IllegalArgumentException("path " + p.pathId() + " listed twice");
            }
        }
        int total = paths.size();
        double even = pairTokens / total;
        double unused = 0;
        int bounded = 0;
        Map<Integer, Double> out = new LinkedHashMap<>();
        for (PathDemand p : paths) {
            double demand = p.txBps() / bandwidthPerTokenBps;
            if (even > demand) {
                unused += even - demand;
                out.put(p.pathId(), even);
                bounded++;
            }
        }
        for (PathDemand p : paths) {
            if (!out.containsKey(p.pathId())) {
                out.put(p.pathId(), even + unused / (total - bounded));
            }
        }
        Map<Integer, Double> ordered = new LinkedHashMap<>();
        for (PathDemand p : paths) {
            ordered.put(p.pathId(), out.get(p.pathId()));
        }
        return ordered;
    }
}
