package org.fairfabric.controller.alloc;

import java.util.List;

/** The rate (bit/s) of one sub-flow of a session: its path id (the 802.1Q VID) and the switches it crosses. */
public record PathAllocation(int pathId, List<String> devices, double rateBps) {
    public PathAllocation {
        devices = List.copyOf(devices);
    }
}
