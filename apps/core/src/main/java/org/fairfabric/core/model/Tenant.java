package org.fairfabric.core.model;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * A tenant: its network weight (Promenade: split over its communicating VM pairs) and an optional
 * minimum bandwidth (vFab: turned into tokens, phi = Bmin / B_u).
 */
public final class Tenant {
    private final String id;
    private final String name;
    private final double weight;
    private final OptionalLong minBandwidthBps;

    public Tenant(String id, String name, double weight, OptionalLong minBandwidthBps) {
        this.id = Checks.nonEmpty(id, "tenant id");
        this.name = Checks.nonEmpty(name, "tenant name");
        this.weight = Checks.positive(weight, "tenant weight");
        this.minBandwidthBps = Checks.notNull(minBandwidthBps, "tenant minimum bandwidth");
        if (minBandwidthBps.isPresent()) {
            Checks.positive(minBandwidthBps.getAsLong(), "tenant minimum bandwidth (bit/s)");
        }
    }

    public Tenant(String id, String name, double weight) {
        this(id, name, weight, OptionalLong.empty());
    }

    public String id() {
        return id;
    }

    public String name() {
        return name;
    }

    public double weight() {
        return weight;
    }

    public OptionalLong minBandwidthBps() {
        return minBandwidthBps;
    }

    public Tenant withWeight(double newWeight) {
        return new Tenant(id, name, newWeight, minBandwidthBps);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Tenant)) {
            return false;
        }
        Tenant t = (Tenant) o;
        return id.equals(t.id) && name.equals(t.name) && weight == t.weight
                && minBandwidthBps.equals(t.minBandwidthBps);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, weight, minBandwidthBps);
    }

    @Override
    public String toString() {
        return "Tenant(" + id + ", w=" + weight + ")";
    }
}
