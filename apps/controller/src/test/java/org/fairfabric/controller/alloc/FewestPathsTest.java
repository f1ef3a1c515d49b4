package org.fairfabric.controller.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.AllocationProblemBuilder;
import org.fairfabric.core.allocator.ExactAllocator;
import org.junit.jupiter.api.Test;

/**
 * Two servers joined by two disjoint fabric paths (a, b) of 10 each behind 10-wide cables:
 * the cable is every session's bottleneck, so its whole rate fits on its first path; when
 * another session's rate leaves too little of path a, the rest goes on path b; the totals
 * stay the allocator's.
 */
class FewestPathsTest {
    static final double INF = AllocationProblem.NO_DEMAND;

    static AllocationProblemBuilder twoPaths() {
        return new AllocationProblemBuilder().addLink("cable", 10).addLink("a", 10).addLink("b", 10);
    }

    @Test
    void aSessionBoundByItsCableUsesItsFirstPathOnly() throws Exception {
        AllocationProblem p = twoPaths().addSession("s", 1, INF, 0, List.of(List.of("cable", "a"), List.of("cable", "b"))).build();
        Allocation a = new ExactAllocator(1e-9, ExactAllocator.DEFAULT_MAX_ITERATIONS).solve(p);
        assertEquals(10, a.pathRate(0) + a.pathRate(1), 1e-6);
        double[] r = FewestPaths.of(a);
        assertEquals(10, r[0], 1e-6);
        assertEquals(0, r[1], 1e-6);
    }

    @Test
    void whatThePathCannotTakeGoesOnTheNext() throws Exception {
        // t (weight 1) reaches only over a; s (weight 3) shares a cable-free route: a and b, capped at 12
        AllocationProblem p = new AllocationProblemBuilder().addLink("a", 10).addLink("b", 10).addLink("t-cable", 10)
                .addSession("s", 3, 12, 0, List.of(List.of("a"), List.of("b")))
                .addSession("t", 1, INF, 0, List.of(List.of("t-cable", "a"))).build();
        Allocation a = new ExactAllocator(1e-9, ExactAllocator.DEFAULT_MAX_ITERATIONS).solve(p);
        double[] r = FewestPaths.of(a);
        double s = a.sessionRate(0);
        double t = a.sessionRate(1);
        assertEquals(s, r[0] + r[1], 1e-6);
        assertEquals(t, r[2], 1e-6);
        assertEquals(10 - t, r[0], 1e-6, "s fills what t leaves of a");
        assertEquals(s - (10 - t), r[1], 1e-6);
    }

    @Test
    void aSplitTheLinksNeedStays() throws Exception {
        // one session whose demand needs both paths
        AllocationProblem p = new AllocationProblemBuilder().addLink("a", 10).addLink("b", 10)
                .addSession("s", 1, INF, 0, List.of(List.of("a"), List.of("b"))).build();
        Allocation a = new ExactAllocator(1e-9, ExactAllocator.DEFAULT_MAX_ITERATIONS).solve(p);
        double[] r = FewestPaths.of(a);
        assertEquals(a.pathRate(0), r[0], 1e-6);
        assertEquals(a.pathRate(1), r[1], 1e-6);
    }
}
