package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class AllocationProblemBuilderTest {
    /** A size hint changes how the builder grows, never the problem: too small, exact or too large. */
    @Test
    void theSizeHintLeavesTheProblemAsItIs() {
        AllocationProblem plain = build(new AllocationProblemBuilder());
        assertEquals(plain, build(new AllocationProblemBuilder(1, 1, 1, 1)));
        assertEquals(plain, build(new AllocationProblemBuilder(40, 300, 900, 2700)));
        assertEquals(plain, build(new AllocationProblemBuilder(4000, 30_000, 90_000, 270_000)));
    }

    /**
     * Extending a problem by links and sessions, with some sessions' parameters replaced, gives the
     * problem a build of all of them gives — whether the extension fits the room asked for or grows.
     */
    @Test
    void extendingAProblemEqualsBuildingItWhole() {
        AllocationProblemBuilder whole = new AllocationProblemBuilder();
        build(whole, 40, 300);
        whole.addLink("x0", 2e6).addLink("x1", 3e6);
        whole.addSessionByIndex("t0", 2, AllocationProblem.NO_DEMAND, 0, new int[][] {{40, 1}, {41}});
        whole.setSession(5, 9, 4e5, 1e3);
        AllocationProblem want = whole.build();
        AllocationProblem base = build(new AllocationProblemBuilder(), 40, 300);
        for (int room : new int[] {0, 1, 1000}) {
            AllocationProblemBuilder ext = AllocationProblemBuilder.extending(base, room, room, room, room);
            assertEquals(40, ext.linkCount());
            ext.addLink("x0", 2e6).addLink("x1", 3e6);
            ext.addSessionByIndex("t0", 2, AllocationProblem.NO_DEMAND, 0, new int[][] {{40, 1}, {41}});
            ext.setSession(5, 9, 4e5, 1e3);
            assertEquals(want, ext.build(), "room " + room);
        }
        assertEquals(base, build(new AllocationProblemBuilder(), 40, 300), "the base problem is left as it was");
    }

    @Test
    void anExtendingBuilderChecksWhatItAddsButTakesNoPathsByName() {
        AllocationProblem base = build(new AllocationProblemBuilder(), 4, 10);
        AllocationProblemBuilder ext = AllocationProblemBuilder.extending(base, 1, 1, 1, 1);
        assertEquals("sessions[10].paths[0][0]", assertThrows(InvalidProblemException.class,
                () -> ext.addSessionByIndex("t", 1, AllocationProblem.NO_DEMAND, 0, new int[][] {{4}})).field());
        assertEquals("sessions[3].minRate", assertThrows(InvalidProblemException.class,
                () -> ext.setSession(3, 1, 1e3, 2e3)).field());
        assertThrows(IndexOutOfBoundsException.class, () -> ext.setSession(10, 1, 1e3, 0));
        assertThrows(IllegalStateException.class, () -> ext.addSession("t", 1, AllocationProblem.NO_DEMAND, 0, List.of(List.of("l0"))));
        assertEquals(base, ext.build(), "refused changes change nothing");
    }

    private static AllocationProblem build(AllocationProblemBuilder b) {
        return build(b, 40, 300);
    }

    private static AllocationProblem build(AllocationProblemBuilder b, int linkCount, int sessionCount) {
        for (int e = 0; e < linkCount; e++) {
            b.addLink("l" + e, 1e6 * (1 + e % 3));
        }
        for (int i = 0; i < sessionCount; i++) {
            int paths = 1 + i % 3;
            int[][] rows = new int[paths][];
            for (int j = 0; j < paths; j++) {
                rows[j] = new int[] {(i + j) % linkCount, (i * 7 + j + 1) % linkCount, (i * 13 + 2 * j + 2) % linkCount};
            }
            b.addSessionByIndex("s" + i, 1 + i % 4, i % 5 == 0 ? 5e5 : AllocationProblem.NO_DEMAND, i % 7 == 0 ? 1e3 : 0, rows);
        }
        return b.build();
    }
}
