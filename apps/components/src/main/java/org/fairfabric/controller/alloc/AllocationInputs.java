package org.fairfabric.controller.alloc;

import java.util.List;
import java.util.Set;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.netcfg.NetworkConfig;

/**
 * Everything one allocation round reads, taken at one moment: the network configuration (switches,
 * cables with capacities, which hosts run the shim), the tenants with weights and guarantees, their
 * hosts, the sessions, and the links that are down (core link ids {@code device/port->device/port}).
 */
public record AllocationInputs(NetworkConfig config, List<TenantDto> tenants, List<HostDto> hosts,
                               List<SessionDto> sessions, Set<String> downLinks) {
    public AllocationInputs {
        tenants = List.copyOf(tenants);
        hosts = List.copyOf(hosts);
        sessions = List.copyOf(sessions);
        downLinks = Set.copyOf(downLinks);
    }
}
