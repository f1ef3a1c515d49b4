package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** vFab App. B, Fig. 22, with phi^alpha = 1 and B_u = 1 bit/s per token (demand in tokens). */
class TokenAssignmentTest {
    static final double INF = Double.POSITIVE_INFINITY;
    static final double UNBOUND = TokenAdmission.UNBOUND;

    @Test
    void figure22aSenderSplitsEvenlyAndReceiverIsMaxMin() {
        Map<String, TokenShare> a1 = TokenAssignment.assign(1, List.of(
                new SenderPair("a1-a4", INF, UNBOUND), new SenderPair("a1-a5", INF, UNBOUND),
                new SenderPair("a1-a6", INF, UNBOUND)), 1);
        assertEquals(1.0 / 3, a1.get("a1-a4").advertised(), 1e-12);
        assertEquals(1.0 / 3, a1.get("a1-a6").advertised(), 1e-12);
        Map<String, TokenShare> a2 = TokenAssignment.assign(1, List.of(new SenderPair("a2-a6", INF, UNBOUND)), 1);
        assertEquals(1.0, a2.get("a2-a6").advertised(), 1e-12);

        Map<String, Double> asks = new LinkedHashMap<>();
        asks.put("a2-a6", 1.0);
        asks.put("a1-a6", 1.0 / 3);
        Map<String, Double> a6 = TokenAdmission.admit(1, asks);
        assertEquals(UNBOUND, a6.get("a1-a6"));
        assertEquals(2.0 / 3, a6.get("a2-a6"), 1e-12);
    }

    @Test
    void figure22bDemandBoundedPairRedistributes() {
        Map<String, TokenShare> a1 = TokenAssignment.assign(1, List.of(
                new SenderPair("a1-a4", 0.1, UNBOUND), new SenderPair("a1-a5", INF, UNBOUND),
                new SenderPair("a1-a6", INF, UNBOUND)), 1);
        assertEquals(0.1, a1.get("a1-a4").advertised(), 1e-12);
        assertEquals(1.0 / 3, a1.get("a1-a4").local(), 1e-12, "sender still admits the fair share locally");
        assertEquals(0.45, a1.get("a1-a5").advertised(), 1e-12);
        assertEquals(0.45, a1.get("a1-a6").advertised(), 1e-12);

        Map<String, Double> asks = new LinkedHashMap<>();
        asks.put("a2-a6", 1.0);
        asks.put("a1-a6", 0.45);
        Map<String, Double> a6 = TokenAdmission.admit(1, asks);
        assertEquals(UNBOUND, a6.get("a1-a6"));
        assertEquals(0.55, a6.get("a2-a6"), 1e-12);

        // a2's sender: its only pair is receiver-bounded; N_S - N' = 0 must not divide by zero.
        Map<String, TokenShare> a2 = TokenAssignment.assign(1, List.of(new SenderPair("a2-a6", INF, 0.55)), 1);
        assertEquals(0.55, a2.get("a2-a6").advertised(), 1e-12);
        assertEquals(0.55, a2.get("a2-a6").local(), 1e-12);
    }

    @Test
    void zeroDemandIsNotMistakenForUnassigned() {
        Map<String, TokenShare> s = TokenAssignment.assign(1, List.of(
                new SenderPair("idle", 0, UNBOUND), new SenderPair("busy", INF, UNBOUND)), 1);
        assertEquals(0.0, s.get("idle").advertised(), 1e-12);
        assertEquals(1.0, s.get("busy").advertised(), 1e-12);
    }

    @Test
    void everyPairBoundedLeavesTokensUnusedWithoutDividingByZero() {
        Map<String, TokenShare> s = TokenAssignment.assign(1, List.of(
                new SenderPair("x", 0.1, UNBOUND), new SenderPair("y", 0.2, UNBOUND)), 1);
        assertEquals(0.1, s.get("x").advertised(), 1e-12);
        assertEquals(0.2, s.get("y").advertised(), 1e-12);
        Map<String, Double> all = TokenAdmission.admit(1, Map.of("x", 0.1, "y", 0.2));
        assertEquals(UNBOUND, all.get("x"));
        assertEquals(UNBOUND, all.get("y"));
    }

    @Test
    void receiverWalksTheSortedListWhateverTheInputOrder() {
        Map<String, Double> asks = new LinkedHashMap<>();
        asks.put("big", 0.9);
        asks.put("mid", 0.3);
        asks.put("small", 0.1);
        Map<String, Double> out = TokenAdmission.admit(1, asks);
        // fair 1/3: small unbound (+0.1167 each), then mid 0.3 < 0.45 unbound, big gets 0.6.
        assertEquals(UNBOUND, out.get("small"));
        assertEquals(UNBOUND, out.get("mid"));
        assertEquals(0.6, out.get("big"), 1e-12);
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> TokenAssignment.assign(0, List.of(), 1));
        assertThrows(IllegalArgumentException.class, () -> TokenAssignment.assign(1,
                List.of(new SenderPair("x", 1, 1), new SenderPair("x", 1, 1)), 1));
        assertThrows(IllegalArgumentException.class, () -> new SenderPair("x", -1, 1));
        assertThrows(IllegalArgumentException.class, () -> TokenAdmission.admit(1, Map.of("x", -1.0)));
    }
}
