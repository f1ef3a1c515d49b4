package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SegmentLossTest {
    @Test
    void aclDropsAreNotFaults() {
        assertEquals(0.08, SegmentLoss.lossRate(new long[] {100, 0, 0}, new long[] {90, 0, 2}), 1e-12);
        assertEquals(0.02, SegmentLoss.lossRate(new long[] {100, 0, 0}, new long[] {96, 0, 2}), 1e-12);
        assertEquals(0.0, SegmentLoss.lossRate(new long[] {100, 0, 0}, new long[] {101, 0, 2}), "clamped");
        assertEquals(0.0, SegmentLoss.lossRate(new long[] {0, 0, 0}, new long[] {0, 0, 0}));
    }

    @Test
    void failsAfterConsecutiveBadBatchesAndRecoversAfterGoodOnes() {
        SegmentLoss s = new SegmentLoss(0.05, 2, 3);
        long[] up = {100, 0, 0};
        assertFalse(s.onBatch(up, new long[] {90, 0, 2}));
        assertTrue(s.onBatch(up, new long[] {90, 0, 2}));
        assertTrue(s.onBatch(up, new long[] {95, 0, 0}), "exactly 5% is not above the threshold, but one good batch is not enough");
        assertTrue(s.onBatch(up, new long[] {100, 0, 0}));
        assertFalse(s.onBatch(up, new long[] {100, 0, 0}));
        assertFalse(s.onEchoLost());
        assertTrue(s.onEchoLost());
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> SegmentLoss.lossRate(new long[] {1}, new long[] {1, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> new SegmentLoss(5, 1, 1));
    }
}
