package org.fairfabric.core.guarantee;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.core.model.Checks;

/**
 * vFab Algorithm 1, sender side (TOKENASSIGNMENT, App. B): split a VF's phi^alpha tokens over its
 * active pairs, bounded by each pair's demand (tx / B_u) and by what its receiver admitted (phi_D),
 * redistributing what a bounded pair does not use. Fixes to the printed algorithm:
 * <ul>
 *   <li>lines 10-19 run after the first loop (the printed nesting is garbled);</li>
 *   <li>"assigned" is an explicit flag, not phi_S = 0, so a pair with zero demand is not mistaken
 *       for an unassigned one and handed phi-bar at line 19;</li>
 *   <li>the divisions by N_S - N' (lines 10, 15) are skipped when every pair is bounded: there is
 *       nobody left to redistribute to;</li>
 *   <li>ties in the phi_D sort are broken by pair id, so results do not depend on input order.</li>
 * </ul>
 */
public final class TokenAssignment {
    private TokenAssignment() {
    }

    public static Map<String, TokenShare> assign(double phiAlpha, List<SenderPair> pairs, double bandwidthPerTokenBps) {
        Checks.positive(phiAlpha, "VF tokens phi^alpha");
        Checks.positive(bandwidthPerTokenBps, "bandwidth per token B_u");
        Set<String> ids = new HashSet<>();
        for (SenderPair p : Checks.notNull(pairs, "pairs")) {
            if (!ids.add(p.pairId())) {
                throw new IllegalArgumentException("pair " + p.pairId() + " listed twice");
            }
        }
        Map<String, TokenShare> out = new LinkedHashMap<>();
        if (pairs.isEmpty()) {
            return out;
        }
        int total = pairs.size();
        int bounded = 0;
        double fair = phiAlpha / total;
        double initialFair = fair;
        double unused = 0;
        Map<String, Double> assigned = new LinkedHashMap<>();
        Set<String> demandBounded = new HashSet<>();
        for (SenderPair p : pairs) {
            double demand = p.txBps() / bandwidthPerTokenBps;
            if (fair > demand) {
                unused += fair - demand;
                assigned.put(p.pairId(), demand);
                demandBounded.add(p.pairId());
                bounded++;
            }
        }
        if (total > bounded) {
            fair += unused / (total - bounded);
        }
        List<SenderPair> byReceiver = new ArrayList<>(pairs);
        byReceiver.sort(Comparator.comparingDouble(SenderPair::receiverTokens).thenComparing(SenderPair::pairId));
        for (SenderPair p : byReceiver) {
            if (p.receiverTokens() < fair && !assigned.containsKey(p.pairId())) {
                bounded++;
                if (total > bounded) {
                    fair += (fair - p.receiverTokens()) / (total - bounded);
                }
                assigned.put(p.pairId(), p.receiverTokens());
            }
        }
        for (SenderPair p : pairs) {
            Double a = assigned.get(p.pairId());
            if (a == null) {
                out.put(p.pairId(), new TokenShare(fair, fair));
            } else {
                out.put(p.pairId(), new TokenShare(a, demandBounded.contains(p.pairId()) ? initialFair : a));
            }
        }
        return out;
    }
}
