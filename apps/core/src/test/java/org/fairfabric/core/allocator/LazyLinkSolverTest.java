package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lazy-link method on its own (no fallback to the whole-problem interior-point method):
 * the oracle's answers, constraint generation when inactive links bind, warm re-solves and
 * infeasible guarantees.
 */
class LazyLinkSolverTest {
    static String[] goldens() {
        return OracleComparisonTest.goldens();
    }

    @ParameterizedTest
    @MethodSource("goldens")
    void matchesTheOracle(String golden) throws Exception {
        OracleGolden oracle = OracleGolden.load(golden);
        AllocationProblem pb = oracle.generate();
        Allocation a = new LazyLinkSolver(pb, 1e-12, 200).solve(null);
        assertTrue(a.relativeGap() <= 1e-9, "certified gap " + a.relativeGap());
        for (int i = 0; i < pb.sessionCount(); i++) {
            double expected = oracle.rates.get(pb.sessionId(i));
            assertEquals(expected, a.sessionRate(i), 1e-4 * expected, pb.sessionId(i));
        }
        assertTrue(AllocationChecks.maxRelativeOverload(a) <= 1e-9, "no link overloaded");
        assertTrue(AllocationChecks.maxSessionBoundViolation(a) <= 1e-9, "caps and guarantees hold");
        assertTrue(AllocationChecks.stationarityResidual(a) <= 1e-3, "stationarity");
        // The reported certificate is the whole problem's, recomputed independently here.
        assertEquals(a.relativeGap(), AllocationChecks.relativeDualityGap(a), 1e-12);
    }

    /** Two sessions, each with two paths over a narrow fabric: the host links alone allow far too much. */
    private static AllocationProblem narrowFabric() {
        return new AllocationProblemBuilder()
                .addLink("h1", 10).addLink("h2", 10).addLink("c1", 3).addLink("c2", 3)
                .addSession("a", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("h1,c1", "h1,c2"))
                .addSession("b", 2, AllocationProblem.NO_DEMAND, 0, Problems.paths("h2,c1", "h2,c2"))
                .build();
    }

    @Test
    void bindingFabricLinksAreAddedUntilTheSplitFits() throws Exception {
        AllocationProblem pb = narrowFabric();
        LazyLinkSolver solver = new LazyLinkSolver(pb, 1e-9, 200);
        Allocation a = solver.solve(null);
        assertTrue(a.converged(), "gap " + a.relativeGap());
        assertEquals(2, solver.rounds(), "the host-link relaxation, then with c1 and c2 active");
        // Weighted PF over 6 units of fabric: 2 and 4.
        assertEquals(2.0, a.sessionRate(0), 2e-6);
        assertEquals(4.0, a.sessionRate(1), 4e-6);
        assertTrue(a.linkPrice(2) > 0 && a.linkPrice(3) > 0, "the fabric links are priced");
        assertEquals(0, a.linkPrice(0), 1e-12, "host links are not full");
    }

    @Test
    void slackFabricNeedsOneRoundAndPricesOnlyActiveLinks() throws Exception {
        AllocationProblem pb = new FatTreeGenerator(4, 40, 4, 3).generate();
        LazyLinkSolver solver = new LazyLinkSolver(pb, 1e-6, 200);
        Allocation a = solver.solve(null);
        assertTrue(a.converged());
        Allocation whole = ExactAllocator.solveInteriorPoint(pb, 1e-10, 200, null, SolveCheckpoint.NONE);
        for (int i = 0; i < pb.sessionCount(); i++) {
            assertEquals(whole.sessionRate(i), a.sessionRate(i), 2e-3 * whole.sessionRate(i), pb.sessionId(i));
        }
        assertTrue(AllocationChecks.maxRelativeOverload(a) <= 1e-9);
    }

    @Test
    void warmSolveAfterDeparturesMatchesColdSolves() throws Exception {
        AllocationProblem pb = new FatTreeGenerator(8, 300, 4, 21).generate();
        double tol = 1e-6;
        Allocation previous = new LazyLinkSolver(pb, tol, 200).solve(null);
        AllocationProblem current = pb;
        for (int leaving : new int[] {0, 150, 7}) {
            current = current.withoutSession(leaving);
            Allocation warm = new LazyLinkSolver(current, tol, 200).solve(previous.warmStart());
            Allocation cold = new LazyLinkSolver(current, tol, 200).solve(null);
            assertTrue(warm.converged() && warm.relativeGap() <= tol, "warm gap " + warm.relativeGap());
            for (int i = 0; i < current.sessionCount(); i++) {
                assertEquals(cold.sessionRate(i), warm.sessionRate(i), 1e-2 * cold.sessionRate(i), current.sessionId(i));
            }
            assertTrue(warm.iterations() < cold.iterations(),
                    "warm " + warm.iterations() + " vs cold " + cold.iterations());
            previous = warm;
        }
    }

