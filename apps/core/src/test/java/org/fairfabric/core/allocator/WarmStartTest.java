package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A warm re-solve after a change gives the cold answer on the new problem, in fewer iterations. */
class WarmStartTest {
    private static final double TOL = 1e-8;

    private static void assertSameRates(Allocation cold, Allocation warm) {
        AllocationProblem pb = cold.problem();
        for (int i = 0; i < pb.sessionCount(); i++) {
            assertEquals(cold.sessionRate(i), warm.sessionRate(i), 1e-3 * cold.sessionRate(i), pb.sessionId(i));
        }
    }

    @Test
    void sessionLeaving() throws Exception {
        AllocationProblem before = new FatTreeGenerator(8, 200, 4, 11).generate();
        ExactAllocator allocator = new ExactAllocator(TOL, 200);
        Allocation previous = allocator.solve(before);
        AllocationProblem after = before.withoutSession(17);
        Allocation cold = allocator.solve(after);
        Allocation warm = allocator.solve(after, previous.warmStart());
        assertTrue(warm.converged() && warm.relativeGap() <= TOL);
        assertSameRates(cold, warm);
        assertTrue(warm.iterations() < cold.iterations(),
                "warm " + warm.iterations() + " vs cold " + cold.iterations() + " iterations");

        // The controller chains warm starts: departures one after another.
        Allocation chained = warm;
        AllocationProblem current = after;
        for (int leaving : new int[] {40, 90, 3}) {
            current = current.withoutSession(leaving);
            chained = allocator.solve(current, chained.warmStart());
            Allocation reference = allocator.solve(current);
            assertSameRates(reference, chained);
            assertTrue(chained.iterations() <= reference.iterations(),
                    "chained warm " + chained.iterations() + " vs cold " + reference.iterations());
        }
    }

    @Test
    void sessionArrivingAndWeightChanging() throws Exception {
        AllocationProblem base = new FatTreeGenerator(4, 12, 4, 7).generate();
        AllocationProblem fewer = base.withoutSession(3);
        ExactAllocator allocator = new ExactAllocator(TOL, 200);
        Allocation previous = allocator.solve(fewer);
        // The full problem has session 3 back (an arrival).
        Allocation warm = allocator.solve(base, previous.warmStart());
        assertSameRates(allocator.solve(base), warm);

        // Same sessions, the weight of the slowest uncapped session quadrupled.
        int heavier = -1;
        for (int i = 0; i < base.sessionCount(); i++) {
            if (base.demand(i) == AllocationProblem.NO_DEMAND
                    && (heavier < 0 || warm.sessionRate(i) < warm.sessionRate(heavier))) {
                heavier = i;
            }
        }
        AllocationProblemBuilder b = new AllocationProblemBuilder();
        for (int e = 0; e < base.linkCount(); e++) {
            b.addLink(base.linkId(e), base.capacity(e));
        }
        for (int i = 0; i < base.sessionCount(); i++) {
            int[][] paths = new int[base.endPath(i) - base.firstPath(i)][];
            for (int p = base.firstPath(i); p < base.endPath(i); p++) {
                paths[p - base.firstPath(i)] = new int[base.pathLength(p)];
                for (int k = 0; k < base.pathLength(p); k++) {
                    paths[p - base.firstPath(i)][k] = base.pathLink(p, k);
                }
            }
            double w = i == heavier ? 4 * base.weight(i) : base.weight(i);
            b.addSessionByIndex(base.sessionId(i), w, base.demand(i), base.minRate(i), paths);
        }
        AllocationProblem reweighted = b.build();
        Allocation warmAgain = allocator.solve(reweighted, warm.warmStart());
        Allocation cold = allocator.solve(reweighted);
        assertSameRates(cold, warmAgain);
        assertTrue(cold.sessionRate(heavier) > 1.5 * warm.sessionRate(heavier), "a heavier session gets more");
    }
}
