package org.fairfabric.api.service;

import java.util.List;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;

/**
 * Admission of guarantees (vFab): before a change to tenants, hosts or declared sessions is stored,
 * {@link FabricService} hands the state it would lead to here. An implementation that finds a
 * guarantee the fabric cannot carry throws {@link org.fairfabric.api.error.ConflictException} with
 * the reason; the change is then not made.
 */
public interface GuaranteeAdmission {
    /** Admits everything (no fabric known). */
    GuaranteeAdmission NONE = p -> { };

    void check(Proposal p);

    /** The state after the change, and the request field the change came from. */
    final class Proposal {
        public final List<TenantDto> tenants;
        public final List<HostDto> hosts;
        public final List<SessionDto> sessions;
        /** The tenant the change is about. */
        public final String tenantId;
        /** The request field a refusal names (for example {@code minBandwidthBps}). */
        public final String field;

        public Proposal(List<TenantDto> tenants, List<HostDto> hosts, List<SessionDto> sessions, String tenantId,
                        String field) {
            this.tenants = List.copyOf(tenants);
            this.hosts = List.copyOf(hosts);
            this.sessions = List.copyOf(sessions);
            this.tenantId = tenantId;
            this.field = field;
        }
    }
}
