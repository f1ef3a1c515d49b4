package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SolveCheckpointTest {
    /** Counts the checkpoints reached, each on the solving thread. */
    static final class Counting implements SolveCheckpoint {
        final AtomicInteger reached = new AtomicInteger();
        final Thread solving = Thread.currentThread();

        @Override
        public void reached() {
            assertEquals(solving, Thread.currentThread());
            reached.incrementAndGet();
        }
    }

    @ParameterizedTest(name = "k={0}, {1} sessions, {2} paths, the lazy-link method then interior point when needed")
    @CsvSource({"4, 40, 4", "8, 300, 4", "8, 300, 8"})
    void everyMethodReachesItsCheckpointsAndTheyChangeNothing(int k, int sessions, int paths) throws Exception {
        AllocationProblem pb = new FatTreeGenerator(k, sessions, paths, 7).generate();
        Allocation plain = new ExactAllocator(1e-6, 200).solve(pb);
        Counting counting = new Counting();
        Allocation checked = new ExactAllocator(1e-6, 200, counting).solve(pb);
        assertArrayEquals(plain.pathRates(), checked.pathRates());
        assertTrue(counting.reached.get() >= checked.iterations(), counting.reached + " checkpoints, " + checked.iterations() + " iterations");
    }

    @ParameterizedTest(name = "interior point alone, {0}")
    @CsvSource({"fast, true", "classic, false"})
    void theInteriorPointMethodReachesOneCheckpointPerStepAndConjugateGradientIteration(String name, boolean fast) throws Exception {
        AllocationProblem pb = new FatTreeGenerator(8, 300, 8, 11).generate();
        Counting counting = new Counting();
        Allocation a = new InteriorPointSolver(pb, 1e-6, 200, fast, counting).solve(null);
        Allocation plain = new InteriorPointSolver(pb, 1e-6, 200, fast).solve(null);
        assertArrayEquals(plain.pathRates(), a.pathRates());
        assertTrue(counting.reached.get() > a.iterations(), counting.reached + " checkpoints, " + a.iterations() + " iterations");
    }
}
