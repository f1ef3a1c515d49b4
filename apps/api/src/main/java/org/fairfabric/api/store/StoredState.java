package org.fairfabric.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.TenantDto;

/** What must survive a crash: tenants, their hosts, the network configuration. Immutable. */
public final class StoredState {
    public static final StoredState EMPTY = new StoredState(Map.of(), Map.of(), null);

    private final Map<String, TenantDto> tenants;
    private final Map<String, HostDto> hosts;
    private final String networkConfig;

    private StoredState(Map<String, TenantDto> tenants, Map<String, HostDto> hosts, String networkConfig) {
        this.tenants = Collections.unmodifiableMap(new LinkedHashMap<>(tenants));
        this.hosts = Collections.unmodifiableMap(new LinkedHashMap<>(hosts));
        this.networkConfig = networkConfig;
    }

    /** Tenants by id, in creation order. */
    public Map<String, TenantDto> tenants() {
        return tenants;
    }

    /** Hosts by id, in creation order. */
    public Map<String, HostDto> hosts() {
        return hosts;
    }

    public Optional<String> networkConfig() {
        return Optional.ofNullable(networkConfig);
    }

    StoredState withTenant(TenantDto t) {
        Map<String, TenantDto> m = new LinkedHashMap<>(tenants);
        m.put(t.id, t);
        return new StoredState(m, hosts, networkConfig);
    }

    StoredState withoutTenant(String id) {
        Map<String, TenantDto> m = new LinkedHashMap<>(tenants);
        m.remove(id);
        Map<String, HostDto> h = new LinkedHashMap<>(hosts);
        h.values().removeIf(host -> host.tenantId.equals(id));
        return new StoredState(m, h, networkConfig);
    }

    StoredState withHost(HostDto host) {
        Map<String, HostDto> h = new LinkedHashMap<>(hosts);
        h.put(host.id, host);
        return new StoredState(tenants, h, networkConfig);
    }

    StoredState withoutHost(String id) {
        Map<String, HostDto> h = new LinkedHashMap<>(hosts);
        h.remove(id);
        return new StoredState(tenants, h, networkConfig);
    }

    StoredState withNetworkConfig(String json) {
        return new StoredState(tenants, hosts, json);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof StoredState)) {
            return false;
        }
        StoredState s = (StoredState) o;
        return tenants.equals(s.tenants) && hosts.equals(s.hosts) && Objects.equals(networkConfig, s.networkConfig);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenants, hosts, networkConfig);
    }
}
