package org.fairfabric.api.dto;

import java.util.List;
import java.util.Objects;

/**
 * One routing group (P4TE Algorithm 4): on a device, for a metric, the upward ports currently in
 * group {@code level} (0 is the best). All upward ports in level 0 is plain ECMP.
 */
public final class RoutingGroupDto {
    public final String device;
    public final String metric;
    public final int level;
    public final List<Integer> ports;

    public RoutingGroupDto(String device, String metric, int level, List<Integer> ports) {
        this.device = Objects.requireNonNull(device, "device");
        this.metric = Objects.requireNonNull(metric, "metric");
        this.level = level;
        this.ports = List.copyOf(ports);
    }
}
