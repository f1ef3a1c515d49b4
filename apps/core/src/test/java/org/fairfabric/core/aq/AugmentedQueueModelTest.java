package org.fairfabric.core.aq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.fairfabric.core.aq.AugmentedQueueModel.Verdict;
import org.junit.jupiter.api.Test;

/** augmented-queue.md section 6.7 A (A1-A4, A7) with R in bytes per microsecond. */
class AugmentedQueueModelTest {
    @Test
    void a1DropRestoresTheGapAndKeepsTimeAdvanced() {
        AugmentedQueueModel aq = new AugmentedQueueModel(1, 1200, CongestionSignal.DROP, 0);
        assertEquals(Verdict.PASS, aq.onPacket(0, 1000));
        assertEquals(1000, aq.gapBytes(), 1e-9);
        assertEquals(Verdict.DROP, aq.onPacket(500, 1000));
        assertEquals(500, aq.gapBytes(), 1e-9);
        assertEquals(Verdict.PASS, aq.onPacket(600, 600));
        assertEquals(1000, aq.gapBytes(), 1e-9);
        assertEquals(Verdict.PASS, aq.onPacket(3000, 500));
        assertEquals(500, aq.gapBytes(), 1e-9);
    }

    @Test
    void a2EcnMarksStrictlyAboveTheThreshold() {
        AugmentedQueueModel aq = new AugmentedQueueModel(1, 10_000, CongestionSignal.ECN, 1500);
        assertEquals(Verdict.PASS, aq.onPacket(0, 1000));
        assertEquals(Verdict.MARK, aq.onPacket(200, 1000));
        assertEquals(Verdict.PASS, aq.onPacket(2000, 1000));
    }

    @Test
    void a3VirtualDelayIsGapOverRate() {
        AugmentedQueueModel aq = new AugmentedQueueModel(1, 10_000, CongestionSignal.DELAY, 0);
        aq.onPacket(0, 1000);
        assertEquals(1000, aq.lastVirtualDelayMicros(), 1e-9);
        aq.onPacket(200, 1000);
        assertEquals(1800, aq.lastVirtualDelayMicros(), 1e-9);
        aq.onPacket(2000, 1000);
        assertEquals(1000, aq.lastVirtualDelayMicros(), 1e-9);
    }

    @Test
    void a4OversizedPacketsAlwaysDropAndA7EqualityPasses() {
        AugmentedQueueModel aq = new AugmentedQueueModel(1, 1500, CongestionSignal.DROP, 0);
        assertEquals(Verdict.DROP, aq.onPacket(0, 1600));
        assertEquals(0, aq.gapBytes(), 1e-9);
        assertEquals(Verdict.PASS, aq.onPacket(10, 1500), "gap == limit is not a drop");
        AugmentedQueueModel ecn = new AugmentedQueueModel(1, 10_000, CongestionSignal.ECN, 1500);
        assertEquals(Verdict.PASS, ecn.onPacket(0, 1500), "gap == K is not a mark");
        assertThrows(IllegalArgumentException.class, () -> ecn.onPacket(-1, 100));
    }
}
