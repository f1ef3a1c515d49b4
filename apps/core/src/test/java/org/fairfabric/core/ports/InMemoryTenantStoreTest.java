package org.fairfabric.core.ports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.fairfabric.core.model.Tenant;
import org.junit.jupiter.api.Test;

class InMemoryTenantStoreTest {
    @Test
    void tenantsAndHostAssignments() {
        InMemoryTenantStore s = new InMemoryTenantStore();
        s.putTenant(new Tenant("a", "Alpha", 2));
        s.putTenant(new Tenant("b", "Beta", 1));
        s.assignHost("h0", "a");
        s.assignHost("h1", "a");
        s.assignHost("h2", "b");
        assertEquals(List.of("h0", "h1"), s.hostsOf("a"));
        assertThrows(IllegalArgumentException.class, () -> s.assignHost("h3", "zz"));
        assertEquals(Optional.empty(), s.tenantOfHost("h3"), "failed assignment changed nothing");
        s.putTenant(new Tenant("a", "Alpha", 5));
        assertEquals(5, s.tenant("a").get().weight());
        assertTrue(s.removeTenant("a"));
        assertFalse(s.removeTenant("a"));
        assertEquals(Optional.empty(), s.tenantOfHost("h0"));
        assertEquals(Optional.of("b"), s.tenantOfHost("h2"));
    }
}
