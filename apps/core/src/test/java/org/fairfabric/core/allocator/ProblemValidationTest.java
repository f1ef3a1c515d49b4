package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Collections;
import org.junit.jupiter.api.Test;

/** Bad input is rejected with the offending field named, as it appears in the JSON problem. */
class ProblemValidationTest {
    private static AllocationProblemBuilder twoLinks() {
        return new AllocationProblemBuilder().addLink("a", 1).addLink("b", 1);
    }

    private static void assertRejected(String expected, Runnable build) {
        InvalidProblemException e = assertThrows(InvalidProblemException.class, build::run);
        assertEquals(expected, e.getMessage());
    }

    @Test
    void linkErrors() {
        assertRejected("links[0].capacity: must be a positive finite number, got -1.0",
                () -> new AllocationProblemBuilder().addLink("a", -1));
        assertRejected("links[1].capacity: must be a positive finite number, got NaN",
                () -> new AllocationProblemBuilder().addLink("a", 1).addLink("b", Double.NaN));
        assertRejected("links[0].capacity: must be a positive finite number, got 0.0",
                () -> new AllocationProblemBuilder().addLink("a", 0));
        assertRejected("links[2].id: duplicate link id \"a\"", () -> twoLinks().addLink("a", 3));
        assertRejected("links[0].id: missing or empty", () -> new AllocationProblemBuilder().addLink("", 3));
    }

    @Test
    void sessionErrors() {
        assertRejected("sessions[0].weight: must be a positive finite number, got 0.0",
                () -> twoLinks().addSession("s", 0, AllocationProblem.NO_DEMAND, 0, Problems.paths("a")));
        assertRejected("sessions[0].weight: must be a positive finite number, got NaN",
                () -> twoLinks().addSession("s", Double.NaN, AllocationProblem.NO_DEMAND, 0, Problems.paths("a")));
        assertRejected("sessions[1].paths[1][0]: unknown link \"x\"",
                () -> twoLinks().addSession("s", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("a"))
                        .addSession("t", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("a,b", "x")));
        assertRejected("sessions[0].paths[0]: empty path",
                () -> twoLinks().addSession("s", 1, AllocationProblem.NO_DEMAND, 0,
                        Collections.singletonList(Collections.emptyList())));
        assertRejected("sessions[0].paths: a session needs at least one path",
                () -> twoLinks().addSession("s", 1, AllocationProblem.NO_DEMAND, 0, Collections.emptyList()));
        assertRejected("sessions[1].id: duplicate session id \"s\"",
                () -> twoLinks().addSession("s", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("a"))
                        .addSession("s", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("b")));
        assertRejected("sessions[0].demand: must be a positive number, got -2.0",
                () -> twoLinks().addSession("s", 1, -2, 0, Problems.paths("a")));
        assertRejected("sessions[0].minRate: must be a non-negative finite number, got -1.0",
                () -> twoLinks().addSession("s", 1, AllocationProblem.NO_DEMAND, -1, Problems.paths("a")));
        assertRejected("sessions[0].minRate: exceeds the session's demand (5.0 > 2.0)",
                () -> twoLinks().addSession("s", 1, 2, 5, Problems.paths("a")));
    }

    @Test
    void cyclesAreFineAndCountTwice() throws Exception {
        AllocationProblem pb = twoLinks()
                .addSession("loop", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("a,b,a")).build();
        Allocation a = new ExactAllocator(1e-9, 100).solve(pb);
        assertEquals(0.5, a.sessionRate(0), 1e-6);
        assertEquals(1.0, a.linkLoad(0), 1e-6);
    }
}
