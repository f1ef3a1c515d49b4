package org.fairfabric.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class SessionWeightsTest {
    @Test
    void tenantWeightIsSplitOverItsActiveSessionsUnlessExplicit() {
        Map<String, Tenant> tenants = Map.of("a", new Tenant("a", "A", 3), "b", new Tenant("b", "B", 1));
        Session a1 = new Session(new SessionKey("h0", "h1"), "a");
        Session a2 = new Session(new SessionKey("h0", "h2"), "a");
        Session a3 = new Session(new SessionKey("h1", "h2"), "a", OptionalDouble.of(5), TrafficClass.LOW_DELAY);
        Session b1 = new Session(new SessionKey("h3", "h4"), "b");
        Map<SessionKey, Double> w = SessionWeights.compute(tenants, List.of(a1, a2, a3, b1));
        assertEquals(1.0, w.get(a1.key()), 1e-12);
        assertEquals(1.0, w.get(a2.key()), 1e-12);
        assertEquals(5.0, w.get(a3.key()), 1e-12);
        assertEquals(1.0, w.get(b1.key()), 1e-12);
    }

    @Test
    void unknownTenantAndDuplicatesAreErrors() {
        Map<String, Tenant> tenants = Map.of("a", new Tenant("a", "A", 3));
        Session x = new Session(new SessionKey("h0", "h1"), "zz");
        assertThrows(IllegalArgumentException.class, () -> SessionWeights.compute(tenants, List.of(x)));
        Session a = new Session(new SessionKey("h0", "h1"), "a");
        assertThrows(IllegalArgumentException.class, () -> SessionWeights.compute(tenants, List.of(a, a)));
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
