package org.fairfabric.core.guarantee;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.core.model.Checks;

/**
 * vFab Algorithm 1, receiver side (TOKENADMISSION): max-min share of the receiver's phi^alpha over
 * the pairs arriving at it. A pair asking less than the current fair share is UNBOUND (keeps what it
 * asked) and its surplus is spread over the rest. Fixes: the loop walks the sorted list (the printed
 * line 25 iterates the unsorted P, which breaks max-min), ties sort by pair id, and the division by
 * N_D - N' is skipped when no pair is left.
 */
public final class TokenAdmission {
    /** phi_D of a pair the receiver does not bound. */
    public static final double UNBOUND = Double.POSITIVE_INFINITY;

    private TokenAdmission() {
    }

    public static Map<String, Double> admit(double phiAlpha, Map<String, Double> senderTokens) {
        Checks.positive(phiAlpha, "VF tokens phi^alpha");
        List<Map.Entry<String, Double>> sorted = new ArrayList<>(Checks.notNull(senderTokens, "sender tokens").entrySet());
        for (Map.Entry<String, Double> e : sorted) {
            if (e.getValue() == null || !(e.getValue() >= 0) || e.getValue().isInfinite()) {
                throw new IllegalArgumentException("pair " + e.getKey() + ": sender tokens must be finite and >= 0");
            }
        }
        sorted.sort(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey()));
        Map<String, Double> out = new LinkedHashMap<>();
        int total = sorted.size();
        int bounded = 0;
        double fair = total == 0 ? 0 : phiAlpha / total;
        for (Map.Entry<String, Double> e : sorted) {
            if (e.getValue() < fair) {
                out.put(e.getKey(), UNBOUND);
                bounded++;
                if (total > bounded) {
                    fair += (fair - e.getValue()) / (total - bounded);
                }
            } else {
                out.put(e.getKey(), fair);
            }
        }
        return out;
    }
}
