package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class MigrationPolicyTest {
    static final double RTT = 1e-3;

    @Test
    void failureMigratesAtOnceEvenWhenFrozen() {
        MigrationPolicy p = MigrationPolicy.withPaperDefaults(RTT, () -> 0.5);
        p.recordMigration("a", "h1", 0);
        assertEquals(Optional.of(MigrationReason.FAILURE), p.evaluate("a", "h1", 0.0001, true, false, false));
    }

    @Test
    void violationMustPersistFiveRtts() {
        MigrationPolicy p = MigrationPolicy.withPaperDefaults(RTT, () -> 0.0);
        assertEquals(Optional.empty(), p.evaluate("a", "h1", 0, false, true, false));
        assertEquals(Optional.empty(), p.evaluate("a", "h1", 4.9 * RTT, false, true, false));
        assertEquals(Optional.of(MigrationReason.GUARANTEE_VIOLATION), p.evaluate("a", "h1", 5 * RTT, false, true, false));
        assertEquals(Optional.empty(), p.evaluate("b", "h2", 0, false, true, false));
        assertEquals(Optional.empty(), p.evaluate("b", "h2", 3 * RTT, false, false, false), "violation ended");
        assertEquals(Optional.empty(), p.evaluate("b", "h2", 6 * RTT, false, true, false), "timer restarted");
    }

    @Test
    void betterPathMustPersistThirtySeconds() {
        MigrationPolicy p = MigrationPolicy.withPaperDefaults(RTT, () -> 0.0);
        assertEquals(Optional.empty(), p.evaluate("a", "h1", 0, false, false, true));
        assertEquals(Optional.empty(), p.evaluate("a", "h1", 29.9, false, false, true));
        assertEquals(Optional.of(MigrationReason.BETTER_PATH), p.evaluate("a", "h1", 30, false, false, true));
    }

    @Test
    void oneMigrationPerHostPerRandomFreezeWindow() {
        MigrationPolicy p = MigrationPolicy.withPaperDefaults(RTT, () -> 0.5);
        p.evaluate("a", "h1", 0, false, true, false);
        p.evaluate("b", "h1", 0, false, true, false);
        assertEquals(Optional.of(MigrationReason.GUARANTEE_VIOLATION), p.evaluate("a", "h1", 5 * RTT, false, true, false));
        double until = p.recordMigration("a", "h1", 5 * RTT);
        assertEquals(5 * RTT + 5.5 * RTT, until, 1e-12, "1 + 0.5 * (10 - 1) = 5.5 RTTs");
        assertTrue(p.isFrozen("h1", 6 * RTT));
        assertEquals(Optional.empty(), p.evaluate("b", "h1", 6 * RTT, false, true, false), "other pair of the host waits");
        assertFalse(p.isFrozen("h2", 6 * RTT), "the freeze is per host");
        assertFalse(p.isFrozen("h1", 10.5 * RTT));
        assertEquals(Optional.of(MigrationReason.GUARANTEE_VIOLATION), p.evaluate("b", "h1", 10.5 * RTT, false, true, false));
        assertEquals(Optional.empty(), p.evaluate("a", "h1", 10.5 * RTT, false, true, false), "a's timer restarted");
    }
}
