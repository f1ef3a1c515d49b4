package org.fairfabric.controller.alloc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;

/** Leaf-spine configurations (host n of leaf l is h((l-1)*H+n) at 10.0.l.n) and the REST model's DTOs. */
final class Fixtures {
    private Fixtures() {
    }

    /** A leaf-spine at {@code mbps} per link; the named configuration hosts run the shim. */
    static NetworkConfig leafSpine(int leaves, int spines, int hostsPerLeaf, long mbps, String... shimHosts) {
        try {
            ObjectNode root = (ObjectNode) Json.MAPPER.readTree(FabricConfigs.leafSpine(leaves, spines, hostsPerLeaf, "127.0.0.1", 50001, mbps));
            Set<String> shims = Set.of(shimHosts);
            root.get("hosts").fields().forEachRemaining(e -> {
                if (shims.contains(e.getValue().get("basic").get("name").asText())) {
                    ((ObjectNode) e.getValue()).putObject("fairfabric").put("shim", true);
                }
            });
            return new NetworkConfigParser().parse(Json.MAPPER.writeValueAsString(root));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static TenantDto tenant(String id, double weight, Long minBps) {
        return new TenantDto(id, "Tenant " + id, weight, minBps);
    }

    /** The configuration's host {@code name} claimed by {@code tenant} under the same id. */
    static HostDto host(NetworkConfig cfg, String name, String tenant) {
        for (NetworkConfig.Host h : cfg.hosts) {
            if (h.name.equals(name)) {
                return new HostDto(name, tenant, h.ips.get(0), h.mac, new LocationDto(h.location.device, h.location.port));
            }
        }
        throw new IllegalArgumentException("no host " + name);
    }

    static SessionDto session(String id, String tenant, String src, String dst, Long demandBps) {
        return new SessionDto(id, tenant, src, dst, demandBps, "api");
    }

    /** Inputs where every host named in a session belongs to the session's tenant. */
    static AllocationInputs inputs(NetworkConfig cfg, List<TenantDto> tenants, List<SessionDto> sessions, Set<String> down) {
        List<HostDto> hosts = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (SessionDto s : sessions) {
            for (String h : List.of(s.srcHost, s.dstHost)) {
                if (seen.add(h)) {
                    hosts.add(host(cfg, h, s.tenantId));
                }
            }
        }
        return new AllocationInputs(cfg, tenants, hosts, sessions, down);
    }
}
