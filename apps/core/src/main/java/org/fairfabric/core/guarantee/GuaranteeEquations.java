package org.fairfabric.core.guarantee;

import java.util.List;
import org.fairfabric.core.model.Checks;

/**
 * vFab equations 1-3 (section III). Phi_l as reported may not yet include the pair itself (its
 * first probe has not reached the switch); the share uses max(Phi_l, phi) so a pair never gets more
 * than the whole link. Where a ratio has a zero denominator the bound falls back to the cap:
 * tx_l = 0 in Eq. 2 and tx_l*T + q_l = 0 in Eq. 3 mean an idle link, whose cap is C_l (resp. C_l*T).
 */
public final class GuaranteeEquations {
    private GuaranteeEquations() {
    }

    private static double share(double phi, double totalTokens) {
        Checks.positive(phi, "pair tokens phi");
        return phi / Math.max(totalTokens, phi);
    }

    /** Eq. 1 on one link: r^l = phi/Phi_l * C_l (bit/s). */
    public static double guaranteedShareBps(double phi, LinkFeedback link) {
        return share(phi, link.totalTokens()) * link.targetCapacityBps();
    }

    /** Eq. 1 on a path: the minimum over its links. */
    public static double guaranteedShareBps(double phi, List<LinkFeedback> path) {
        double r = Double.POSITIVE_INFINITY;
        for (LinkFeedback l : nonEmpty(path)) {
            r = Math.min(r, guaranteedShareBps(phi, l));
        }
        return r;
    }

    /** Eq. 2 on one link: R^l = min(phi/Phi_l * R_l * C_l/tx_l, C_l), R_l the sum of upper bounds on l. */
    public static double workConservingBoundBps(double phi, LinkFeedback link, double sumUpperBoundsBps) {
        Checks.nonNegative(sumUpperBoundsBps, "R_l");
        double c = link.targetCapacityBps();
        if (link.txBps() == 0) {
            return c;
        }
        return Math.min(share(phi, link.totalTokens()) * sumUpperBoundsBps * c / link.txBps(), c);
    }

    /** Eq. 3 on one link: w^l = min(phi/Phi_l * W_l * C_l*T / (tx_l*T + q_l), C_l*T) in bytes. */
    public static double windowBytes(double phi, LinkFeedback link, double baseRttSeconds) {
        Checks.positive(baseRttSeconds, "base RTT");
        double cap = Bdp.bytes(link.targetCapacityBps(), baseRttSeconds);
        double inflight = Bdp.bytes(link.txBps(), baseRttSeconds) + link.queueBytes();
        if (inflight == 0) {
            return cap;
        }
        return Math.min(share(phi, link.totalTokens()) * link.totalWindowBytes() * cap / inflight, cap);
    }

    /** Eq. 3 on a path: the sending window is the minimum over its links. */
    public static double windowBytes(double phi, List<LinkFeedback> path, double baseRttSeconds) {
        double w = Double.POSITIVE_INFINITY;
        for (LinkFeedback l : nonEmpty(path)) {
            w = Math.min(w, windowBytes(phi, l, baseRttSeconds));
        }
        return w;
    }

    private static List<LinkFeedback> nonEmpty(List<LinkFeedback> path) {
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("a path needs at least one link");
        }
        return path;
    }
}
