package org.fairfabric.api.dto;

import java.util.Objects;

/**
 * A session (Promenade): traffic from one host to another of the same tenant. {@code demandBps}
 * caps its allocation when set; {@code source} tells whether an operator declared it over the API
 * or the monitor detected it.
 */
public final class SessionDto {
    /** {@link #source} of a session declared over the API (the only kind that is stored durably). */
    public static final String DECLARED = "api";

    public final String id;
    public final String tenantId;
    public final String srcHost;
    public final String dstHost;
    public final Long demandBps;
    public final String source;
    /**
     * The session's own weight (Promenade §3.8: a tenant splits its weight over its VM pairs);
     * null: an equal share of its tenant's weight.
     */
    public final Double weight;

    public SessionDto(String id, String tenantId, String srcHost, String dstHost, Long demandBps, String source) {
        this(id, tenantId, srcHost, dstHost, demandBps, source, null);
    }

    public SessionDto(String id, String tenantId, String srcHost, String dstHost, Long demandBps, String source, Double weight) {
        this.id = Objects.requireNonNull(id, "id");
        this.tenantId = Objects.requireNonNull(tenantId, "tenantId");
        this.srcHost = Objects.requireNonNull(srcHost, "srcHost");
        this.dstHost = Objects.requireNonNull(dstHost, "dstHost");
        this.demandBps = demandBps;
        this.source = Objects.requireNonNull(source, "source");
        this.weight = weight;
    }

    public SessionDto withWeight(Double newWeight) {
        return new SessionDto(id, tenantId, srcHost, dstHost, demandBps, source, newWeight);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SessionDto)) {
            return false;
        }
        SessionDto s = (SessionDto) o;
        return id.equals(s.id) && tenantId.equals(s.tenantId) && srcHost.equals(s.srcHost) && dstHost.equals(s.dstHost)
                && Objects.equals(demandBps, s.demandBps) && source.equals(s.source) && Objects.equals(weight, s.weight);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, tenantId, srcHost, dstHost, demandBps, source, weight);
    }

    @Override
    public String toString() {
        return "Session{" + id + ", " + tenantId + ", " + srcHost + "->" + dstHost + ", demand=" + demandBps
                + ", " + source + ", w=" + weight + "}";
    }
}
