package org.fairfabric.api.dto;

import java.util.List;
import java.util.Objects;

/** What the allocator gave one session: its total and the split over its paths. */
public final class AllocationDto {
    public final String sessionId;
    public final String tenantId;
    public final double totalBps;
    public final List<PathRateDto> paths;
    public final String computedAt;
    /**
     * Whether this is the exact weighted-PF optimum of its round (to the allocator's tolerance); false
     * for an interim allocation, put in force when sessions arrived while the exact solve runs.
     */
    public final boolean exact;

    public AllocationDto(String sessionId, String tenantId, double totalBps, List<PathRateDto> paths, String computedAt,
                         boolean exact) {
        this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
        this.tenantId = Objects.requireNonNull(tenantId, "tenantId");
        this.totalBps = totalBps;
        this.paths = List.copyOf(Objects.requireNonNull(paths, "paths"));
        this.computedAt = Objects.requireNonNull(computedAt, "computedAt");
        this.exact = exact;
    }
}
