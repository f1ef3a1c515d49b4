package org.fairfabric.core.ports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.model.Tenant;

/** A {@link TenantStore} in memory: for tests and as the base of persistent stores. Not thread-safe. */
public final class InMemoryTenantStore implements TenantStore {
    private final Map<String, Tenant> tenants = new TreeMap<>();
    private final Map<String, String> tenantByHost = new TreeMap<>();

    @Override
    public Optional<Tenant> tenant(String tenantId) {
        return Optional.ofNullable(tenants.get(tenantId));
    }

    @Override
    public List<Tenant> tenants() {
        return new ArrayList<>(tenants.values());
    }

    @Override
    public void putTenant(Tenant tenant) {
        Checks.notNull(tenant, "tenant");
        tenants.put(tenant.id(), tenant);
    }

    @Override
    public boolean removeTenant(String tenantId) {
        if (tenants.remove(tenantId) == null) {
            return false;
        }
        tenantByHost.values().removeIf(t -> t.equals(tenantId));
        return true;
    }

    @Override
    public void assignHost(String hostId, String tenantId) {
        Checks.nonEmpty(hostId, "host id");
        if (!tenants.containsKey(tenantId)) {
            throw new IllegalArgumentException("unknown tenant " + tenantId);
        }
        tenantByHost.put(hostId, tenantId);
    }

    @Override
    public Optional<String> tenantOfHost(String hostId) {
        return Optional.ofNullable(tenantByHost.get(hostId));
    }

    @Override
    public List<String> hostsOf(String tenantId) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : tenantByHost.entrySet()) {
            if (e.getValue().equals(tenantId)) {
                out.add(e.getKey());
            }
        }
        return out;
    }
}
