package org.fairfabric.core.guarantee;

import java.util.List;
import org.fairfabric.core.model.Checks;

/**
 * vFab Eq. 4: with two-stage admission, the worst-case inflight traffic on a link l is
 * sum(r^l T) + sum(phi/Phi_l C_l T) + tx_l T_max, which stays within 3 C_l T_max (three BDPs); the
 * latency bound is then 3 BDP / C_l + baseRTT. The paper writes a strict "<"; the three terms can
 * each reach C_l T_max at the extremes, so fairfabric checks "<=". The bound assumes tx_l <= C_l
 * (eta leaves the 5% headroom above C_l unaccounted), so tx_l is not clamped here.
 */
public final class InflightBound {
    private InflightBound() {
    }

    /** One pair on the link: its tokens and base RTT. */
    public static final class PairOnLink {
        private final double phi;
        private final double baseRttSeconds;

        public PairOnLink(double phi, double baseRttSeconds) {
            this.phi = Checks.positive(phi, "pair tokens phi");
            this.baseRttSeconds = Checks.positive(baseRttSeconds, "pair base RTT");
        }
    }

    /** Left-hand side of Eq. 4 in bytes. Phi_l is the sum of the pairs' tokens. */
    public static double worstCaseInflightBytes(List<PairOnLink> pairs, double targetCapacityBps, double txBps,
                                                double maxBaseRttSeconds) {
        Checks.positive(targetCapacityBps, "C_l");
        Checks.nonNegative(txBps, "tx_l");
        Checks.positive(maxBaseRttSeconds, "T_max");
        double totalTokens = 0;
        for (PairOnLink p : pairs) {
            if (p.baseRttSeconds > maxBaseRttSeconds) {
                throw new IllegalArgumentException("a pair's base RTT exceeds T_max");
            }
            totalTokens += p.phi;
        }
        double sum = 0;
        for (PairOnLink p : pairs) {
            double share = p.phi / totalTokens * targetCapacityBps;
            sum += Bdp.bytes(share, p.baseRttSeconds);          // r^l T (Scenario 2 restart)
            sum += Bdp.bytes(share, p.baseRttSeconds);          // one additive-increase step
        }
        return sum + Bdp.bytes(txBps, maxBaseRttSeconds);
    }

    /** 3 C_l T_max in bytes. */
    public static double limitBytes(double targetCapacityBps, double maxBaseRttSeconds) {
        return 3 * Bdp.bytes(targetCapacityBps, maxBaseRttSeconds);
    }

    /** 3 BDP / C_l + baseRTT = 3 T_max + baseRTT, in seconds. */
    public static double latencyBoundSeconds(double maxBaseRttSeconds, double baseRttSeconds) {
        return 3 * maxBaseRttSeconds + baseRttSeconds;
    }
}
