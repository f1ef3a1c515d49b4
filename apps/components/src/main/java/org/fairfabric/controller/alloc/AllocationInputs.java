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
 * hosts, the sessions, the links that are down (core link ids {@code device/port->device/port}), and
 * the declared sessions that send nothing (the monitor's view says so: work conservation,
 * docs/guarantees.md).
 */
public final class AllocationInputs {
    private final NetworkConfig config;
    private final List<TenantDto> tenants;
    private final List<HostDto> hosts;
    private final List<SessionDto> sessions;
    private final Set<String> downLinks;
    private final Set<String> idleSessions;
    private final CapacityHeadroom headroom;

    public AllocationInputs(NetworkConfig config, List<TenantDto> tenants, List<HostDto> hosts, List<SessionDto> sessions, Set<String> downLinks) {
        this(config, tenants, hosts, sessions, downLinks, Set.of());
    }

    /** @param idleSessions ids of sessions that send nothing now: their guarantee is not reserved, their demand capped */
    public AllocationInputs(NetworkConfig config, List<TenantDto> tenants, List<HostDto> hosts, List<SessionDto> sessions, Set<String> downLinks,
                            Set<String> idleSessions) {
        this(config, tenants, hosts, sessions, downLinks, idleSessions, CapacityHeadroom.NONE);
    }

    private AllocationInputs(NetworkConfig config, List<TenantDto> tenants, List<HostDto> hosts, List<SessionDto> sessions, Set<String> downLinks,
                             Set<String> idleSessions, CapacityHeadroom headroom) {
        this.headroom = headroom;
        this.idleSessions = Set.copyOf(idleSessions);
        tenants = List.copyOf(tenants);
        hosts = List.copyOf(hosts);
        sessions = List.copyOf(sessions);
        downLinks = Set.copyOf(downLinks);
        this.config = config;
        this.tenants = tenants;
        this.hosts = hosts;
        this.sessions = sessions;
        this.downLinks = downLinks;
    }

    public NetworkConfig config() {
        return config;
    }

    public List<TenantDto> tenants() {
        return tenants;
    }

    public List<HostDto> hosts() {
        return hosts;
    }

    public List<SessionDto> sessions() {
        return sessions;
    }

    public Set<String> downLinks() {
        return downLinks;
    }

    public Set<String> idleSessions() {
        return idleSessions;
    }

    /** The share of every link's capacity that allocations and guarantees leave free. */
    public CapacityHeadroom headroom() {
        return headroom;
    }

    /** The same inputs with {@code h} of every link kept free. */
    public AllocationInputs withHeadroom(CapacityHeadroom h) {
        return new AllocationInputs(config, tenants, hosts, sessions, downLinks, idleSessions, h);
    }

    /** The same inputs with {@code more} sessions and {@code idle} the ids of those that send nothing. */
    public AllocationInputs withSessions(List<SessionDto> more, Set<String> idle) {
        return new AllocationInputs(config, tenants, hosts, more, downLinks, idle, headroom);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AllocationInputs)) {
            return false;
        }
        AllocationInputs other = (AllocationInputs) o;
        return java.util.Objects.equals(config, other.config)
                && java.util.Objects.equals(tenants, other.tenants)
                && java.util.Objects.equals(hosts, other.hosts)
                && java.util.Objects.equals(sessions, other.sessions)
                && java.util.Objects.equals(downLinks, other.downLinks)
                && java.util.Objects.equals(idleSessions, other.idleSessions)
                && headroom.equals(other.headroom);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(config, tenants, hosts, sessions, downLinks, idleSessions, headroom);
    }

    @Override
    public String toString() {
        return "AllocationInputs[config=" + config + ", tenants=" + tenants + ", hosts=" + hosts + ", sessions=" + sessions + ", downLinks=" + downLinks + ", idleSessions=" + idleSessions + ", headroom=" + headroom + "]";
    }
}
