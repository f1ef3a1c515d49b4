package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PathClassesTest {
    private static final AllocationProblem PB = new AllocationProblemBuilder()
            .addLink("h1", 10).addLink("h2", 10).addLink("c1", 3).addLink("c2", 3)
            .addSession("a", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("h1,c1,h2", "h1,c2,h2", "h2,c1,h1"))
            .addSession("b", 2, 5.0, 1.0, Problems.paths("h2,c1"))
            .build();

    @Test
    void pathsCrossingTheSameActiveLinksMergeInAnyOrder() {
        PathClasses c = new PathClasses(PB, new boolean[] {true, true, false, false});
        assertTrue(c.singleClass);
        assertEquals(2, c.classCount());
        assertArrayEquals(new int[] {0, 1, 2}, java.util.Arrays.copyOfRange(c.memberPath, 0, 3));
        AllocationProblem relaxation = c.relaxation();
        assertEquals(2, relaxation.linkCount());
        assertEquals("h1", relaxation.linkId(0));
        assertEquals(1, relaxation.endPath(0) - relaxation.firstPath(0), "a is one variable");
        assertEquals(2, relaxation.pathLength(0), "over h1 and h2");
        assertEquals(5.0, relaxation.demand(1));
        assertEquals(1.0, relaxation.minRate(1));
    }

    @Test
    void anActiveFabricLinkSplitsTheClasses() {
        PathClasses c = new PathClasses(PB, new boolean[] {true, true, true, false});
        assertFalse(c.singleClass);
        // a: {h1,c1,h2} for paths 0 and 2, {h1,h2} for path 1; b: {h2,c1}.
        assertEquals(3, c.classCount());
        assertArrayEquals(new int[] {0, 2, 1, 3}, c.memberPath);
        assertArrayEquals(new int[] {0, 2, 3, 4}, c.classMemberStart);
    }

    @Test
    void unchangedSessionsAreCopiedFromThePreviousClasses() {
        boolean[] active = {true, true, true, false};
        PathClasses before = new PathClasses(PB, active);
        AllocationProblem without = PB.withoutSession(0);
        PathClasses copied = new PathClasses(without, active, before, new int[] {1});
        PathClasses fresh = new PathClasses(without, active);
        assertArrayEquals(fresh.memberPath, copied.memberPath);
        assertArrayEquals(fresh.classLinks, copied.classLinks);
        assertArrayEquals(fresh.classLinkStart, copied.classLinkStart);
    }
}
