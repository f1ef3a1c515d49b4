package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntToDoubleFunction;
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
        AllocationProblem reweighted = withWeight(base, heavier, 4 * base.weight(heavier));
        Allocation warmAgain = allocator.solve(reweighted, warm.warmStart());
        Allocation cold = allocator.solve(reweighted);
        assertSameRates(cold, warmAgain);
        assertTrue(cold.sessionRate(heavier) > 1.5 * warm.sessionRate(heavier), "a heavier session gets more");
    }

    // On a fabric the lazy-link method solves with incremental warm starts (loads, split and
    // classes carried over): every warm answer must be certified on the whole problem, feasible
    // by an independent sum of its path rates, and agree with a cold solve.

    /** Tight enough that single session rates are pinned down (a gap bounds only their weighted sum). */
    private static final double FINE_TOL = 1e-6;
    /** The benchmark's tolerance. */
    private static final double BENCH_TOL = 1e-4;

    /** Loads summed afresh from the path rates, independently of the solver's own bookkeeping. */
    private static double[] independentLoads(Allocation a) {
        AllocationProblem pb = a.problem();
        double[] load = new double[pb.linkCount()];
        for (int p = 0; p < pb.pathCount(); p++) {
            for (int k = 0; k < pb.pathLength(p); k++) {
                load[pb.pathLink(p, k)] += a.pathRate(p);
            }
        }
        return load;
    }

    private static void assertCertifiedAndFeasible(Allocation a, String what) {
        AllocationProblem pb = a.problem();
        assertTrue(a.converged() && a.relativeGap() <= a.tolerance(), what + ": gap " + a.relativeGap());
        assertTrue(AllocationChecks.relativeDualityGap(a) <= a.tolerance() * (1 + 1e-6),
                what + ": independent gap " + AllocationChecks.relativeDualityGap(a));
        assertTrue(AllocationChecks.maxSessionBoundViolation(a) <= a.tolerance(), what + ": session bounds");
        for (int i = 0; i < pb.sessionCount(); i++) {
            double x = 0;
            for (int p = pb.firstPath(i); p < pb.endPath(i); p++) {
                assertTrue(a.pathRate(p) >= 0, what + ": negative path rate");
                x += a.pathRate(p);
            }
            assertEquals(x, a.sessionRate(i), 1e-12 * x, what + ": session rate of " + pb.sessionId(i));
        }
        double[] load = independentLoads(a);
        for (int e = 0; e < pb.linkCount(); e++) {
            double c = pb.capacity(e);
            assertTrue(load[e] <= c * (1 + 1e-12), what + ": " + pb.linkId(e) + " overloaded " + load[e] / c);
            assertEquals(load[e], a.linkLoad(e), 1e-9 * c, what + ": reported load of " + pb.linkId(e));
        }
    }

    /** Same utility within the tolerance; same session rates too when {@code perSession}. */
    private static void assertCloseToCold(Allocation cold, Allocation warm, boolean perSession, String what) {
        AllocationProblem pb = cold.problem();
        assertEquals(pb.sessionCount(), warm.problem().sessionCount());
        for (int i = 0; i < pb.sessionCount() && perSession; i++) {
            assertEquals(pb.sessionId(i), warm.problem().sessionId(i));
            assertEquals(cold.sessionRate(i), warm.sessionRate(i), 1e-2 * cold.sessionRate(i),
                    what + ": " + pb.sessionId(i));
        }
        // Both are within the tolerance of the optimum, so of each other.
        double coldUtility = 0;
        double warmUtility = 0;
        for (int i = 0; i < pb.sessionCount(); i++) {
            coldUtility += pb.weight(i) * Math.log(cold.sessionRate(i));
            warmUtility += pb.weight(i) * Math.log(warm.sessionRate(i));
        }
        double sumW = 0;
        for (int i = 0; i < pb.sessionCount(); i++) {
            sumW += pb.weight(i);
        }
        assertEquals(coldUtility / sumW, warmUtility / sumW, 2 * cold.tolerance(), what + ": utility");
    }

    private static AllocationProblem withWeight(AllocationProblem base, int session, double weight) {
        return rebuilt(base, base::capacity, i -> i == session ? weight : base.weight(i));
    }

    /** {@code base} with link capacities and session weights given per index. */
    private static AllocationProblem rebuilt(AllocationProblem base, IntToDoubleFunction capacity,
                                             IntToDoubleFunction weight) {
        AllocationProblemBuilder b = new AllocationProblemBuilder();
        for (int e = 0; e < base.linkCount(); e++) {
            b.addLink(base.linkId(e), capacity.applyAsDouble(e));
        }
        for (int i = 0; i < base.sessionCount(); i++) {
            int[][] paths = new int[base.endPath(i) - base.firstPath(i)][];
            for (int p = base.firstPath(i); p < base.endPath(i); p++) {
                paths[p - base.firstPath(i)] = new int[base.pathLength(p)];
                for (int k = 0; k < base.pathLength(p); k++) {
                    paths[p - base.firstPath(i)][k] = base.pathLink(p, k);
                }
            }
            b.addSessionByIndex(base.sessionId(i), weight.applyAsDouble(i), base.demand(i), base.minRate(i), paths);
        }
        return b.build();
    }

    @Test
    void warmDepartureOnAFabricIsCertifiedAndMatchesCold() throws Exception {
        AllocationProblem pb = new FatTreeGenerator(8, 1_000, 4, 3).generate();
        ExactAllocator allocator = new ExactAllocator(FINE_TOL, 200);
        Allocation previous = allocator.solve(pb);
        AllocationProblem after = pb.withoutSession(500);
        Allocation warm = allocator.solve(after, previous.warmStart());
        assertCertifiedAndFeasible(warm, "departure");
        assertCloseToCold(allocator.solve(after), warm, true, "departure");
    }

    @Test
    void warmArrivalOnAFabricIsCertifiedAndMatchesCold() throws Exception {
        AllocationProblem pb = new FatTreeGenerator(8, 1_000, 4, 4).generate();
        ExactAllocator allocator = new ExactAllocator(FINE_TOL, 200);
        // Session 321 arrives in the middle of the list, session 999 at its end.
        Allocation previous = allocator.solve(pb.withoutSession(999).withoutSession(321));
        Allocation warm = allocator.solve(pb, previous.warmStart());
        assertCertifiedAndFeasible(warm, "arrival");
        assertCloseToCold(allocator.solve(pb), warm, true, "arrival");
    }

    @Test
    void warmWeightChangeOnAFabricIsCertifiedAndMatchesCold() throws Exception {
        AllocationProblem pb = new FatTreeGenerator(8, 1_000, 4, 5).generate();
        ExactAllocator allocator = new ExactAllocator(FINE_TOL, 200);
        Allocation previous = allocator.solve(pb);
        int session = 0;
        for (int i = 0; i < pb.sessionCount(); i++) {
            if (pb.demand(i) == AllocationProblem.NO_DEMAND && pb.minRate(i) == 0) {
                session = i;
                break;
            }
        }
        AllocationProblem heavier = withWeight(pb, session, 4 * pb.weight(session));
        Allocation warm = allocator.solve(heavier, previous.warmStart());
        assertCertifiedAndFeasible(warm, "weight change");
        Allocation cold = allocator.solve(heavier);
        assertCloseToCold(cold, warm, true, "weight change");
        assertTrue(warm.sessionRate(session) > 1.5 * previous.sessionRate(session), "a heavier session gets more");
    }

    @Test
    void longChainsOfWarmChangesStayCertifiedAndFeasible() throws Exception {
        // More warm solves than LazyLinkSolver.LOAD_REFRESH, so incrementally kept loads are
        // also summed afresh on the way; departures, arrivals and weight changes interleaved.
        AllocationProblem full = new FatTreeGenerator(8, 400, 4, 6).generate();
        ExactAllocator allocator = new ExactAllocator(BENCH_TOL, 200);
        AllocationProblem current = full.withoutSession(0);
        Allocation a = allocator.solve(current);
        for (int step = 0; step < LazyLinkSolver.LOAD_REFRESH + 6; step++) {
            AllocationProblem next;
            if (step % 3 == 0) {
                next = current.withoutSession((37 * step) % current.sessionCount());
            } else if (step % 3 == 1) {
                next = withWeight(current, (11 * step) % current.sessionCount(), 1 + step % 4);
            } else {
                next = current.withoutSession(current.sessionCount() - 1);
            }
            a = allocator.solve(next, a.warmStart());
            assertCertifiedAndFeasible(a, "step " + step);
            current = next;
        }
        assertCloseToCold(allocator.solve(current), a, false, "end of the chain");
    }

    @Test
    void warmDepartureLeavesSessionsAwayFromItAsTheyWere() throws Exception {
        // A fabric where one departure touches a small part: sessions whose prices did not move
        // keep bit-identical path rates (the moved ones take up whatever overload they cause),
        // and the answer is still certified on the whole problem.
        AllocationProblem pb = new FatTreeGenerator(16, 10_000, 8, 5).generate();
        ExactAllocator allocator = new ExactAllocator(BENCH_TOL, 200);
        Allocation previous = allocator.solve(pb);
        AllocationProblem after = pb.withoutSession(0);
        Allocation warm = allocator.solve(after, previous.warmStart());
        assertCertifiedAndFeasible(warm, "departure");
        assertCloseToCold(allocator.solve(after), warm, false, "departure");
        int same = 0;
        for (int i = 0; i < after.sessionCount(); i++) {
            boolean identical = true;
            for (int p = after.firstPath(i), q = pb.firstPath(i + 1); p < after.endPath(i); p++, q++) {
                identical &= warm.pathRate(p) == previous.pathRate(q);
            }
            same += identical ? 1 : 0;
        }
        assertTrue(same > after.sessionCount() / 2, same + " of " + after.sessionCount() + " sessions unchanged");
    }

    @Test
    void warmSolveAfterCapacitiesFellUnderKeptRatesIsFeasible() throws Exception {
        // Rates kept from the previous solve no longer fit where a capacity fell: a fabric link
        // (not in the relaxation) and a host link (in it) each lose a third.
        AllocationProblem pb = new FatTreeGenerator(8, 600, 4, 12).generate();
        ExactAllocator allocator = new ExactAllocator(BENCH_TOL, 200);
        Allocation previous = allocator.solve(pb);
        int fabric = -1;
        int host = -1;
        for (int e = 0; e < pb.linkCount(); e++) {
            boolean isHost = pb.linkId(e).startsWith("h") || pb.linkId(e).contains(">h");
            if (isHost && (host < 0 || previous.linkLoad(e) > previous.linkLoad(host))) {
                host = e;
            } else if (!isHost && (fabric < 0 || previous.linkLoad(e) > previous.linkLoad(fabric))) {
                fabric = e;
            }
        }
        int narrowFabric = fabric;
        int narrowHost = host;
        AllocationProblem narrower = rebuilt(pb,
                e -> e == narrowFabric || e == narrowHost ? 2 * pb.capacity(e) / 3 : pb.capacity(e), pb::weight);
        Allocation warm = allocator.solve(narrower, previous.warmStart());
        assertCertifiedAndFeasible(warm, "capacities fell");
        assertCloseToCold(allocator.solve(narrower), warm, false, "capacities fell");
    }

    @Test
    void aWarmSolveWhoseShortcutsMissStillCertifiesWithoutTheInteriorPointMethod() throws Exception {
        // On this instance the cold solve ends at a gap of 9.5e-5, so rates kept from it leave
        // the warm relaxation little room; found when a warm solve fell back to interior point on
        // the whole problem (30 s instead of 0.2 s).
        AllocationProblem pb = new FatTreeGenerator(32, 100_000, 8, 4).generate();
        Allocation previous = new ExactAllocator(BENCH_TOL, 200).solve(pb);
        AllocationProblem after = pb.withoutSession(0);
        LazyLinkSolver lazy = new LazyLinkSolver(after, BENCH_TOL, 200);
        Allocation warm = lazy.solve(previous.warmStart());
        assertTrue(lazy.rounds() <= 2, lazy.rounds() + " rounds");
        assertCertifiedAndFeasible(warm, "departure");
    }

    /**
     * Decision session 15 (docs/controller.md): the interior-point method restarts from a saved
     * iterate only for targets of 1e-5 and more. At 1e-6 the next solve is exactly a cold one; at
     * 1e-4 it restarts, in fewer iterations.
     */
    @Test
    void theInteriorPointMethodRestartsOnlyForCoarseTargets() throws Exception {
        AllocationProblem before = new FatTreeGenerator(4, 40, 4, 3).generate();
        AllocationProblem after = before.withoutSession(5);

        Allocation fine = ExactAllocator.solveInteriorPoint(before, 1e-6, 200, null, SolveCheckpoint.NONE);
        assertTrue(fine.warmStart().hasInteriorPointState());
        Allocation warm = ExactAllocator.solveInteriorPoint(after, 1e-6, 200, fine.warmStart(), SolveCheckpoint.NONE);
        Allocation cold = ExactAllocator.solveInteriorPoint(after, 1e-6, 200, null, SolveCheckpoint.NONE);
        assertEquals(cold.iterations(), warm.iterations());
        assertArrayEquals(cold.pathRates(), warm.pathRates());

        Allocation coarse = ExactAllocator.solveInteriorPoint(before, 1e-4, 200, null, SolveCheckpoint.NONE);
        Allocation warmCoarse = ExactAllocator.solveInteriorPoint(after, 1e-4, 200, coarse.warmStart(), SolveCheckpoint.NONE);
        Allocation coldCoarse = ExactAllocator.solveInteriorPoint(after, 1e-4, 200, null, SolveCheckpoint.NONE);
        assertTrue(warmCoarse.converged());
        assertTrue(warmCoarse.iterations() < coldCoarse.iterations(),
                "warm " + warmCoarse.iterations() + " vs cold " + coldCoarse.iterations() + " iterations");

        // the boundary: a lazy-link relaxation's targets are 0.2-0.8 x the tolerance
        assertTrue(ExactAllocator.restartsInteriorPoint(2e-5)); // 1e-4 x 0.2
        assertFalse(ExactAllocator.restartsInteriorPoint(8e-6)); // 1e-5 x 0.8
        assertFalse(ExactAllocator.restartsInteriorPoint(8e-7)); // the controller's 1e-6 x 0.8
    }
}
