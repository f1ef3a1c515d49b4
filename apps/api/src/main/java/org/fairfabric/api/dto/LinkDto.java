package org.fairfabric.api.dto;

import java.util.Objects;

/** A directed link with its capacity, its measured load (bit/s) and whether it is up. */
public final class LinkDto {
    public final String id;
    public final LocationDto src;
    public final LocationDto dst;
    public final long capacityBps;
    public final double loadBps;
    public final boolean up;

    public LinkDto(LocationDto src, LocationDto dst, long capacityBps, double loadBps, boolean up) {
        this.src = Objects.requireNonNull(src, "src");
        this.dst = Objects.requireNonNull(dst, "dst");
        this.id = src + "-" + dst;
        this.capacityBps = capacityBps;
        this.loadBps = loadBps;
        this.up = up;
    }

    public LinkDto withLoad(double newLoadBps) {
        return new LinkDto(src, dst, capacityBps, newLoadBps, up);
    }

    public LinkDto withUp(boolean nowUp) {
        return new LinkDto(src, dst, capacityBps, loadBps, nowUp);
    }
}
