package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MultipathSplitTest {
    static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void twelveTokensOverThreePathsWithOneDemandOfTwo() {
        Map<Integer, Double> out = MultipathSplit.split(12, List.of(new PathDemand(1, 2), new PathDemand(2, INF),
                new PathDemand(3, INF)), 1);
        assertEquals(List.of(4.0, 5.0, 5.0), List.copyOf(out.values()));
    }

    @Test
    void demandIsMeasuredInTokensThroughBu() {
        Map<Integer, Double> out = MultipathSplit.split(12, List.of(new PathDemand(1, 200e6), new PathDemand(2, INF),
                new PathDemand(3, INF)), 100e6);
        assertEquals(4.0, out.get(1), 1e-12);
        assertEquals(5.0, out.get(2), 1e-12);
    }

    @Test
    void allPathsBoundedKeepTheEvenShare() {
        Map<Integer, Double> out = MultipathSplit.split(12, List.of(new PathDemand(1, 0), new PathDemand(2, 1)), 1);
        assertEquals(6.0, out.get(1), 1e-12);
        assertEquals(6.0, out.get(2), 1e-12);
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> MultipathSplit.split(1, List.of(), 1));
        assertThrows(IllegalArgumentException.class,
                () -> MultipathSplit.split(1, List.of(new PathDemand(1, 1), new PathDemand(1, 1)), 1));
        assertThrows(IllegalArgumentException.class, () -> new PathDemand(0, 1));
    }
}
