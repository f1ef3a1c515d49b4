package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Digest §10 T1: optima known in closed form, plus the KKT conditions at them. */
class ClosedFormTest {
    private static final double TOL = 1e-9;

    private static Allocation solve(AllocationProblem pb) throws InfeasibleProblemException {
        Allocation a = new ExactAllocator(TOL, 100).solve(pb);
        assertTrue(a.converged(), "converged");
        assertTrue(a.relativeGap() <= TOL, "gap " + a.relativeGap());
        assertTrue(AllocationChecks.maxRelativeOverload(a) <= 1e-12, "feasible");
        return a;
    }

    @Test
    void oneLinkSharesCapacityInProportionToWeights() throws Exception {
        Allocation a = solve(Problems.singleLink(12.0, 1, 2, 3));
        assertEquals(2.0, a.sessionRate(0), 2.0 * 1e-6);
        assertEquals(4.0, a.sessionRate(1), 4.0 * 1e-6);
        assertEquals(6.0, a.sessionRate(2), 6.0 * 1e-6);
        // Price = Σw / C, and every session is at w/price.
        assertEquals(0.5, a.linkPrice(0), 0.5 * 1e-4);
        assertTrue(AllocationChecks.stationarityResidual(a) < 1e-4);
    }

    @Test
    void parkingLotIsProportionalNotMaxMin() throws Exception {
        Allocation a = solve(Problems.parkingLot(3, 1.0, 1));
        assertEquals(0.25, a.sessionRate(0), 0.25 * 1e-5);
        for (int j = 1; j <= 3; j++) {
            assertEquals(0.75, a.sessionRate(j), 0.75 * 1e-5);
        }
    }

    @Test
    void sessionWithAnAlternativePathMovesOffTheSharedLink() throws Exception {
        Allocation a = solve(Problems.twoPathsOneShared(1.0));
        assertEquals(1.0, a.sessionRate(0), 1e-4);
        assertEquals(1.0, a.sessionRate(1), 1e-4);
        assertTrue(a.pathRate(0) < 1e-4, "A leaves l1 to B: " + a.pathRate(0));
        assertTrue(AllocationChecks.pathPriceResidual(a, 0.01) < 1e-4);
    }

    @Test
    void weightedParkingLot() throws Exception {
        Allocation a = solve(Problems.parkingLot(3, 1.0, 2));
        assertEquals(0.4, a.sessionRate(0), 0.4 * 1e-5);
        for (int j = 1; j <= 3; j++) {
            assertEquals(0.6, a.sessionRate(j), 0.6 * 1e-5);
        }
        assertTrue(AllocationChecks.stationarityResidual(a) < 1e-4);
        assertTrue(AllocationChecks.slacknessResidual(a) < 1e-6);
    }

    @Test
    void demandCapReleasesBandwidthAndGuaranteeIsHonoured() throws Exception {
        AllocationProblem pb = new AllocationProblemBuilder().addLink("l", 10)
                .addSession("capped", 1, 1.0, 0, Problems.paths("l"))
                .addSession("free", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("l"))
                .addSession("guaranteed", 0.1, AllocationProblem.NO_DEMAND, 3.0, Problems.paths("l"))
                .build();
        Allocation a = solve(pb);
        assertEquals(1.0, a.sessionRate(0), 1e-6);
        assertEquals(3.0, a.sessionRate(2), 3e-6);
        assertEquals(6.0, a.sessionRate(1), 6e-6);
        assertTrue(AllocationChecks.stationarityResidual(a) < 1e-4);
    }

    @Test
    void infeasibleGuaranteesAreReported() {
        AllocationProblem pb = new AllocationProblemBuilder().addLink("l1", 10).addLink("l2", 10)
                .addSession("a", 1, AllocationProblem.NO_DEMAND, 6, Problems.paths("l1", "l2"))
                .addSession("b", 1, AllocationProblem.NO_DEMAND, 8, Problems.paths("l1"))
                .addSession("c", 1, AllocationProblem.NO_DEMAND, 7, Problems.paths("l2"))
                .build();
        InfeasibleProblemException e = org.junit.jupiter.api.Assertions.assertThrows(
                InfeasibleProblemException.class, () -> new ExactAllocator(1e-6, 200).solve(pb));
        assertTrue(e.getMessage().contains("minimum rates cannot all be met"), e.getMessage());
    }

    @Test
    void tightButFeasibleGuaranteesAreMet() throws Exception {
        AllocationProblem pb = new AllocationProblemBuilder().addLink("l1", 10).addLink("l2", 10)
                .addSession("a", 1, AllocationProblem.NO_DEMAND, 4, Problems.paths("l1", "l2"))
                .addSession("b", 5, AllocationProblem.NO_DEMAND, 8, Problems.paths("l1"))
                .addSession("c", 5, AllocationProblem.NO_DEMAND, 7, Problems.paths("l2"))
                .build();
        // Degenerate on purpose: b's guarantee is exactly its PF share, so b and c converge
        // only like the square root of the gap.
        Allocation a = new ExactAllocator(1e-6, 200).solve(pb);
        assertTrue(a.converged());
        assertTrue(AllocationChecks.maxSessionBoundViolation(a) < 1e-9);
        assertEquals(4.0, a.sessionRate(0), 4e-6);
        assertEquals(8.0, a.sessionRate(1), 8e-3);
        assertEquals(8.0, a.sessionRate(2), 8e-3);
    }
}
