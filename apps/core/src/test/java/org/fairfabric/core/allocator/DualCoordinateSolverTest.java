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
        Allocation ipm = ExactAllocator.solveInteriorPoint(relaxation, 1e-11, 200, null);
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
}
