package org.fairfabric.core.guarantee;

import org.fairfabric.core.model.Checks;

/**
 * What a vFab probe learns about one link l of its path: the target capacity C_l (already eta times
 * the line rate), the total tokens Phi_l and total window W_l of the active pairs on l, the actual
 * transmit rate tx_l and the queue q_l. Units: bit/s for rates, bytes for windows and queues.
 */
public final class LinkFeedback {
    private final double targetCapacityBps;
    private final double totalTokens;
    private final double totalWindowBytes;
    private final double txBps;
    private final double queueBytes;

    public LinkFeedback(double targetCapacityBps, double totalTokens, double totalWindowBytes, double txBps,
                        double queueBytes) {
        this.targetCapacityBps = Checks.positive(targetCapacityBps, "target capacity C_l");
        this.totalTokens = Checks.nonNegative(totalTokens, "total tokens Phi_l");
        this.totalWindowBytes = Checks.nonNegative(totalWindowBytes, "total window W_l");
        this.txBps = Checks.nonNegative(txBps, "tx rate tx_l");
        this.queueBytes = Checks.nonNegative(queueBytes, "queue q_l");
    }

    /** C_l = eta * C_l' (vFab uses eta = 0.95). */
    public static double targetCapacity(double lineRateBps, double eta) {
        Checks.positive(lineRateBps, "line rate");
        if (!(eta > 0 && eta <= 1)) {
            throw new IllegalArgumentException("eta must be in (0, 1], got " + eta);
        }
        return lineRateBps * eta;
    }

    public double targetCapacityBps() {
        return targetCapacityBps;
    }

    public double totalTokens() {
        return totalTokens;
    }

    public double totalWindowBytes() {
        return totalWindowBytes;
    }

    public double txBps() {
        return txBps;
    }

    public double queueBytes() {
        return queueBytes;
    }
}
