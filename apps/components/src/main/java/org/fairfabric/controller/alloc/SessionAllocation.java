package org.fairfabric.controller.alloc;

import java.util.List;
import org.fairfabric.api.dto.SessionDto;

/** What one session got in a round: its total (bit/s) and the split over its candidate paths (empty when unroutable). */
public final class SessionAllocation {
    private final SessionDto session;
    private final double totalBps;
    private final List<PathAllocation> paths;

    public SessionAllocation(SessionDto session, double totalBps, List<PathAllocation> paths) {
        paths = List.copyOf(paths);
        this.session = session;
        this.totalBps = totalBps;
        this.paths = paths;
    }

    public SessionDto session() {
        return session;
    }

    public double totalBps() {
        return totalBps;
    }

    public List<PathAllocation> paths() {
        return paths;
    }

    /** The rate on the path with id {@code pathId}; 0 when it has no such path. */
    public double rateBps(int pathId) {
        for (int j = 0; j < paths.size(); j++) {
            if (paths.get(j).pathId() == pathId) {
                return paths.get(j).rateBps();
            }
        }
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SessionAllocation)) {
            return false;
        }
        SessionAllocation other = (SessionAllocation) o;
        return java.util.Objects.equals(session, other.session)
                && Double.compare(totalBps, other.totalBps) == 0
                && java.util.Objects.equals(paths, other.paths);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(session, totalBps, paths);
    }

    @Override
    public String toString() {
        return "SessionAllocation[session=" + session + ", totalBps=" + totalBps + ", paths=" + paths + "]";
    }
}
