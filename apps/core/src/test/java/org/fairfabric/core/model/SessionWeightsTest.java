package org.fairfabric.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class SessionWeightsTest {
    @Test
    void tenantWeightIsSplitOverItsActiveSessionsUnlessExplicit() {
        // tenant a (weight 3) with three sessions, one of them of explicit weight 5; tenant b (1) with one
        assertEquals(1.0, SessionWeights.weight(3, 3, OptionalDouble.empty()), 1e-12);
        assertEquals(5.0, SessionWeights.weight(3, 3, OptionalDouble.of(5)), 1e-12);
        assertEquals(1.0, SessionWeights.weight(1, 1, OptionalDouble.empty()), 1e-12);
        assertEquals(0.75, SessionWeights.weight(3, 4, OptionalDouble.empty()), 1e-12);
    }

    @Test
    void invalidTenantsAndSessionKeysAreErrors() {
        assertThrows(IllegalArgumentException.class, () -> new Tenant("a", "A", 0));
        assertThrows(IllegalArgumentException.class, () -> new SessionKey("h0", "h0"));
    }

    @Test
    void trafficClassesFollowSectionSevenCodes() {
        assertEquals(TrafficClass.LOW_DELAY, TrafficClass.ofTos(0x10));
        assertEquals(TrafficClass.LOW_DELAY, TrafficClass.ofTos(0x12), "ECN bits ignored");
        assertEquals(TrafficClass.HIGH_THROUGHPUT, TrafficClass.ofTos(0x08));
        assertEquals(TrafficClass.BEST_EFFORT, TrafficClass.ofTos(0xb8));
        assertEquals(4, TrafficClass.LOW_DELAY.dscp());
    }
}
