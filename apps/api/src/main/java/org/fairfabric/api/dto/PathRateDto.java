package org.fairfabric.api.dto;

import java.util.List;
import java.util.Objects;

/** The rate allocated to one sub-flow of a session: a path (its devices in order) and bit/s. */
public final class PathRateDto {
    public final int pathId;
    public final List<String> devices;
    public final double rateBps;

    public PathRateDto(int pathId, List<String> devices, double rateBps) {
        this.pathId = pathId;
        this.devices = List.copyOf(Objects.requireNonNull(devices, "devices"));
        this.rateBps = rateBps;
    }
}
