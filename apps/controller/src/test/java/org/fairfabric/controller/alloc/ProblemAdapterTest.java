package org.fairfabric.controller.alloc;

import static org.fairfabric.controller.alloc.Fixtures.inputs;
import static org.fairfabric.controller.alloc.Fixtures.leafSpine;
import static org.fairfabric.controller.alloc.Fixtures.session;
import static org.fairfabric.controller.alloc.Fixtures.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.ExactAllocator;
import org.fairfabric.core.allocator.InfeasibleProblemException;
import org.fairfabric.core.model.Path;
import org.junit.jupiter.api.Test;

class ProblemAdapterTest {
    static final double C = 100e6;

    @Test
    void aTenantsWeightIsSharedByItsSessions() {
        NetworkConfig cfg = leafSpine(2, 2, 2, 100);
        AllocationModel m = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 2, null), tenant("red", 1, null)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "blue", "h3", "h1", null),
                        session("s3", "red", "h2", "h4", null)), Set.of()));
        AllocationProblem p = m.problem();
        assertEquals(1.0, p.weight(p.sessionIndex("s1")));
        assertEquals(1.0, p.weight(p.sessionIndex("s2")));
        assertEquals(1.0, p.weight(p.sessionIndex("s3")));
        assertEquals(0.0, p.minRate(p.sessionIndex("s1")));
        assertEquals(AllocationProblem.NO_DEMAND, p.demand(p.sessionIndex("s3")));
        // two spines: two candidate paths per session, in path-id order, each host → leaf → spine → leaf → host
        for (List<Path> ps : m.paths()) {
            assertEquals(List.of(1, 2), ps.stream().map(Path::id).toList());
            assertEquals(4, ps.get(0).links().size());
        }
        // links of the problem: only what the paths use, capacities in bit/s
        assertEquals(C, p.capacity(p.linkIndex("device:leaf1/3->device:spine1/1")));
        assertEquals(C, p.capacity(p.linkIndex("h1/0->device:leaf1/1")));
    }

    @Test
    void guaranteesAreSharedLikeWeightsAndCappedByDemand() {
        NetworkConfig cfg = leafSpine(2, 2, 2, 100);
        AllocationModel m = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 3, 30_000_000L)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "blue", "h2", "h4", 10_000_000L),
                        session("s3", "blue", "h3", "h1", null)), Set.of()));
        AllocationProblem p = m.problem();
        assertEquals(10e6, p.minRate(p.sessionIndex("s1")));
        assertEquals(10e6, p.minRate(p.sessionIndex("s2")));
        assertEquals(10e6, p.demand(p.sessionIndex("s2")));
        assertEquals(1.0, p.weight(p.sessionIndex("s3")));
        assertEquals(Set.of("blue"), m.guaranteedTenants());

        AllocationModel capped = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 3, 60_000_000L)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "blue", "h2", "h4", 5_000_000L)), Set.of()));
        assertEquals(30e6, capped.problem().minRate(0));
        assertEquals(5e6, capped.problem().minRate(1)); // the guarantee share never exceeds the demand
    }

    @Test
    void aLinkThatIsDownTakesItsPathsOutAndAllDownMakesASessionUnroutable() {
        NetworkConfig cfg = leafSpine(2, 2, 2, 100);
        List<org.fairfabric.api.dto.SessionDto> sessions = List.of(session("s1", "blue", "h1", "h3", null));
        AllocationModel m = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 1, null)), sessions,
                Set.of("device:leaf1/3->device:spine1/1")));
        assertEquals(List.of(2), m.paths().get(0).stream().map(Path::id).toList());
        assertEquals(-1, m.problem().linkIndex("device:leaf1/3->device:spine1/1"));
        assertTrue(m.problem().linkIndex("device:leaf1/4->device:spine2/1") >= 0);
        // the reverse direction of a down cable is reported down too by the view; either direction removes the path
        AllocationModel none = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 1, null)), sessions,
                Set.of("device:leaf1/3->device:spine1/1", "device:spine2/2->device:leaf2/4")));
        assertNull(none.problem());
        assertEquals(List.of("s1"), none.unroutable().stream().map(s -> s.id).toList());
    }

    @Test
    void atMostFourPathsTheShimCanSplitOver() {
        NetworkConfig cfg = leafSpine(2, 6, 1, 100);
        AllocationModel m = ProblemAdapter.build(inputs(cfg, List.of(tenant("t", 1, null)),
                List.of(session("s1", "t", "h1", "h2", null)), Set.of()));
        assertEquals(List.of(1, 2, 3, 4), m.paths().get(0).stream().map(Path::id).toList());
    }

    @Test
    void shimHostsComeFromTheConfigurationAnnotationAndFollowATenantsClaimByMac() {
        NetworkConfig cfg = leafSpine(2, 1, 2, 100, "h1", "h4");
        HostDto web = new HostDto("web1", "blue", "10.0.1.1", "00:00:0a:00:01:01", new LocationDto("device:leaf1", 1));
        AllocationModel m = ProblemAdapter.build(new AllocationInputs(cfg, List.of(tenant("blue", 1, null)), List.of(web),
                List.of(), Set.of()));
        assertEquals(Set.of("web1", "h4"), m.shimHosts());
        assertNull(m.problem());
    }

    @Test
    void sessionsSharingOneUplinkGetRatesInTheWeightRatio() throws Exception {
        NetworkConfig cfg = leafSpine(2, 1, 2, 100);
        AllocationModel m = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 2, null), tenant("red", 1, null)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", null)), Set.of()));
        Allocation a = new ExactAllocator(1e-8, 200).solve(m.problem());
        assertEquals(2 * C / 3, a.sessionRate(0), 1e-6 * C);
        assertEquals(C / 3, a.sessionRate(1), 1e-6 * C);

        // a guarantee above the weighted share moves the split; one above the capacity is infeasible
        AllocationModel g = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 2, null), tenant("red", 1, 50_000_000L)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", null)), Set.of()));
        Allocation ga = new ExactAllocator(1e-8, 200).solve(g.problem());
        assertEquals(C / 2, ga.sessionRate(1), 1e-4 * C);
        AllocationModel over = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 2, 60_000_000L), tenant("red", 1, 50_000_000L)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", null)), Set.of()));
        InfeasibleProblemException e = assertThrows(InfeasibleProblemException.class,
                () -> new ExactAllocator(1e-8, 200).solve(over.problem()));
        List<String> named = AllocationLoop.bottlenecks(e.getMessage());
        // the certificate prices the shared uplink (it may price the host links too)
        assertTrue(named.contains("device:leaf1/3->device:spine1/1") || named.contains("device:spine1/2->device:leaf2/3"),
                e.getMessage());
    }

    /** Work conservation: an idle session's guarantee is not reserved and the others get its capacity. */
    @Test
    void anIdleSessionReservesNothingAndItsCapacityGoesToTheOthers() throws Exception {
        NetworkConfig cfg = leafSpine(2, 1, 2, 100);
        List<TenantDto> tenants = List.of(tenant("g", 1, 40_000_000L), tenant("b", 3, null));
        List<SessionDto> sessions = List.of(session("s1", "g", "h1", "h3", null), session("s2", "b", "h2", "h4", null));
        AllocationInputs busy = inputs(cfg, tenants, sessions, Set.of());
        Allocation a = new ExactAllocator(1e-8, 200).solve(ProblemAdapter.build(busy).problem());
        assertEquals(0.4 * C, a.sessionRate(0), 1e-4 * C, "the guarantee above the weighted share (C/4) holds");

        AllocationInputs idle = new AllocationInputs(busy.config(), busy.tenants(), busy.hosts(), busy.sessions(), Set.of(), Set.of("s1"));
        AllocationProblem p = ProblemAdapter.build(idle).problem();
        assertEquals(0.0, p.minRate(0), "nothing reserved for the idle session");
        assertEquals(ProblemAdapter.IDLE_DEMAND_BPS, p.demand(0));
        Allocation ai = new ExactAllocator(1e-8, 200).solve(p);
        assertEquals(ProblemAdapter.IDLE_DEMAND_BPS, ai.sessionRate(0), 1e-4 * C);
        assertEquals(C - ProblemAdapter.IDLE_DEMAND_BPS, ai.sessionRate(1), 1e-4 * C, "the busy tenant takes the rest");

        // a tenant with one idle and one busy session: the busy one carries the whole guarantee
        List<SessionDto> two = List.of(session("s1", "g", "h1", "h3", null), session("s3", "g", "h3", "h1", null),
                session("s2", "b", "h2", "h4", null));
        AllocationInputs half = inputs(cfg, tenants, two, Set.of());
        AllocationProblem hp = ProblemAdapter.build(new AllocationInputs(half.config(), half.tenants(), half.hosts(), half.sessions(),
                Set.of(), Set.of("s1"))).problem();
        assertEquals(40e6, hp.minRate(hp.sessionIndex("s3")));
        assertEquals(0.0, hp.minRate(hp.sessionIndex("s1")));
    }

    @Test
    void twoSessionsBetweenTheSameHostsAreAnError() {
        NetworkConfig cfg = leafSpine(2, 2, 2, 100);
        List<TenantDto> blue = List.of(tenant("blue", 1, null));
        AllocationInputs in = inputs(cfg, blue, List.of(session("s1", "blue", "h1", "h3", null), session("s2", "blue", "h1", "h3", null)), Set.of());
        assertThrows(IllegalArgumentException.class, () -> ProblemAdapter.build(in));
        // …also when the second one arrives on a model built before
        AllocationInputs one = inputs(cfg, blue, List.of(session("s1", "blue", "h1", "h3", null)), Set.of());
        AllocationInputs two = new AllocationInputs(cfg, blue, one.hosts(), in.sessions(), Set.of());
        assertThrows(IllegalArgumentException.class, () -> ProblemAdapter.build(two, one, ProblemAdapter.build(one)));
    }

    /** Headroom: every link of the problem offers (1 − h) of its capacity, whether built afresh or from a model before. */
    @Test
    void aHeadroomTakesItsShareOfEveryLinkAlsoWhenTheModelIsReused() throws Exception {
        NetworkConfig cfg = leafSpine(2, 2, 2, 100);
        List<TenantDto> blue = List.of(tenant("blue", 1, null));
        AllocationInputs one = inputs(cfg, blue, List.of(session("s1", "blue", "h1", "h3", null)), Set.of());
        AllocationInputs kept = one.withHeadroom(CapacityHeadroom.of(0.03));
        AllocationProblem fresh = ProblemAdapter.build(kept).problem();
        for (int e = 0; e < fresh.linkCount(); e++) {
            assertEquals(0.97 * C, fresh.capacity(e), 1e-6, fresh.linkId(e));
        }
        assertEquals(0.97 * C, new ExactAllocator().solve(fresh).sessionRate(0), 1e-3 * C);
        // a model built without headroom is not reused with its full capacities
        AllocationProblem fromNone = ProblemAdapter.build(kept, one, ProblemAdapter.build(one)).problem();
        // a model built with it keeps it, and a second session's new links get it too
        AllocationInputs two = new AllocationInputs(cfg, blue, one.hosts(), List.of(session("s1", "blue", "h1", "h3", null),
                session("s2", "blue", "h2", "h4", null)), Set.of()).withHeadroom(CapacityHeadroom.of(0.03));
        AllocationProblem fromKept = ProblemAdapter.build(two, kept, ProblemAdapter.build(kept)).problem();
        for (AllocationProblem p : List.of(fromNone, fromKept)) {
            for (int e = 0; e < p.linkCount(); e++) {
                assertEquals(0.97 * C, p.capacity(e), 1e-6, p.linkId(e));
            }
        }
        assertEquals(8, fromKept.linkCount(), "both sessions' host links and uplinks");
    }

    @Test
    void aHeadroomOutsideZeroToAHalfIsRefusedWithItsValue() {
        for (String bad : new String[] {"-0.01", "0.6", "NaN", "3%", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CapacityHeadroom.parse("--headroom", bad));
            assertEquals("--headroom must be a fraction from 0 to 0.5 (e.g. 0.03), got '" + bad + "'", e.getMessage());
        }
        assertEquals(CapacityHeadroom.NONE, CapacityHeadroom.parse("--headroom", "0"));
        assertEquals(0.25, CapacityHeadroom.parse("--headroom", "0.25").fraction());
    }
}
