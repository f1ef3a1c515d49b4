package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.AllocationProblemBuilder;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.PathEnumerator;
import org.fairfabric.core.model.SessionWeights;
import org.fairfabric.core.model.Topology;

/**
 * Builds the allocator's {@link AllocationProblem} from the controller's model. Decisions (see
 * docs/controller.md, "Allocation loop"):
 * <ul>
 * <li>links: every directed link a candidate path uses, with the configuration's capacity in bit/s
 *     (host links as {@link CoreTopology} gives them) less the inputs' {@link CapacityHeadroom}; links that are down are left out, and so are
 *     the paths over them;</li>
 * <li>candidate paths: {@link PathEnumerator}'s up-down paths in path-id order, at most
 *     {@link #MAX_PATHS} (what the host shim can split over); the path id is the 802.1Q VID;</li>
 * <li>weights: a tenant's weight is shared equally by its routable sessions (Promenade §3.8, the
 *     core's {@link SessionWeights});</li>
 * <li>guarantees: a tenant's {@code minBandwidthBps} is shared equally by its routable sessions and
 *     becomes each one's minimum rate (at most the session's demand);</li>
 * <li>demand caps: the session's {@code demandBps}.</li>
 * <li>work conservation (docs/guarantees.md): a session the inputs call idle (the monitor saw it
 *     send nothing) has its demand capped at {@link #IDLE_DEMAND_BPS} and no guarantee; its
 *     tenant's guarantee is shared by the tenant's other sessions (all of it, when all are idle,
 *     stays unreserved), and the capacity it leaves goes to whoever sends.</li>
 * </ul>
 * Enumerating the candidate paths is most of the cost (about 7 s for 10,000 sessions at k=16), so
 * a build given the previous one reuses its topology and its sessions' paths and link rows when the
 * topology's inputs (configuration, hosts, links that are down) are unchanged: at k=16 with 10,000
 * sessions an arrival's model then takes milliseconds.
 */
public final class ProblemAdapter {
    /** The host shim's limit on paths per session (host-shim/ratetable MaxPaths). */
    public static final int MAX_PATHS = 4;
    /**
     * What an idle session is allocated at most: enough for the shim to let its first packets
     * through when it starts again (the monitor then sees it active and the next round gives it its
     * share and guarantee), little enough that the others use the link (≥ 97 % of a 4 Mbit/s one).
     */
    public static final double IDLE_DEMAND_BPS = 100_000;
    /** Links of an up-down path between pods of a three-tier fabric (host, edge, aggregation, core and back): the builder's size hint. */
    private static final int TYPICAL_PATH_LINKS = 6;

    private ProblemAdapter() {
    }

    public static AllocationModel build(AllocationInputs in) {
        return build(in, null, null);
    }

