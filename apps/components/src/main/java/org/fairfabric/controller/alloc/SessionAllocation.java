package org.fairfabric.controller.alloc;

import java.util.List;
import org.fairfabric.api.dto.SessionDto;

/** What one session got in a round: its total (bit/s) and the split over its candidate paths (empty when unroutable). */
public record SessionAllocation(SessionDto session, double totalBps, List<PathAllocation> paths) {
    public SessionAllocation {
        paths = List.copyOf(paths);
    }
}
