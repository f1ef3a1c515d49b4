package org.fairfabric.core.model;

import java.util.Objects;

/** A switch port with its line rate and whether it faces a higher tier (an uplink). */
public final class Port {
    private final ConnectPoint point;
    private final long speedBps;
    private final boolean upward;

    public Port(ConnectPoint point, long speedBps, boolean upward) {
        this.point = Checks.notNull(point, "port connect point");
        this.speedBps = Checks.positive(speedBps, "port speed (bit/s)");
        this.upward = upward;
    }

    public ConnectPoint point() {
        return point;
    }

    public int number() {
        return point.port();
    }

    public long speedBps() {
        return speedBps;
    }

    public boolean upward() {
        return upward;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Port)) {
            return false;
        }
        Port p = (Port) o;
        return point.equals(p.point) && speedBps == p.speedBps && upward == p.upward;
    }

    @Override
    public int hashCode() {
        return Objects.hash(point, speedBps, upward);
    }

    @Override
    public String toString() {
        return point + (upward ? "^" : "") + "@" + speedBps;
    }
}
