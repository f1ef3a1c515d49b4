package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** vfab.md 5.5 test 18 in numbers: subscriptions 90%, 80%, 40% of C'; F4 asks 20% of C'. */
class PathSelectionTest {
    static final double CPRIME = 10e9;
    static final double C = 9.5e9;
    static final double BU = 100e6;

    private static CandidatePath path(int id, double subscribedFraction, double utilization) {
        double tokens = subscribedFraction * CPRIME / BU;
        return new CandidatePath(id, List.of(new LinkFeedback(C, tokens, 20_000, utilization * CPRIME, 0)));
    }

    @Test
    void onlyTheLightlySubscribedPathQualifies() {
        List<CandidatePath> paths = List.of(path(1, 0.9, 0.8), path(2, 0.8, 0.9), path(3, 0.4, 1.0));
        PathSelection s = new PathSelection(BU, () -> 0.99);
        double phi = 0.2 * CPRIME / BU;
        assertEquals(1, s.qualified(phi, paths, 0).size());
        assertEquals(3, s.choose(phi, paths, 0).get().pathId());
        assertTrue(s.choose(80, paths, 0).isEmpty(), "nobody fits 8 Gbps more");
    }

    @Test
    void drawIsWeightedBySpareCapacity() {
        // spare: path 1 = 9.5 - (10+5)*0.1 = 8 Gbps, path 2 = 9.5 - (70+5)*0.1 = 2 Gbps.
        List<CandidatePath> paths = List.of(path(1, 0.1, 0), path(2, 0.7, 0));
        PathSelection low = new PathSelection(BU, () -> 0.79);
        PathSelection high = new PathSelection(BU, () -> 0.81);
        assertEquals(1, low.choose(5, paths, 0).get().pathId());
        assertEquals(2, high.choose(5, paths, 0).get().pathId());
    }

    @Test
    void bestPathHasTheLargestEquationThreeWindow() {
        List<CandidatePath> paths = List.of(
                new CandidatePath(1, List.of(new LinkFeedback(C, 10, 20_000, 9.5e9, 0))),
                new CandidatePath(2, List.of(new LinkFeedback(C, 10, 20_000, 2e9, 0))));
        assertEquals(2, new PathSelection(BU, () -> 0).best(2, paths, 1, 24e-6).get().pathId());
    }
}
