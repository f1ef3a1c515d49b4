package org.fairfabric.core.guarantee;

import org.fairfabric.core.model.Checks;

/**
 * vFab data-plane failure detection for one link segment (section III-E / IV-B). The upstream
 * meter UM and downstream meter DM each count [passed, TTL drops, ACL drops] per echo batch; the
 * fault loss excludes non-fault drops: loss = (UM.pass - UM.ttl - UM.acl) - (DM.pass + DM.ttl +
 * DM.acl), rate = loss / (UM.pass - UM.ttl - UM.acl), clamped at 0. A batch is bad when the rate is
 * strictly above the threshold (5%); the paper's "sufficiently long time" becomes
 * {@code failAfterBatches} consecutive bad batches, and its recovery "long time"
 * {@code recoverAfterBatches} consecutive good ones.
 */
public final class SegmentLoss {
    private final double threshold;
    private final int failAfterBatches;
    private final int recoverAfterBatches;
    private boolean failed;
    private int badRun;
    private int goodRun;

    public SegmentLoss(double threshold, int failAfterBatches, int recoverAfterBatches) {
        if (!(threshold > 0 && threshold < 1)) {
            throw new IllegalArgumentException("loss threshold must be in (0, 1), got " + threshold);
        }
        this.threshold = threshold;
        this.failAfterBatches = (int) Checks.positive(failAfterBatches, "batches before failure");
        this.recoverAfterBatches = (int) Checks.positive(recoverAfterBatches, "batches before recovery");
    }

    /** The fault loss rate of one batch, in [0, 1]. */
    public static double lossRate(long[] upstream, long[] downstream) {
        if (upstream == null || downstream == null || upstream.length != 3 || downstream.length != 3) {
            throw new IllegalArgumentException("meters are [passed, ttl drops, acl drops]");
        }
        for (int i = 0; i < 3; i++) {
            Checks.nonNegative(upstream[i], "upstream meter");
            Checks.nonNegative(downstream[i], "downstream meter");
        }
        long sent = upstream[0] - upstream[1] - upstream[2];
        if (sent <= 0) {
            return 0;
        }
        long lost = sent - (downstream[0] + downstream[1] + downstream[2]);
        return lost <= 0 ? 0 : (double) lost / sent;
    }

    /** Feed one batch; returns whether the segment is considered failed afterwards. */
    public boolean onBatch(long[] upstream, long[] downstream) {
        boolean bad = lossRate(upstream, downstream) > threshold;
        if (bad) {
            badRun++;
            goodRun = 0;
        } else {
            goodRun++;
            badRun = 0;
        }
        if (!failed && badRun >= failAfterBatches) {
            failed = true;
        } else if (failed && goodRun >= recoverAfterBatches) {
            failed = false;
        }
        return failed;
    }

    /** A lost echo request means no reply: the paper treats it as a failed batch. */
    public boolean onEchoLost() {
        return onBatch(new long[] {1, 0, 0}, new long[] {0, 0, 0});
    }

    public boolean failed() {
        return failed;
    }
}
