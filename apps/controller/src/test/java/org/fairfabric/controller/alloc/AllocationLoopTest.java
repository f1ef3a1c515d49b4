package org.fairfabric.controller.alloc;

import static org.fairfabric.controller.alloc.Fixtures.host;
import static org.fairfabric.controller.alloc.Fixtures.inputs;
import static org.fairfabric.controller.alloc.Fixtures.leafSpine;
import static org.fairfabric.controller.alloc.Fixtures.session;
import static org.fairfabric.controller.alloc.Fixtures.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.allocator.ExactAllocator;
import org.junit.jupiter.api.Test;

class AllocationLoopTest {
    static final NetworkConfig CFG = leafSpine(2, 1, 2, 100);
    static final long QUIET = 100;
    static final long MAX_DELAY = 1000;

    final ManualScheduler clock = new ManualScheduler();
    final AtomicReference<AllocationInputs> inputs = new AtomicReference<>();
    final List<AllocationResult> allocated = new ArrayList<>();
    /** The exact solves started when each allocation was handed on. */
    final List<Long> solvesThen = new ArrayList<>();
    final List<List<String>> infeasible = new ArrayList<>();
    final AllocationLoop loop = new AllocationLoop(inputs::get, new AllocationListener() {
        @Override
        public void allocated(AllocationResult r) {
            allocated.add(r);
            solvesThen.add(loop().solves());
        }

        @Override
        public void infeasible(long round, String message, List<String> bottlenecks) {
            infeasible.add(bottlenecks);
        }
    }, clock, new ExactAllocator(1e-8, 200), solver(), new SolveGate(), QUIET, MAX_DELAY);
    /** Solves wait here until the test runs them (null: solves run within their round). */
    Deque<Runnable> solverQueue;

    AllocationLoop loop() {
        return loop;
    }

    java.util.concurrent.Executor solver() {
        return task -> {
            if (solverQueue == null) {
                task.run();
            } else {
                solverQueue.add(task);
            }
        };
    }

    void set(List<TenantDto> tenants, List<SessionDto> sessions) {
        inputs.set(inputs(CFG, tenants, sessions, Set.of()));
    }

    /** Inputs with the same hosts whatever the sessions, so that arrivals change the sessions alone. */
    void setSessions(List<TenantDto> tenants, List<SessionDto> sessions) {
        List<HostDto> hosts = List.of(host(CFG, "h1", "blue"), host(CFG, "h2", "red"), host(CFG, "h3", "blue"), host(CFG, "h4", "red"));
        inputs.set(new AllocationInputs(CFG, tenants, hosts, sessions, Set.of()));
    }

    static double rate(AllocationResult r, String session) {
        return r.sessions().stream().filter(s -> s.session().id.equals(session)).findFirst().orElseThrow().totalBps();
    }

    /** The sum over every session's paths that cross {@code link} (by the devices they visit). */
    static double load(AllocationResult r, String from, String to) {
        double sum = 0;
        for (SessionAllocation s : r.sessions()) {
            for (PathAllocation p : s.paths()) {
                int at = p.devices().indexOf(from);
                sum += at >= 0 && at + 1 < p.devices().size() && p.devices().get(at + 1).equals(to) ? p.rateBps() : 0;
            }
        }
        return sum;
    }

    @Test
    void anArrivalPutsAnInterimAllocationInForceAtOnceAndTheExactOneReplacesIt() {
        List<TenantDto> tenants = List.of(tenant("blue", 2, null), tenant("red", 1, null));
        SessionDto s1 = session("s1", "blue", "h1", "h3", null);
        SessionDto s2 = session("s2", "red", "h2", "h4", null);
        setSessions(tenants, List.of(s1, s2));
        loop.changed("start");
        clock.advance(0);
        assertEquals(1, allocated.size());
        assertFalse(allocated.get(0).interim());

        setSessions(tenants, List.of(s1, s2, session("s3", "blue", "h1", "h4", null)));
        clock.advance(QUIET);
        loop.changed("session.added s3");
        clock.advance(0);
        assertEquals(3, allocated.size());
        AllocationResult interim = allocated.get(1);
        AllocationResult exact = allocated.get(2);
        assertTrue(interim.interim());
        assertEquals(1, solvesThen.get(1), "the interim allocation is handed on before the exact solve");
        assertEquals(2, interim.round());
        assertTrue(Double.isNaN(interim.relativeGap()));
        assertEquals(1e8, load(interim, "device:leaf1", "device:spine1"), 1e-6 * 1e8, "the uplink is full");
        assertTrue(load(interim, "device:leaf1", "device:spine1") <= 1e8 * (1 + 1e-9), "and not over");
        assertTrue(rate(interim, "s3") > 0);
        assertFalse(exact.interim());
        assertEquals(2, exact.round());
        assertSame(exact, loop.current(), "the exact result replaces the interim one");
        assertTrue(AllocationApplier.dtos(interim).stream().noneMatch(a -> a.exact), "REST marks the interim allocation");
        assertTrue(AllocationApplier.dtos(exact).stream().allMatch(a -> a.exact), "and the exact one");
        for (String s : List.of("s1", "s2", "s3")) { // weights 1:1:1 on one bottleneck: the interim share is already the optimum
            assertEquals(1e8 / 3, rate(interim, s), 1e-6 * 1e8, s);
            assertEquals(1e8 / 3, rate(exact, s), 1e-6 * 1e8, s);
        }
    }

