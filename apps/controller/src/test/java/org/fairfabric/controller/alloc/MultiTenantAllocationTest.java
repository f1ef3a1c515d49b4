package org.fairfabric.controller.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.ExactAllocator;
import org.junit.jupiter.api.Test;

/**
 * Three tenants, weights 1:2:3, one VM each on the same sending server, to VMs on another server:
 * the server's cable is their shared bottleneck and the weighted proportional-fair optimum splits
 * it 1:2:3. A session weight set over REST (Promenade §3.8) replaces its equal share.
 */
class MultiTenantAllocationTest {
    static final double C = 100e6;

    static HostDto vm(String id, String tenant, String ip, String mac, NetworkConfig.Host server) {
        return new HostDto(id, tenant, ip, mac, new LocationDto(server.location.device, server.location.port));
    }

    static List<HostDto> vms(NetworkConfig cfg) {
        NetworkConfig.Host h1 = cfg.hosts.get(0);
        NetworkConfig.Host h3 = cfg.hosts.get(2);
        return List.of(vm("a1", "a", "10.9.1.1", "02:00:00:00:01:01", h1), vm("b1", "b", "10.9.1.2", "02:00:00:00:01:02", h1),
                vm("c1", "c", "10.9.1.3", "02:00:00:00:01:03", h1), vm("a3", "a", "10.9.3.1", "02:00:00:00:03:01", h3),
                vm("b3", "b", "10.9.3.2", "02:00:00:00:03:02", h3), vm("c3", "c", "10.9.3.3", "02:00:00:00:03:03", h3));
    }

    static double[] rates(NetworkConfig cfg, List<SessionDto> sessions) throws Exception {
        AllocationModel m = ProblemAdapter.build(new AllocationInputs(cfg, List.of(Fixtures.tenant("a", 1, null),
                Fixtures.tenant("b", 2, null), Fixtures.tenant("c", 3, null)), vms(cfg), sessions, Set.of()));
        AllocationProblem p = m.problem();
        Allocation a = new ExactAllocator(1e-9, ExactAllocator.DEFAULT_MAX_ITERATIONS).solve(p);
        double[] out = new double[sessions.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.sessionRate(p.sessionIndex(sessions.get(i).id));
        }
        return out;
    }

    @Test
    void vmsOfThreeTenantsOnOneServerShareItsCableByWeight() throws Exception {
        NetworkConfig cfg = Fixtures.leafSpine(2, 2, 2, 100);
        double[] r = rates(cfg, List.of(Fixtures.session("sa", "a", "a1", "a3", null), Fixtures.session("sb", "b", "b1", "b3", null),
                Fixtures.session("sc", "c", "c1", "c3", null)));
        assertEquals(C / 6, r[0], C * 1e-6);
        assertEquals(2 * C / 6, r[1], C * 1e-6);
        assertEquals(3 * C / 6, r[2], C * 1e-6);
    }

    @Test
    void aSessionsOwnWeightReplacesItsEqualShare() throws Exception {
        NetworkConfig cfg = Fixtures.leafSpine(2, 2, 2, 100);
        double[] r = rates(cfg, List.of(Fixtures.session("sa", "a", "a1", "a3", null).withWeight(5.0),
                Fixtures.session("sb", "b", "b1", "b3", null), Fixtures.session("sc", "c", "c1", "c3", null)));
        assertEquals(5 * C / 10, r[0], C * 1e-6);
        assertEquals(2 * C / 10, r[1], C * 1e-6);
        assertEquals(3 * C / 10, r[2], C * 1e-6);
    }
}
