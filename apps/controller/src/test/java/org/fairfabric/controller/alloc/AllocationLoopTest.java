package org.fairfabric.controller.alloc;

import static org.fairfabric.controller.alloc.Fixtures.inputs;
import static org.fairfabric.controller.alloc.Fixtures.leafSpine;
import static org.fairfabric.controller.alloc.Fixtures.session;
import static org.fairfabric.controller.alloc.Fixtures.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
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
    final List<List<String>> infeasible = new ArrayList<>();
    final AllocationLoop loop = new AllocationLoop(inputs::get, new AllocationListener() {
        @Override
        public void allocated(AllocationResult r) {
            allocated.add(r);
        }

        @Override
        public void infeasible(long round, String message, List<String> bottlenecks) {
            infeasible.add(bottlenecks);
        }
    }, clock, new ExactAllocator(1e-8, 200), QUIET, MAX_DELAY);

    void set(List<TenantDto> tenants, List<SessionDto> sessions) {
        inputs.set(inputs(CFG, tenants, sessions, Set.of()));
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
}
