package org.fairfabric.controller.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
    @Test
    void nearestRankPercentiles() {
        LatencyRecorder r = new LatencyRecorder();
        assertTrue(Double.isNaN(r.percentileMillis(50)));
        for (int ms = 100; ms >= 1; ms--) {
            r.record(ms * 1_000_000L);
        }
        assertEquals(50.0, r.percentileMillis(50));
        assertEquals(99.0, r.percentileMillis(99));
        assertEquals(100.0, r.percentileMillis(100));
        assertEquals(1.0, r.percentileMillis(0.5));
        assertEquals("n=100 p50=50.00 ms p99=99.00 ms max=100.00 ms", r.summary());
        assertThrows(IllegalArgumentException.class, () -> r.percentileMillis(0));
    }
}
