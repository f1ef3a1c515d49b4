package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Topology;

/**
 * A host's rates table, schema 1 of {@code ff.ctl.rates.v1} (docs/kafka.md; the shim's validator is
 * host-shim/ratetable): the sessions the host sends, each with its pinned paths and integer rates.
 * From an allocation: per session the paths whose rate, rounded down to whole bit/s, is at least
 * the shim's minimum {@link #MIN_RATE_BPS}; if none is, the session's best path alone at
 * max(total, minimum) (it can then exceed its allocation by less than 8 kbit/s). Unroutable
 * sessions are left out (no path can carry them).
 */
public final class RatesTable {
    public static final int SCHEMA = 1;
    public static final long MIN_RATE_BPS = 8000;
    public static final long MAX_RATE_BPS = 100_000_000_000L;
    public static final int MAX_SESSIONS = 1000;
    public static final int MAX_PATHS = 4;
    public static final int MAX_PATH_ID = 4094;

    private final String host;
    private final long version;
    private final List<Entry> sessions;

    public RatesTable(String host, long version, List<Entry> sessions) {
        sessions = List.copyOf(sessions);
        this.host = host;
        this.version = version;
        this.sessions = sessions;
    }

    public String host() {
        return host;
    }

    public long version() {
        return version;
    }

    public List<Entry> sessions() {
        return sessions;
    }

    /** One session as its sending host's shim sees it. */
    public static final class Entry {
        private final String id;
        private final String tenant;
        private final String dst;
        private final String split;
        private final List<PathRate> paths;

        public Entry(String id, String tenant, String dst, String split, List<PathRate> paths) {
            paths = List.copyOf(paths);
            this.id = id;
            this.tenant = tenant;
            this.dst = dst;
            this.split = split;
            this.paths = paths;
        }

        public String id() {
            return id;
        }

        public String tenant() {
            return tenant;
        }

        public String dst() {
            return dst;
        }

        public String split() {
            return split;
        }

        public List<PathRate> paths() {
            return paths;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Entry)) {
                return false;
            }
            Entry other = (Entry) o;
            return java.util.Objects.equals(id, other.id)
                    && java.util.Objects.equals(tenant, other.tenant)
                    && java.util.Objects.equals(dst, other.dst)
                    && java.util.Objects.equals(split, other.split)
                    && java.util.Objects.equals(paths, other.paths);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(id, tenant, dst, split, paths);
        }

        @Override
        public String toString() {
            return "Entry[id=" + id + ", tenant=" + tenant + ", dst=" + dst + ", split=" + split + ", paths=" + paths + "]";
        }
    }

    /** A path id (802.1Q VID) and its rate in bit/s of Ethernet frames. */
    public static final class PathRate {
        private final int id;
        private final long rateBps;

        public PathRate(int id, long rateBps) {
            this.id = id;
            this.rateBps = rateBps;
        }

        public int id() {
            return id;
        }

        public long rateBps() {
            return rateBps;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof PathRate)) {
                return false;
            }
            PathRate other = (PathRate) o;
            return id == other.id
                    && rateBps == other.rateBps;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(id, rateBps);
        }

        @Override
        public String toString() {
            return "PathRate[id=" + id + ", rateBps=" + rateBps + "]";
        }
    }

    public RatesTable withVersion(long newVersion) {
        return new RatesTable(host, newVersion, sessions);
    }

    /**
     * The sessions of every host in {@code hosts} (each gets a table, empty when it sends nothing),
     * version 0 (set when published).
     */
    public static Map<String, RatesTable> fromAllocation(AllocationResult r, Iterable<String> hosts) {
        return fromAllocation(r, hosts, true);
    }

    /**
     * As {@link #fromAllocation(AllocationResult, Iterable)}; {@code pinned} false (ECMP routing) gives
     * every session one unpinned path (id 0: untagged, the switches hash its flows over their uplinks)
     * at its total rate, at least {@link #MIN_RATE_BPS}.
     */
    public static Map<String, RatesTable> fromAllocation(AllocationResult r, Iterable<String> hosts, boolean pinned) {
        Topology topo = r.model().topology();
        Map<String, List<SessionAllocation>> bySrc = new HashMap<>();
        for (String h : hosts) {
            bySrc.put(h, new ArrayList<>());
        }
        for (SessionAllocation s : r.sessions()) {
            List<SessionAllocation> list = bySrc.get(sender(topo, s.session()));
            if (list != null) {
                list.add(s);
            }
        }
        return fromSessions(topo, bySrc, pinned);
    }

    /**
     * The tables of the hosts {@code bySrc} names, each from the sessions listed for it (those the
     * host sends; unroutable ones are left out), version 0: what {@link #fromAllocation} gives when
     * the lists hold every session of the allocation that the host sends.
     */
    static Map<String, RatesTable> fromSessions(Topology topo, Map<String, List<SessionAllocation>> bySrc, boolean pinned) {
        Map<String, List<Entry>> entries = new HashMap<>();
        bySrc.forEach((h, sessions) -> {
            List<Entry> list = new ArrayList<>(sessions.size());
            for (SessionAllocation s : sessions) {
                if (s.paths().isEmpty()) {
                    continue;
                }
                Host dst = topo.hosts().get(s.session().dstHost);
                List<PathRate> paths = pinned ? paths(s)
                        : List.of(new PathRate(0, Math.max(MIN_RATE_BPS, (long) Math.min(Math.floor(s.totalBps()), MAX_RATE_BPS))));
                list.add(new Entry(s.session().id, s.session().tenantId, dst.ip(), "packet", paths));
            }
            entries.put(h, list);
        });
        Map<String, RatesTable> out = new TreeMap<>();
        entries.forEach((h, list) -> {
            list.sort(Comparator.comparing(Entry::id));
            out.put(h, new RatesTable(h, 0, list));
        });
        return out;
    }

    /** The host whose table holds {@code s}: its sender's server (a VM's server runs the shim); null for an unknown host. */
    static String sender(Topology topo, SessionDto s) {
        Host src = topo.hosts().get(s.srcHost);
        return src == null ? null : src.cableOwner();
    }

    static List<PathRate> paths(SessionAllocation s) {
        List<PathRate> out = new ArrayList<>();
        PathAllocation best = s.paths().get(0);
        for (PathAllocation p : s.paths()) {
            long bps = (long) Math.min(Math.floor(p.rateBps()), MAX_RATE_BPS);
            if (bps >= MIN_RATE_BPS) {
                out.add(new PathRate(p.pathId(), bps));
            }
            if (p.rateBps() > best.rateBps()) {
                best = p;
            }
        }
        if (out.isEmpty()) {
            out.add(new PathRate(best.pathId(), Math.max(MIN_RATE_BPS, (long) Math.floor(s.totalBps()))));
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RatesTable)) {
            return false;
        }
        RatesTable other = (RatesTable) o;
        return java.util.Objects.equals(host, other.host)
                && version == other.version
                && java.util.Objects.equals(sessions, other.sessions);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(host, version, sessions);
    }

    @Override
    public String toString() {
        return "RatesTable[host=" + host + ", version=" + version + ", sessions=" + sessions + "]";
    }
}