    @Test
    void aDepartureKeepsTheOthersRatesAtOnceThenTheExactRoundGivesThemTheRoom() {
        List<TenantDto> tenants = List.of(tenant("blue", 2, null), tenant("red", 1, null));
        SessionDto s1 = session("s1", "blue", "h1", "h3", null);
        SessionDto s3 = session("s3", "blue", "h1", "h4", null);
        setSessions(tenants, List.of(s1, session("s2", "red", "h2", "h4", null), s3));
        loop.changed("start");
        clock.advance(0);

        setSessions(tenants, List.of(s1, s3));
        clock.advance(QUIET);
        loop.changed("session.removed s2");
        clock.advance(0);
        assertEquals(3, allocated.size());
        AllocationResult interim = allocated.get(1);
        assertTrue(interim.interim());
        assertEquals(List.of("s1", "s3"), interim.sessions().stream().map(s -> s.session().id).toList());
        assertEquals(1e8 / 3, rate(interim, "s1"), 1e-6 * 1e8);
        assertEquals(1e8 / 3, rate(interim, "s3"), 1e-6 * 1e8);
        assertEquals(5e7, rate(loop.current(), "s1"), 1e-6 * 1e8);
        assertEquals(5e7, rate(loop.current(), "s3"), 1e-6 * 1e8);
    }

    @Test
    void arrivalsDuringASolveGetInterimAllocationsAndTheSolveLandsWithThemThenTheyAreSolved() {
        solverQueue = new ArrayDeque<>();
        List<TenantDto> tenants = List.of(tenant("blue", 1, null), tenant("red", 1, null));
        SessionDto s1 = session("s1", "blue", "h1", "h3", null);
        SessionDto s2 = session("s2", "red", "h2", "h4", null);
        setSessions(tenants, List.of(s1));
        loop.changed("start");
        clock.advance(0);
        assertTrue(allocated.isEmpty(), "the first solve is still running");
        solverQueue.poll().run();
        clock.advance(0);
        assertEquals(1e8, rate(loop.current(), "s1"), 1e-6 * 1e8);

        setSessions(tenants, List.of(s1, s2));
        clock.advance(QUIET);
        loop.changed("session.added s2");
        clock.advance(0);
        assertTrue(loop.current().interim());
        assertEquals(1, solverQueue.size(), "its solve runs");
        assertEquals(5e7, rate(loop.current(), "s2"), 1e-6 * 1e8);

        SessionDto s3 = session("s3", "red", "h2", "h3", null);
        setSessions(tenants, List.of(s1, s2, s3));
        clock.advance(QUIET);
        loop.changed("session.added s3"); // while s2's solve runs
        clock.advance(0);
        assertTrue(loop.current().interim());
        assertTrue(rate(loop.current(), "s3") > 0);
        assertEquals(1, solverQueue.size(), "one solve at a time");
        assertEquals(2, loop.solves());

        solverQueue.poll().run(); // s2's solve lands: in force with s3 placed on it, then s3's solve
        clock.advance(0);
        AllocationResult landed = loop.current();
        assertTrue(landed.interim(), "the exact answer for s1, s2 with s3 placed on it");
        assertEquals(List.of("s1", "s2", "s3"), landed.sessions().stream().map(s -> s.session().id).toList());
        assertEquals(1, solverQueue.size());
        solverQueue.poll().run();
        clock.advance(0);
        AllocationResult exact = loop.current();
        assertFalse(exact.interim());
        assertEquals(3, loop.solves());
        // red's weight 1 is shared by s2 and s3: blue 1/2, each red session 1/4 on the shared uplink
        assertEquals(5e7, rate(exact, "s1"), 1e-6 * 1e8);
        assertEquals(2.5e7, rate(exact, "s2"), 1e-6 * 1e8);
        assertEquals(2.5e7, rate(exact, "s3"), 1e-6 * 1e8);
        assertEquals(0, solverQueue.size());
    }

