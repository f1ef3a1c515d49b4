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
 * the cable is every session's bottleneck, so its whole rate fits on one path; a session no
 * path takes whole fills the roomiest first; sessions that the allocator split over both
 * paths each go whole on one, spread; the totals stay the allocator's.
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
        assertEquals(10, r[1], 1e-6, "s cannot go whole on one path: the roomier, b, first");
        assertEquals(s - 10, r[0], 1e-6, "the rest on a, which t shares");
        assertEquals(10 - t, r[0], 1e-6);
    }

    @Test
    void sessionsTheAllocatorSplitGoWholeOnePathEachSpreadOverTheFabric() throws Exception {
        // docs/results.md, vfab-guarantees: leaf-spine, 2 spines, gold h1->h4 with minimum 5; silvers
        // (minimum 2) h1->h5, h2->h4, h1->h6, h3->h4. Packed in problem order from the allocator's
        // split, every silver stayed on both paths (the others' halves left each path 1.25 short).
        AllocationProblemBuilder b = new AllocationProblemBuilder();
        for (String l : List.of("h1", "h2", "h3", "h4", "h5", "h6", "l1s1", "l1s2", "s1l2", "s2l2")) {
            b.addLink(l, 10);
        }
        String[][] sessions = {{"gold", "h1", "h4"}, {"a1", "h1", "h5"}, {"b1", "h2", "h4"}, {"a2", "h1", "h6"}, {"b2", "h3", "h4"}};
        for (String[] s : sessions) {
            boolean gold = s[0].equals("gold");
            b.addSession(s[0], gold ? 5 : 2, INF, gold ? 5 : 2, List.of(List.of(s[1], "l1s1", "s1l2", s[2]), List.of(s[1], "l1s2", "s2l2", s[2])));
        }
        AllocationProblem p = b.build();
        Allocation a = new ExactAllocator(1e-9, ExactAllocator.DEFAULT_MAX_ITERATIONS).solve(p);
        double[] r = FewestPaths.of(a);
        double[] load = new double[p.linkCount()];
        for (int s = 0; s < p.sessionCount(); s++) {
            double r0 = r[p.firstPath(s)];
            double r1 = r[p.firstPath(s) + 1];
            assertEquals(a.sessionRate(s), r0 + r1, 1e-6, p.sessionId(s));
            assertEquals(0, Math.min(r0, r1), 1e-6, p.sessionId(s) + " on one path: " + r0 + " + " + r1);
            for (int path = p.firstPath(s); path < p.endPath(s); path++) {
                for (int k = 0; k < p.pathLength(path); k++) {
                    load[p.pathLink(path, k)] += r[path];
                }
            }
        }
        for (int e = 0; e < p.linkCount(); e++) {
            assertEquals(true, load[e] <= p.capacity(e) * (1 + 1e-9), p.linkId(e) + " carries " + load[e]);
        }
        assertEquals(load[p.linkIndex("l1s1")], load[p.linkIndex("l1s2")], 1e-6, "both uplinks carry 7.5");
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
