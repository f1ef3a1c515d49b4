package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
public record RatesTable(String host, long version, List<Entry> sessions) {
    public static final int SCHEMA = 1;
    public static final long MIN_RATE_BPS = 8000;
    public static final long MAX_RATE_BPS = 100_000_000_000L;
    public static final int MAX_SESSIONS = 1000;
    public static final int MAX_PATHS = 4;
    public static final int MAX_PATH_ID = 4094;

    /** One session as its sending host's shim sees it. */
    public record Entry(String id, String tenant, String dst, String split, List<PathRate> paths) {
        public Entry {
            paths = List.copyOf(paths);
        }
    }

    /** A path id (802.1Q VID) and its rate in bit/s of Ethernet frames. */
    public record PathRate(int id, long rateBps) {
    }

    public RatesTable {
        sessions = List.copyOf(sessions);
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
        Map<String, List<Entry>> bySrc = new TreeMap<>();
        for (String h : hosts) {
            bySrc.put(h, new ArrayList<>());
        }
        for (SessionAllocation s : r.sessions()) {
            List<Entry> list = bySrc.get(topo.host(s.session().srcHost).cableOwner()); // a VM's server runs the shim
            if (list == null || s.paths().isEmpty()) {
                continue;
            }
            Host dst = topo.hosts().get(s.session().dstHost);
            List<PathRate> paths = pinned ? paths(s)
                    : List.of(new PathRate(0, Math.max(MIN_RATE_BPS, (long) Math.min(Math.floor(s.totalBps()), MAX_RATE_BPS))));
            list.add(new Entry(s.session().id, s.session().tenantId, dst.ip(), "packet", paths));
        }
        Map<String, RatesTable> out = new TreeMap<>();
        bySrc.forEach((h, list) -> {
            list.sort(Comparator.comparing(Entry::id));
            out.put(h, new RatesTable(h, 0, list));
        });
        return out;
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
}
