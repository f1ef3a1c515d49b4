package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AllocationProblemBuilderTest {
    /** A size hint changes how the builder grows, never the problem: too small, exact or too large. */
    @Test
    void theSizeHintLeavesTheProblemAsItIs() {
        AllocationProblem plain = build(new AllocationProblemBuilder());
        assertEquals(plain, build(new AllocationProblemBuilder(1, 1, 1, 1)));
        assertEquals(plain, build(new AllocationProblemBuilder(40, 300, 900, 2700)));
        assertEquals(plain, build(new AllocationProblemBuilder(4000, 30_000, 90_000, 270_000)));
    }

    private static AllocationProblem build(AllocationProblemBuilder b) {
        for (int e = 0; e < 40; e++) {
            b.addLink("l" + e, 1e6 * (1 + e % 3));
        }
        for (int i = 0; i < 300; i++) {
            int paths = 1 + i % 3;
            int[][] rows = new int[paths][];
            for (int j = 0; j < paths; j++) {
                rows[j] = new int[] {(i + j) % 40, (i * 7 + j + 1) % 40, (i * 13 + 2 * j + 2) % 40};
            }
            b.addSessionByIndex("s" + i, 1 + i % 4, i % 5 == 0 ? 5e5 : AllocationProblem.NO_DEMAND, i % 7 == 0 ? 1e3 : 0, rows);
        }
        return b.build();
    }
}
