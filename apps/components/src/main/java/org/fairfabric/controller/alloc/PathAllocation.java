package org.fairfabric.controller.alloc;

import java.util.List;

/** The rate (bit/s) of one sub-flow of a session: its path id (the 802.1Q VID) and the switches it crosses. */
public final class PathAllocation {
    private final int pathId;
    private final List<String> devices;
    private final double rateBps;

    public PathAllocation(int pathId, List<String> devices, double rateBps) {
        devices = List.copyOf(devices);
        this.pathId = pathId;
        this.devices = devices;
        this.rateBps = rateBps;
    }

    public int pathId() {
        return pathId;
    }

    public List<String> devices() {
        return devices;
    }

    public double rateBps() {
        return rateBps;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PathAllocation)) {
            return false;
        }
        PathAllocation other = (PathAllocation) o;
        return pathId == other.pathId
                && java.util.Objects.equals(devices, other.devices)
                && Double.compare(rateBps, other.rateBps) == 0;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(pathId, devices, rateBps);
    }

    @Override
    public String toString() {
        return "PathAllocation[pathId=" + pathId + ", devices=" + devices + ", rateBps=" + rateBps + "]";
    }
}
