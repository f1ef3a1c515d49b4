package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Digest §10 T3 (golden traces of Algorithm 1) and T4 (its invariants). */
class PaperAllocatorTest {
    private static final double EPS = 1e-6;

    @Test
    void singleLinkTrace() {
        Allocation a = new PaperAllocator().solve(Problems.singleLink(1.0, 1, 2, 3));
        assertEquals(2, a.iterations());
        assertEquals(0.210574, a.sessionRate(0), EPS);
        assertEquals(0.254482, a.sessionRate(1), EPS);
        assertEquals(0.298390, a.sessionRate(2), EPS);
        assertEquals(2.530558, a.linkPrice(0), EPS);
    }

    @Test
    void parkingLotTrace() {
        Allocation a = new PaperAllocator().solve(Problems.parkingLot(3, 1.0, 1));
        assertEquals(7, a.iterations());
        assertEquals(0.165246, a.sessionRate(0), EPS);
        for (int j = 1; j <= 3; j++) {
            assertEquals(0.218907, a.sessionRate(j), EPS);
        }
    }

    @Test
    void twoPathsTraceWithInitialRateOnOnePath() {
        Allocation a = new PaperAllocator().solve(Problems.twoPathsOneShared(1.0));
        assertEquals(3, a.iterations());
        assertEquals(0.298460, a.pathRate(0), EPS);
        assertEquals(0.096920, a.pathRate(1), EPS);
        assertEquals(0.298460, a.pathRate(2), EPS);
    }

    @Test
    void twoPathsTraceWithInitialRateOnAllPaths() {
        Allocation a = new PaperAllocator(true, 0).solve(Problems.twoPathsOneShared(1.0));
        assertEquals(3, a.iterations());
        assertEquals(0.298460, a.pathRate(0), EPS);
        assertEquals(0.346920, a.pathRate(1), EPS);
        assertEquals(0.298460, a.pathRate(2), EPS);
    }

    @Test
    void invariantsHoldOnRandomFatTrees() {
        for (long seed = 1; seed <= 5; seed++) {
            AllocationProblem pb = new FatTreeGenerator(4, 10, 4, seed).generate();
            double[][] previous = new double[2][];
            PaperAllocator.Observer check = (t, rates, prices, loads) -> {
                if (previous[0] != null) {
                    for (int p = 0; p < rates.length; p++) {
                        assertTrue(rates[p] >= previous[0][p], "rates never decrease");
                    }
                    for (int e = 0; e < prices.length; e++) {
                        assertTrue(prices[e] >= previous[1][e], "prices never decrease");
                    }
                }
                for (double load : loads) {
                    assertTrue(load <= 1 + 1e-12, "no link above capacity with r0 on one path");
                }
                previous[0] = rates;
                previous[1] = prices;
            };
            Allocation a = new PaperAllocator().solve(pb, check);
            assertTrue(a.converged(), "terminates");
            // At the end every session's cheapest path costs at least 1.
            for (int i = 0; i < pb.sessionCount(); i++) {
                double best = Double.POSITIVE_INFINITY;
                for (int p = pb.firstPath(i); p < pb.endPath(i); p++) {
                    double l = 0;
                    for (int k = 0; k < pb.pathLength(p); k++) {
                        l += a.linkPrice(pb.pathLink(p, k));
                    }
                    best = Math.min(best, l);
                }
                assertTrue(best >= 1, "session " + i + " stopped with l(p*) = " + best);
            }
        }
    }

    /** The paper's convergence experiment: k=4 fat-tree, 4 sessions × 2 paths (paper: 35). */
    @Test
    void fatTreeFourSessionsTwoPathsConvergesInAboutThePapersIterationCount() {
        StringBuilder report = new StringBuilder();
        for (long seed = 1; seed <= 5; seed++) {
            AllocationProblem pb = new FatTreeGenerator(4, 4, 2, seed, 1.0, 0, 0).generate();
            int directed = new PaperAllocator().solve(pb).iterations();
            int undirected = new PaperAllocator(false, pb.linkCount() / 2).solve(pb).iterations();
            report.append(String.format("seed %d: %d iterations (m=%d directed), %d (m=%d undirected)%n",
                    seed, directed, pb.linkCount(), undirected, pb.linkCount() / 2));
            assertTrue(directed >= 20 && directed <= 50, report.toString());
            assertTrue(undirected >= 20 && undirected <= 50, report.toString());
        }
        System.out.print("paper mode, k=4, 4 sessions x 2 paths (paper: 35)\n" + report);
    }
}
