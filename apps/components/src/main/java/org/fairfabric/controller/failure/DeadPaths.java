package org.fairfabric.controller.failure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.controller.alloc.SessionAllocation;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.PathEnumerator;
import org.fairfabric.core.model.Topology;

/**
 * The paths each shim host must stop using: for every session of the last allocation, the path
 * ids (VIDs) of its enumerated up-down paths that cross a link that is down now. Every enumerated
 * path counts, not only the ones in the rates table in force, so that a dead path stays listed for
 * as long as its link is down whatever table the shim holds (the rates and dead-path topics are
 * read by separate consumers, in no common order).
 */
public final class DeadPaths {
    /** The shim's limit on a session's paths (host-shim/ratetable MaxPaths): at most this many alive paths are listed. */
    static final int MAX_ALIVE = 4;

    /**
     * One session's dead path ids (ascending) and its paths that are up (path-id order, at most
     * {@link #MAX_ALIVE}): where the shim moves the session when no path of its table survives.
     */
    public static final class SessionPaths {
        private final List<Integer> dead;
        private final List<Integer> alive;

        public SessionPaths(List<Integer> dead, List<Integer> alive) {
            dead = List.copyOf(dead);
            alive = List.copyOf(alive);
            this.dead = dead;
            this.alive = alive;
        }

        public List<Integer> dead() {
            return dead;
        }

        public List<Integer> alive() {
            return alive;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof SessionPaths)) {
                return false;
            }
            SessionPaths other = (SessionPaths) o;
            return java.util.Objects.equals(dead, other.dead)
                    && java.util.Objects.equals(alive, other.alive);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(dead, alive);
        }

        @Override
        public String toString() {
            return "SessionPaths[dead=" + dead + ", alive=" + alive + "]";
        }
    }

    private DeadPaths() {
    }

    /** Shim host → session id → its dead and alive paths; every shim host of {@code r} has an entry, empty when nothing is dead. */
    public static Map<String, Map<String, SessionPaths>> of(AllocationResult r, Set<String> downLinks) {
        Map<String, Map<String, SessionPaths>> out = new TreeMap<>();
        for (String h : r.model().shimHosts()) {
            out.put(h, new TreeMap<>());
        }
        if (downLinks.isEmpty()) {
            return out;
        }
        Topology topo = r.model().topology();
        PathEnumerator enumerator = new PathEnumerator(topo);
        for (SessionAllocation s : r.sessions()) {
            Host src = topo.hosts().get(s.session().srcHost);
            if (src == null || s.paths().isEmpty() || !topo.hosts().containsKey(s.session().dstHost)) {
                continue;
            }
            Map<String, SessionPaths> host = out.get(src.cableOwner()); // a VM's server runs the shim
            if (host == null) {
                continue;
            }
            List<Path> all;
            try {
                all = enumerator.paths(s.session().srcHost, s.session().dstHost);
            } catch (IllegalArgumentException noPath) {
                continue;
            }
            Set<Integer> dead = new TreeSet<>();
            List<Integer> alive = new ArrayList<>();
            for (Path p : all) {
                boolean down = false;
                for (String link : downLinks) {
                    down |= p.traverses(link);
                }
                if (down && p.id() > 0) {
                    dead.add(p.id());
                } else if (!down && p.id() > 0 && alive.size() < MAX_ALIVE) {
                    alive.add(p.id());
                }
            }
            if (!dead.isEmpty()) {
                host.put(s.session().id, new SessionPaths(new ArrayList<>(dead), alive));
            }
        }
        return out;
    }
}