    /**
     * The model of {@code in}, from the previous one when it helps: when the topology's inputs
     * (configuration — the same object —, hosts, down links) are those of {@code before}, its
     * topology and shim hosts are reused, and so is every session of {@code built}'s problem that
     * is still there with the same hosts: its paths and their link rows, renumbered, instead of
     * path enumeration and link lookups by id. Sessions are kept in {@code in}'s order and links
     * numbered by first use, so the problem is exactly the one a build from scratch gives; only the
     * weights, guarantees and demands are computed afresh for every session (a division each:
     * arrivals and departures change their tenant's share).
     *
     * @param before the inputs {@code built} was built from (both null: none)
     */
    public static AllocationModel build(AllocationInputs in, AllocationInputs before, AllocationModel built) {
        boolean sameTopology = before != null && before.config() == in.config() && before.hosts().equals(in.hosts())
                && before.downLinks().equals(in.downLinks()) && before.headroom().equals(in.headroom());
        Topology topo = sameTopology ? built.topology() : topology(in);
        Set<String> shims = sameTopology ? built.shimHosts() : shimHosts(in.config(), topo);
        AllocationProblem old = sameTopology ? built.problem() : null;
        Map<String, Integer> oldIndex = new HashMap<>(old == null ? 16 : built.sessions().size() * 4 / 3 + 1);
        if (old != null) {
            for (int i = 0; i < built.sessions().size(); i++) {
                oldIndex.put(built.sessions().get(i).id, i);
            }
        }
        PathEnumerator enumerator = sameTopology && built.enumerator() != null ? built.enumerator() : new PathEnumerator(topo);
        Map<String, TenantDto> tenants = new LinkedHashMap<>();
        in.tenants().forEach(t -> tenants.put(t.id, t));

        List<SessionDto> routable = new ArrayList<>();
        List<List<Path>> paths = new ArrayList<>();
        List<Integer> from = new ArrayList<>(); // per routable session, its index in the old problem, or -1
        List<SessionDto> unroutable = new ArrayList<>();
        for (SessionDto s : in.sessions()) {
            Integer i = tenants.containsKey(s.tenantId) ? oldIndex.get(s.id) : null;
            SessionDto was = i == null ? null : built.sessions().get(i);
            boolean kept = was != null && was.srcHost.equals(s.srcHost) && was.dstHost.equals(s.dstHost);
            List<Path> usable = !tenants.containsKey(s.tenantId) ? List.of()
                    : kept ? built.paths().get(i) : usablePaths(topo, enumerator, s);
            if (usable.isEmpty()) {
                unroutable.add(s);
            } else {
                routable.add(s);
                paths.add(usable);
                from.add(kept ? i : -1);
            }
        }
        Set<String> guaranteed = new TreeSet<>();
        tenants.values().stream().filter(t -> t.minBandwidthBps != null).forEach(t -> guaranteed.add(t.id));
        if (routable.isEmpty()) {
            return new AllocationModel(null, routable, paths, unroutable, topo, shims, guaranteed, enumerator);
        }

        Map<String, Integer> perTenant = new HashMap<>(); // routable sessions: they share the weight
        Map<String, Integer> activePerTenant = new HashMap<>(); // those that send: they share the guarantee
        Set<List<String>> pairs = new HashSet<>(routable.size() * 4 / 3 + 1);
        for (SessionDto s : routable) {
            if (!pairs.add(pair(s))) {
                throw new IllegalArgumentException("session " + s.srcHost + "->" + s.dstHost + " is listed twice");
            }
            perTenant.merge(s.tenantId, 1, Integer::sum);
            if (!in.idleSessions().contains(s.id)) {
                activePerTenant.merge(s.tenantId, 1, Integer::sum);
            }
        }

        AllocationProblemBuilder b = new AllocationProblemBuilder(old == null ? 16 : old.linkCount(), routable.size(),
                MAX_PATHS * routable.size(), MAX_PATHS * routable.size() * TYPICAL_PATH_LINKS);
        Links links = new Links(b, old, in.headroom());
        for (int i = 0; i < routable.size(); i++) {
            SessionDto s = routable.get(i);
            TenantDto t = tenants.get(s.tenantId);
            double demand = s.demandBps == null ? AllocationProblem.NO_DEMAND : s.demandBps;
            boolean idle = in.idleSessions().contains(s.id);
            if (idle) {
                demand = Math.min(demand, IDLE_DEMAND_BPS);
            }
            double guarantee = t.minBandwidthBps == null || idle ? 0 : (double) t.minBandwidthBps / activePerTenant.get(s.tenantId);
            double weight = SessionWeights.weight(t.weight, perTenant.get(s.tenantId),
                    s.weight == null ? OptionalDouble.empty() : OptionalDouble.of(s.weight));
            int j = from.get(i);
            int[][] linkPaths = j >= 0 ? links.rows(j) : links.rows(paths.get(i));
            b.addSessionByIndex(s.id, weight, demand, Math.min(guarantee, demand), linkPaths);
        }
        return new AllocationModel(b.build(), routable, paths, unroutable, topo, shims, guaranteed, enumerator);
    }

