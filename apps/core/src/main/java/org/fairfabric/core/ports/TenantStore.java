package org.fairfabric.core.ports;

import java.util.List;
import java.util.Optional;
import org.fairfabric.core.model.Tenant;

/** Tenants and which hosts belong to them (ONOS distributed store, or the embedded controller's store). */
public interface TenantStore {
    Optional<Tenant> tenant(String tenantId);

    List<Tenant> tenants();

    /** Creates or replaces a tenant. */
    void putTenant(Tenant tenant);

    /** Removes a tenant and its host assignments; false if it did not exist. */
    boolean removeTenant(String tenantId);

    /** Assigns a host to an existing tenant (IllegalArgumentException if the tenant is unknown). */
    void assignHost(String hostId, String tenantId);

    Optional<String> tenantOfHost(String hostId);

    List<String> hostsOf(String tenantId);
}
