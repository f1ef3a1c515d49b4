package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** vfab.md section 5.5 test 12 (aggregation idempotence, finish, ageing) on the reference model. */
class LinkDemandSummaryTest {
    @Test
    void repeatedProbesDoNotGrowTheSummaryAndFinishAndAgeingRemovePairs() {
        LinkDemandSummary l = new LinkDemandSummary(10_000);
        for (int i = 0; i < 100; i++) {
            l.onProbe("A", 10, 8, i);
            l.onProbe("B", 20, 16, i);
        }
        assertEquals(30, l.totalTokens(), 1e-12);
        assertEquals(24, l.totalWindowBytes(), 1e-12);
        l.onProbe("A", 10, 12, 200);
        assertEquals(28, l.totalWindowBytes(), 1e-12);
        assertTrue(l.onFinish("A"));
        assertFalse(l.onFinish("A"));
        assertEquals(20, l.totalTokens(), 1e-12);
        assertEquals(16, l.totalWindowBytes(), 1e-12);
        assertEquals(List.of(), l.age(10_099), "B's last probe at 99 ms is exactly 10 s old");
        assertEquals(List.of("B"), l.age(10_100));
        assertEquals(0, l.totalTokens(), 1e-12);
        assertEquals(0, l.totalWindowBytes(), 1e-12);
    }
}
