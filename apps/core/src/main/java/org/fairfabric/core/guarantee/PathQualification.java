package org.fairfabric.core.guarantee;

import java.util.List;
import org.fairfabric.core.model.Checks;

/**
 * vFab path qualification: a path is qualified for a pair with phi tokens if every link satisfies
 * C_l >= (Phi_l + phi) * B_u. For a pair already counted in Phi_l (it is on the path) adding phi again
 * would double-count it, so then the test is C_l >= Phi_l * B_u.
 */
public final class PathQualification {
    /** Tolerance for floating-point rounding (C_l = 0.95 * C' is not exact in binary). */
    static final double ROUNDING_BPS = 1e-3;

    private PathQualification() {
    }

    public static boolean isQualified(double phi, double bandwidthPerTokenBps, List<LinkFeedback> path,
                                      boolean pairAlreadyCounted) {
        return spareBps(phi, bandwidthPerTokenBps, path, pairAlreadyCounted) >= -ROUNDING_BPS;
    }

    /** min over links of C_l - (Phi_l + phi) * B_u: negative means unqualified. */
    public static double spareBps(double phi, double bandwidthPerTokenBps, List<LinkFeedback> path,
                                  boolean pairAlreadyCounted) {
        Checks.positive(phi, "pair tokens phi");
        Checks.positive(bandwidthPerTokenBps, "bandwidth per token B_u");
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("a path needs at least one link");
        }
        double spare = Double.POSITIVE_INFINITY;
        for (LinkFeedback l : path) {
            double tokens = pairAlreadyCounted ? l.totalTokens() : l.totalTokens() + phi;
            spare = Math.min(spare, l.targetCapacityBps() - tokens * bandwidthPerTokenBps);
        }
        return spare;
    }
}