    /**
     * k=8, seed 2: the cold solve certifies its first relaxation (several classes per session)
     * with fabric links overloaded within the tolerance; after a departure they no longer fit.
     * The warm solve then activates them as a cold round does, rather than solving the same
     * relaxation again first (which took it one round more than a cold solve).
     */
    @Test
    void warmRoundWhoseSplitCannotFitActivatesTheOverloadedLinks() throws Exception {
        AllocationProblem pb = new FatTreeGenerator(8, 1_000, 4, 2).generate();
        Allocation previous = new LazyLinkSolver(pb, 1e-4, 200).solve(null);
        AllocationProblem after = pb.withoutSession(0);
        LazyLinkSolver warmSolver = new LazyLinkSolver(after, 1e-4, 200);
        Allocation warm = warmSolver.solve(previous.warmStart());
        LazyLinkSolver coldSolver = new LazyLinkSolver(after, 1e-4, 200);
        Allocation cold = coldSolver.solve(null);
        assertTrue(warm.converged() && cold.converged(), "gaps " + warm.relativeGap() + ", " + cold.relativeGap());
        assertTrue(warmSolver.rounds() < coldSolver.rounds(),
                "warm " + warmSolver.rounds() + " rounds vs cold " + coldSolver.rounds());
        for (int i = 0; i < after.sessionCount(); i++) {
            assertEquals(cold.sessionRate(i), warm.sessionRate(i), 2e-2 * cold.sessionRate(i), after.sessionId(i));
        }
        assertTrue(AllocationChecks.maxRelativeOverload(warm) <= 1e-9);
    }

    @Test
    void warmSolveAfterAnArrivalAndAReroute() throws Exception {
        AllocationProblem base = new FatTreeGenerator(4, 20, 4, 5).generate();
        Allocation previous = new LazyLinkSolver(base.withoutSession(4), 1e-8, 200).solve(null);
        // The arrival, and session 0 now on its first path only.
        AllocationProblemBuilder b = new AllocationProblemBuilder();
        for (int e = 0; e < base.linkCount(); e++) {
            b.addLink(base.linkId(e), base.capacity(e));
        }
        for (int i = 0; i < base.sessionCount(); i++) {
            int count = i == 0 ? 1 : base.endPath(i) - base.firstPath(i);
            int[][] paths = new int[count][];
            for (int j = 0; j < count; j++) {
                int p = base.firstPath(i) + j;
                paths[j] = new int[base.pathLength(p)];
                for (int k = 0; k < paths[j].length; k++) {
                    paths[j][k] = base.pathLink(p, k);
                }
            }
            b.addSessionByIndex(base.sessionId(i), base.weight(i), base.demand(i), base.minRate(i), paths);
        }
        AllocationProblem changed = b.build();
        Allocation warm = new LazyLinkSolver(changed, 1e-8, 200).solve(previous.warmStart());
        Allocation cold = ExactAllocator.solveInteriorPoint(changed, 1e-10, 200, null, SolveCheckpoint.NONE);
        assertTrue(warm.converged());
        for (int i = 0; i < changed.sessionCount(); i++) {
            assertEquals(cold.sessionRate(i), warm.sessionRate(i), 1e-3 * cold.sessionRate(i), changed.sessionId(i));
        }
    }

    @Test
    void infeasibleGuaranteesOnTheRelaxationAreReported() {
        AllocationProblem pb = new AllocationProblemBuilder().addLink("h1", 10).addLink("h2", 10)
                .addSession("a", 1, AllocationProblem.NO_DEMAND, 6, Problems.paths("h1"))
                .addSession("b", 1, AllocationProblem.NO_DEMAND, 5, Problems.paths("h1,h2"))
                .build();
        InfeasibleProblemException e = assertThrows(InfeasibleProblemException.class,
                () -> new LazyLinkSolver(pb, 1e-6, 200).solve(null));
        assertTrue(e.getMessage().contains("\"h1\""), e.getMessage());
    }

    @Test
    void guaranteesThatOnlyTheFabricBreaksAreReported() {
        // The host links could carry both guarantees; the single fabric link cannot.
        AllocationProblem pb = new AllocationProblemBuilder()
                .addLink("h1", 10).addLink("h2", 10).addLink("c1", 4).addLink("c2", 4)
                .addSession("a", 1, AllocationProblem.NO_DEMAND, 5, Problems.paths("h1,c1", "h1,c2"))
                .addSession("b", 1, AllocationProblem.NO_DEMAND, 5, Problems.paths("h2,c1", "h2,c2"))
                .build();
        assertThrows(InfeasibleProblemException.class, () -> new LazyLinkSolver(pb, 1e-6, 200).solve(null));
    }
}
