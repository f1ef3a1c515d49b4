package org.fairfabric.api.dto;

import java.util.Objects;

/**
 * A tenant as the API shows and stores it. {@code weight} is its share of the fabric (Promenade);
 * {@code minBandwidthBps} an optional guarantee in bit/s (vFab), null when none.
 */
public final class TenantDto {
    public final String id;
    public final String name;
    public final double weight;
    public final Long minBandwidthBps;

    public TenantDto(String id, String name, double weight, Long minBandwidthBps) {
        this.id = Objects.requireNonNull(id, "id");
        this.name = Objects.requireNonNull(name, "name");
        this.weight = weight;
        this.minBandwidthBps = minBandwidthBps;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TenantDto)) {
            return false;
        }
        TenantDto t = (TenantDto) o;
        return id.equals(t.id) && name.equals(t.name) && Double.compare(weight, t.weight) == 0
                && Objects.equals(minBandwidthBps, t.minBandwidthBps);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, weight, minBandwidthBps);
    }

    @Override
    public String toString() {
        return "Tenant{" + id + ", " + name + ", w=" + weight + ", min=" + minBandwidthBps + "}";
    }
}