    @Test
    void otherChangesAndArrivalsWithoutRoomForTheirGuaranteeGoToTheExactRoundAlone() {
        SessionDto s1 = session("s1", "blue", "h1", "h3", null);
        SessionDto s2 = session("s2", "red", "h2", "h4", null);
        setSessions(List.of(tenant("blue", 2, 50_000_000L), tenant("red", 1, 50_000_000L), tenant("green", 1, 10_000_000L)), List.of(s1, s2));
        loop.changed("start");
        clock.advance(0);
        setSessions(List.of(tenant("blue", 1, 50_000_000L), tenant("red", 1, 50_000_000L), tenant("green", 1, 10_000_000L)), List.of(s1, s2));
        clock.advance(QUIET);
        loop.changed("tenant.updated blue");
        clock.advance(0);
        assertEquals(2, allocated.size());
        assertFalse(allocated.get(1).interim(), "a weight change: the exact round only");

        setSessions(List.of(tenant("blue", 1, 50_000_000L), tenant("red", 1, 50_000_000L), tenant("green", 1, 10_000_000L)),
                List.of(s1, s2, session("s3", "green", "h1", "h4", null)));
        clock.advance(QUIET);
        loop.changed("session.added s3");
        clock.advance(0);
        assertEquals(2, allocated.size(), "the uplink is all guarantees: no interim allocation, and the exact round is infeasible");
        assertEquals(1, infeasible.size());
        assertSame(allocated.get(1), loop.current());
    }

    @Test
    void theFirstChangeOfAnIdleLoopRunsAtOnceAndTheRestOfItsBurstCostsOneMoreSolve() {
        set(List.of(tenant("blue", 2, null), tenant("red", 1, null)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", null)));
        loop.changed("session 0");
        loop.changed("session 0 again, before the round ran"); // joins the round already armed
        clock.advance(0);
        assertEquals(1, loop.solves(), "an idle loop's first change is solved without the quiet period");
        AllocationResult r = loop.current();
        assertEquals(2e8 / 3, r.sessions().get(0).totalBps(), 1e-6 * 1e8);
        assertEquals(1e8 / 3, r.sessions().get(1).totalBps(), 1e-6 * 1e8);
        for (int i = 1; i < 9; i++) { // 8 more changes, each within the quiet period of the one before
            clock.advance(QUIET - 1);
            loop.changed("session " + i);
        }
        clock.advance(QUIET - 1);
        assertEquals(1, loop.solves(), "changes right after a round wait for the quiet period");
        clock.advance(1);
        assertEquals(2, loop.solves());
        assertEquals(2, allocated.size());
        assertEquals(0, clock.pending());
        clock.advance(10 * MAX_DELAY);
        assertEquals(2, loop.solves(), "no change, no solve");
        loop.changed("after a quiet spell");
        clock.advance(0);
        assertEquals(3, loop.solves(), "idle again: at once");
    }

    @Test
    void anEndlessBurstStillSolvesWithinTheMaximumDelay() {
        set(List.of(tenant("blue", 1, null)), List.of(session("s1", "blue", "h1", "h3", null)));
        for (int t = 0; t < 2 * MAX_DELAY; t += QUIET / 2) {
            loop.changed("flapping");
            clock.advance(QUIET / 2);
        }
        assertEquals(2, loop.solves());
    }

    @Test
    void infeasibleGuaranteesKeepThePreviousAllocationAndNameTheBottleneck() {
        set(List.of(tenant("blue", 2, null), tenant("red", 1, null)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", null)));
        loop.changed("start");
        clock.advance(QUIET);
        AllocationResult before = loop.current();

        set(List.of(tenant("blue", 2, 60_000_000L), tenant("red", 1, 50_000_000L)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", null)));
        loop.changed("guarantees raised");
        clock.advance(QUIET);
        assertSame(before, loop.current());
        assertEquals(1, allocated.size());
        assertEquals(1, infeasible.size());
        assertTrue(infeasible.get(0).stream().anyMatch(l -> l.equals("device:leaf1/3->device:spine1/1")
                || l.equals("device:spine1/2->device:leaf2/3")), infeasible.toString());

        // a feasible change afterwards is solved again (from the warm start of the last good round)
        set(List.of(tenant("blue", 2, 60_000_000L), tenant("red", 1, 40_000_000L)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", null)));
        loop.changed("guarantee lowered");
        clock.advance(QUIET);
        assertEquals(2, allocated.size());
        assertEquals(6e7, loop.current().sessions().get(0).totalBps(), 1e-3 * 1e8);
    }

    @Test
    void noConfigurationNoRoundAndNoSessionsAnEmptyAllocation() {
        loop.changed("too early");
        clock.advance(QUIET);
        assertTrue(allocated.isEmpty());
        set(List.of(tenant("blue", 1, null)), List.of());
        loop.changed("configured");
        clock.advance(QUIET);
        assertEquals(1, allocated.size());
        assertEquals(0, loop.solves());
        assertTrue(loop.current().sessions().isEmpty());
    }

    @Test
    void closedLoopsRunNothing() {
        set(List.of(tenant("blue", 1, null)), List.of(session("s1", "blue", "h1", "h3", null)));
        loop.changed("before close");
        loop.close();
        loop.changed("after close");
        clock.advance(MAX_DELAY);
        assertTrue(allocated.isEmpty());
    }

    @Test
    void theSolverThreadRunsAtTheLowestPriority() throws Exception {
        java.util.concurrent.ExecutorService solver = AllocationComponent.newSolver();
        try {
            Thread t = solver.submit(Thread::currentThread).get();
            assertEquals(Thread.MIN_PRIORITY, t.getPriority());
            assertTrue(t.isDaemon());
        } finally {
            solver.shutdownNow();
        }
    }
}
