package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DualCoordinateSolverTest {
    private static DualCoordinateSolver solver(AllocationProblem pb) {
        return new DualCoordinateSolver(pb.capacityArray(), pb.weightArray(), pb.minRateArray(), pb.demandArray(),
                pb.pathLinkStartArray(), pb.pathLinksArray());
    }

    @Test
    void weightedParkingLotInClosedForm() {
        AllocationProblem pb = Problems.parkingLot(3, 1.0, 2);
        DualCoordinateSolver s = solver(pb);
        s.start(null);
        assertTrue(s.solve(1e-12, 10_000));
        assertEquals(0.4, s.xRepaired[0], 1e-6);
        for (int j = 1; j <= 3; j++) {
            assertEquals(0.6, s.xRepaired[j], 1e-6);
        }
    }

    @Test
    void agreesWithTheInteriorPointMethodOnSingleClassProblems() throws Exception {
        // The host-link relaxation of a k=8 fat-tree, with caps and guarantees.
        AllocationProblem full = new FatTreeGenerator(8, 300, 4, 9).generate();
        boolean[] hosts = new boolean[full.linkCount()];
        for (int e = 0; e < hosts.length; e++) {
            hosts[e] = full.linkId(e).startsWith("h") || full.linkId(e).contains(">h");
        }
        AllocationProblem relaxation = new PathClasses(full, hosts).relaxation();
        DualCoordinateSolver s = new DualCoordinateSolver(relaxation.capacityArray(), relaxation.weightArray(),
                relaxation.minRateArray(), relaxation.demandArray(), relaxation.pathLinkStartArray(),
                relaxation.pathLinksArray());
        s.start(null);
        assertTrue(s.solve(1e-11, 10_000), "gap " + s.gap());
        Allocation ipm = ExactAllocator.solveInteriorPoint(relaxation, 1e-11, 200, null, SolveCheckpoint.NONE);
        for (int i = 0; i < relaxation.sessionCount(); i++) {
            assertEquals(ipm.sessionRate(i), s.xRepaired[i], 1e-4 * ipm.sessionRate(i), relaxation.sessionId(i));
        }
    }

    @Test
    void guaranteesAboveALinksCapacityAreReportedAsFailure() {
        AllocationProblem pb = new AllocationProblemBuilder().addLink("l", 10)
                .addSession("a", 1, AllocationProblem.NO_DEMAND, 6, Problems.paths("l"))
                .addSession("b", 1, AllocationProblem.NO_DEMAND, 5, Problems.paths("l"))
                .build();
        DualCoordinateSolver s = solver(pb);
        s.start(null);
        assertFalse(s.solve(1e-6, 100));
    }

    private static DualCoordinateSolver twoLinks(double c1, double c2) {
        // Sessions a1, a2 on link 0; b1, b2 (weights 1 and 3) on link 1.
        return new DualCoordinateSolver(new double[] {c1, c2}, new double[] {1, 2, 1, 3}, new double[4],
                new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                    Double.POSITIVE_INFINITY}, new int[] {0, 1, 2, 3, 4}, new int[] {0, 0, 1, 1});
    }

    @Test
    void keptRatesStayAsTheyWereWhereNoPriceMoved() {
        DualCoordinateSolver before = twoLinks(10, 10);
        before.start(null);
        assertTrue(before.solve(1e-9, 1000));
        assertEquals(2.5, before.xRepaired[2], 1e-9);

        // Link 0 narrows: only its sessions' rates may move. The rates kept for b1 and b2 are a
        // little below the best ones at their (unchanged) price, as a repaired split leaves them.
        double[] kept = before.xRepaired.clone();
        kept[2] = 2.49;
        kept[3] = 7.47;
        DualCoordinateSolver after = twoLinks(6, 10);
        after.start(before.mu);
        after.keepRates(kept);
        assertTrue(after.solveFrom(new boolean[] {true, false}, 1e-2, 1000), "gap " + after.gap());
        assertEquals(2.49, after.xRepaired[2], 0.0);
        assertEquals(7.47, after.xRepaired[3], 0.0);
        assertEquals(2, after.xRepaired[0], 1e-6);
        assertEquals(4, after.xRepaired[1], 1e-6);
    }

    @Test
    void keptRatesThatNoLongerFitAreScaledDown() {
        DualCoordinateSolver before = twoLinks(10, 10);
        before.start(null);
        assertTrue(before.solve(1e-9, 1000));

        // Link 1 narrows but is not re-solved first: its kept rates overload it until the sweeps
        // move its price, and every certified primal on the way must fit.
        DualCoordinateSolver after = twoLinks(10, 5);
        after.start(before.mu);
        after.keepRates(before.xRepaired.clone());
        after.certify();
        assertTrue(after.xRepaired[2] + after.xRepaired[3] <= 5 * (1 + 1e-12));
        assertTrue(after.solveFrom(new boolean[] {false, false}, 1e-9, 1000));
        assertEquals(1.25, after.xRepaired[2], 1e-6);
        assertEquals(3.75, after.xRepaired[3], 1e-6);
    }
}
