package org.fairfabric.controller.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.alloc.AllocationInputs;
import org.fairfabric.controller.alloc.CapacityHeadroom;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.core.model.Link;
import org.junit.jupiter.api.Test;

/** Both stages of the admission on a 2-leaf, 2-spine fabric at 100 Mbit/s per link. */
class TwoStageAdmissionTest {
    static final long M = 1_000_000L;
    final NetworkConfig cfg = new NetworkConfigParser().parse(FabricConfigs.leafSpine(2, 2, 2, "127.0.0.1", 50001, 100));

    HostDto host(String name, String tenant) {
        for (NetworkConfig.Host h : cfg.hosts) {
            if (h.name.equals(name)) {
                return new HostDto(name, tenant, h.ips.get(0), h.mac, new LocationDto(h.location.device, h.location.port));
            }
        }
        throw new IllegalArgumentException(name);
    }

    /** A VM of {@code tenant} on the server {@code name} (same port, own address). */
    HostDto vm(String id, String name, String tenant, int n) {
        HostDto server = host(name, tenant);
        return new HostDto(id, tenant, "10.9.9." + n, "00:00:0a:09:09:0" + n, server.location);
    }

    static TenantDto tenant(String id, Long minBps) {
        return new TenantDto(id, id, 1, minBps);
    }

    static SessionDto session(String id, String tenant, String src, String dst) {
        return new SessionDto(id, tenant, src, dst, null, "api");
    }

    AllocationInputs in(List<TenantDto> tenants, List<HostDto> hosts, List<SessionDto> sessions, Set<String> down) {
        return new AllocationInputs(cfg, tenants, hosts, sessions, down);
    }

    @Test
    void edgeRefusesAGuaranteeAboveTheHostLinkAndAdmitsOneBelow() {
        List<HostDto> hosts = List.of(host("h1", "blue"), host("h3", "blue"));
        Optional<String> refused = TwoStageAdmission.edge(in(List.of(tenant("blue", 250 * M)), hosts, List.of(), Set.of()));
        assertTrue(refused.isPresent());
        assertTrue(refused.get().startsWith("stage 1 (edge): the host link of h1"), refused.get());
        assertTrue(refused.get().contains("100 Mbit/s") && refused.get().contains("'blue' 250 Mbit/s"), refused.get());
        assertEquals(Optional.empty(), TwoStageAdmission.edge(in(List.of(tenant("blue", 100 * M)), hosts, List.of(), Set.of())));
    }

    /** With a headroom the guarantees fit in what the allocator may use of the cable, not all of it. */
    @Test
    void edgeAdmitsGuaranteesInWhatTheHeadroomLeaves() {
        List<HostDto> hosts = List.of(host("h1", "blue"), host("h3", "blue"));
        CapacityHeadroom h = CapacityHeadroom.of(0.03);
        String reason = TwoStageAdmission.edge(in(List.of(tenant("blue", 100 * M)), hosts, List.of(), Set.of()).withHeadroom(h)).orElseThrow();
        assertTrue(reason.contains("97 Mbit/s after the headroom of 3.0 %") && reason.contains("'blue' 100 Mbit/s"), reason);
        assertEquals(Optional.empty(), TwoStageAdmission.edge(in(List.of(tenant("blue", 97 * M)), hosts, List.of(), Set.of()).withHeadroom(h)));
        // the whole admission refuses it with a 409 and the same reason
        TwoStageAdmission admission = new TwoStageAdmission(() -> cfg, Set::of, h);
        org.fairfabric.api.error.ConflictException e = org.junit.jupiter.api.Assertions.assertThrows(
                org.fairfabric.api.error.ConflictException.class, () -> admission.check(new org.fairfabric.api.service.GuaranteeAdmission.Proposal(
                        List.of(tenant("blue", 100 * M)), hosts, List.of(), "blue", "minBandwidthBps")));
        assertTrue(e.getMessage().contains("after the headroom of 3.0 %"), e.getMessage());
    }

    @Test
    void edgeAddsTheGuaranteesOfTenantsSharingAServerCable() {
        List<HostDto> hosts = List.of(vm("red1", "h1", "red", 1), vm("blue1", "h1", "blue", 2));
        List<TenantDto> fits = List.of(tenant("red", 60 * M), tenant("blue", 40 * M));
        assertEquals(Optional.empty(), TwoStageAdmission.edge(in(fits, hosts, List.of(), Set.of())));
        List<TenantDto> over = List.of(tenant("red", 60 * M), tenant("blue", 41 * M));
        String reason = TwoStageAdmission.edge(in(over, hosts, List.of(), Set.of())).orElseThrow();
        assertTrue(reason.contains("'red' 60 Mbit/s + 'blue' 41 Mbit/s = 101 Mbit/s"), reason);
        // a tenant without a guarantee on the same cable reserves nothing
        List<TenantDto> oneGuaranteed = List.of(tenant("red", 100 * M), tenant("blue", null));
        assertEquals(Optional.empty(), TwoStageAdmission.edge(in(oneGuaranteed, hosts, List.of(), Set.of())));
    }

    @Test
    void fabricRefusesMinimumRatesAboveWhatTheUpPathsCarry() {
        // h1, h2 on leaf1; h3, h4 on leaf2; two tenants each guarantee 80 Mbit/s across the spines
        List<TenantDto> tenants = List.of(tenant("red", 80 * M), tenant("blue", 80 * M));
        List<HostDto> hosts = List.of(host("h1", "red"), host("h3", "red"), host("h2", "blue"), host("h4", "blue"));
        List<SessionDto> sessions = List.of(session("s1", "red", "h1", "h3"), session("s2", "blue", "h2", "h4"));
        assertEquals(Optional.empty(), TwoStageAdmission.fabric(in(tenants, hosts, sessions, Set.of())),
                "two 100 Mbit/s uplinks carry 160 Mbit/s");

        Set<String> spine2Down = new TreeSet<>();
        for (Link l : CoreTopology.build(cfg, hosts).links()) {
            if (l.src().elementId().equals("device:spine2") || l.dst().elementId().equals("device:spine2")) {
                spine2Down.add(l.id());
            }
        }
        assertEquals(Optional.empty(), TwoStageAdmission.edge(in(tenants, hosts, sessions, spine2Down)));
        String reason = TwoStageAdmission.fabric(in(tenants, hosts, sessions, spine2Down)).orElseThrow();
        assertTrue(reason.startsWith("stage 2 (fabric): with the declared sessions, the minimum rates cannot all be met"), reason);
        assertTrue(reason.contains("spine1"), reason);

        // the same with one session fewer fits
        List<SessionDto> one = new ArrayList<>(sessions.subList(0, 1));
        assertEquals(Optional.empty(), TwoStageAdmission.fabric(in(tenants, hosts, one, spine2Down)));
    }
}
