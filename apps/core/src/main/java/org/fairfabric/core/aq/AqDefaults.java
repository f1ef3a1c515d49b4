package org.fairfabric.core.aq;

import org.fairfabric.core.model.Checks;

/**
 * Default AQ limit and ECN threshold when the request does not set them (the paper leaves both
 * open). limit = max(PQ limit * R/C, 8 MTU): the physical queue's buffer split in proportion to the
 * rate, with a floor so low-rate AQs can still pass bursts. ECN threshold = max(K_PQ * R/C,
 * R * RTT / 7): the physical queue's marking threshold scaled the same way, floored at the DCTCP
 * guideline. A request's limit below one MTU is refused: every packet would be dropped.
 */
public final class AqDefaults {
    private final long pqLimitBytes;
    private final long pqEcnThresholdBytes;
    private final int mtuBytes;
    private final double baseRttSeconds;

    public AqDefaults(long pqLimitBytes, long pqEcnThresholdBytes, int mtuBytes, double baseRttSeconds) {
        this.pqLimitBytes = Checks.positive(pqLimitBytes, "physical queue limit (bytes)");
        this.pqEcnThresholdBytes = Checks.positive(pqEcnThresholdBytes, "physical queue ECN threshold (bytes)");
        this.mtuBytes = (int) Checks.positive(mtuBytes, "MTU (bytes)");
        this.baseRttSeconds = Checks.positive(baseRttSeconds, "base RTT");
    }

    public int mtuBytes() {
        return mtuBytes;
    }

    public long limitBytes(double rateBps, double capacityBps) {
        return Math.max(Math.round(pqLimitBytes * rateBps / capacityBps), 8L * mtuBytes);
    }

    public long ecnThresholdBytes(double rateBps, double capacityBps) {
        long scaled = Math.round(pqEcnThresholdBytes * rateBps / capacityBps);
        long dctcp = Math.round(rateBps / 8 * baseRttSeconds / 7);
        return Math.max(scaled, dctcp);
    }
}