    /**
     * The new problem's links, numbered in the order the sessions' paths first use them; a link of
     * the old problem (a kept session's row) is renumbered through an array, a new session's by id.
     */
    private static final class Links {
        private final AllocationProblemBuilder builder;
        private final AllocationProblem old;
        private final int[] renumbered;
        private final Map<String, Integer> byId = new HashMap<>();
        private final CapacityHeadroom headroom;

        Links(AllocationProblemBuilder builder, AllocationProblem old, CapacityHeadroom headroom) {
            this.builder = builder;
            this.old = old;
            this.headroom = headroom;
            renumbered = new int[old == null ? 0 : old.linkCount()];
            Arrays.fill(renumbered, -1);
        }

        /** The link rows of the old problem's session {@code j}, in the new numbering. */
        int[][] rows(int j) {
            int[][] out = new int[old.endPath(j) - old.firstPath(j)][];
            for (int q = old.firstPath(j); q < old.endPath(j); q++) {
                int[] row = new int[old.pathLength(q)];
                for (int k = 0; k < row.length; k++) {
                    int e = old.pathLink(q, k);
                    if (renumbered[e] < 0) {
                        renumbered[e] = index(old.linkId(e), old.capacity(e));
                    }
                    row[k] = renumbered[e];
                }
                out[q - old.firstPath(j)] = row;
            }
            return out;
        }

        /** The link rows of {@code paths}. */
        int[][] rows(List<Path> paths) {
            int[][] out = new int[paths.size()][];
            for (int j = 0; j < out.length; j++) {
                List<Link> path = paths.get(j).links();
                out[j] = new int[path.size()];
                for (int k = 0; k < path.size(); k++) {
                    out[j][k] = index(path.get(k).id(), headroom.usable(path.get(k).capacityBps()));
                }
            }
            return out;
        }

        /** The link {@code id}'s number, added with {@code capacity} (what allocations may use) when new. */
        private int index(String id, double capacity) {
            Integer e = byId.get(id);
            if (e == null) {
                e = byId.size();
                byId.put(id, e);
                builder.addLink(id, capacity);
            }
            return e;
        }
    }

    private static Topology topology(AllocationInputs in) {
        Topology topo = CoreTopology.build(in.config(), in.hosts());
        for (String down : new TreeSet<>(in.downLinks())) {
            if (topo.link(down).isPresent()) {
                topo = topo.withLinkState(down, LinkState.DOWN);
            }
        }
        return topo;
    }

    /** The session's ordered host pair (a list: it hashes the two ids' cached hashes, no new string). */
    private static List<String> pair(SessionDto s) {
        return List.of(s.srcHost, s.dstHost);
    }

    private static List<Path> usablePaths(Topology topo, PathEnumerator enumerator, SessionDto s) {
        if (!topo.hosts().containsKey(s.srcHost) || !topo.hosts().containsKey(s.dstHost)) {
            return List.of();
        }
        List<Path> all;
        try {
            all = enumerator.paths(s.srcHost, s.dstHost);
        } catch (IllegalArgumentException noPath) {
            return List.of(); // a host without a cable, or hosts the fabric cannot join
        }
        List<Path> up = new ArrayList<>();
        for (Path p : all) {
            if (up.size() < MAX_PATHS && p.isUpIn(topo)) {
                up.add(p);
            }
        }
        return up;
    }

    /** The topology's hosts whose configuration entry (same MAC or name) says they run the host shim. */
    static Set<String> shimHosts(NetworkConfig cfg, Topology topo) {
        Set<String> macs = new java.util.HashSet<>();
        Set<String> names = new java.util.HashSet<>();
        for (NetworkConfig.Host h : cfg.hosts) {
            if (h.shim) {
                macs.add(h.mac);
                names.add(h.name);
            }
        }
        Set<String> out = new TreeSet<>();
        for (Host h : topo.hosts().values()) {
            if (macs.contains(h.mac()) || names.contains(h.id())) {
                out.add(h.id());
            }
        }
        return out;
    }
}
