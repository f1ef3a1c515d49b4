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
        return build(in, before, built, true);
    }

    /**
     * As {@link #build(AllocationInputs, AllocationInputs, AllocationModel)}; {@code append} false
     * leaves out the path for sessions appended to {@code before}'s (tests compare the two).
     */
    static AllocationModel build(AllocationInputs in, AllocationInputs before, AllocationModel built, boolean append) {
        boolean sameTopology = before != null && before.config() == in.config() && before.hosts().equals(in.hosts())
                && before.downLinks().equals(in.downLinks()) && before.headroom().equals(in.headroom());
        if (append && sameTopology && built.problem() != null && before.tenants().equals(in.tenants())
                && before.idleSessions().equals(in.idleSessions()) && isPrefix(before.sessions(), in.sessions())) {
            AllocationModel appended = appended(in, before, built);
            if (appended != null) {
                return appended;
            }
        }
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

    /** Whether {@code list} starts with {@code prefix}'s elements (the same objects, or equal). */
    static boolean isPrefix(List<SessionDto> prefix, List<SessionDto> list) {
        if (prefix.size() > list.size()) {
            return false;
        }
        for (int i = 0; i < prefix.size(); i++) {
            SessionDto a = prefix.get(i);
            SessionDto b = list.get(i);
            if (a != b && !a.equals(b)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The model of {@code in} when it is {@code before} with sessions appended (same topology,
     * tenants and idle sessions, {@code before}'s sessions first): {@code built}'s problem extended
     * ({@link AllocationProblemBuilder#extending}) by the newcomers' links and sessions, with the weights and
     * guarantees of their tenants' other sessions recomputed for the new session counts — so the
     * work is the newcomers' paths and their tenants' sessions, and the result is exactly a build from
     * scratch (links numbered by first use, sessions in order, the same divisions). Null when a
     * newcomer repeats a session id or a host pair, or is not a valid session: the build from
     * scratch then reports it as before. {@code built} itself when no session came.
     */
    private static AllocationModel appended(AllocationInputs in, AllocationInputs before, AllocationModel built) {
        if (in.sessions().size() == before.sessions().size()) {
            return built; // nothing came: the same model
        }
        AppendIndex x = built.appendIndex != null ? built.appendIndex : AppendIndex.of(built, before);
        Topology topo = built.topology();
        PathEnumerator enumerator = built.enumerator() != null ? built.enumerator() : new PathEnumerator(topo);
        Map<String, TenantDto> tenants = new HashMap<>();
        in.tenants().forEach(t -> tenants.put(t.id, t));
        List<SessionDto> newcomers = in.sessions().subList(before.sessions().size(), in.sessions().size());
        List<SessionDto> routable = new ArrayList<>();
        List<List<Path>> routablePaths = new ArrayList<>();
        List<SessionDto> unroutable = new ArrayList<>();
        Set<String> newIds = new HashSet<>();
        Set<List<String>> newPairs = new HashSet<>();
        Map<String, Integer> addedPerTenant = new HashMap<>();
        Map<String, Integer> addedActive = new HashMap<>();
        for (SessionDto s : newcomers) {
            if (x.ids.contains(s.id) || !newIds.add(s.id)) {
                return null;
            }
            List<Path> usable = tenants.containsKey(s.tenantId) ? usablePaths(topo, enumerator, s) : List.of();
            if (usable.isEmpty()) {
                unroutable.add(s);
                continue;
            }
            if (x.pairs.contains(pair(s)) || !newPairs.add(pair(s))) {
                return null;
            }
            routable.add(s);
            routablePaths.add(usable);
            addedPerTenant.merge(s.tenantId, 1, Integer::sum);
            if (!in.idleSessions().contains(s.id)) {
                addedActive.merge(s.tenantId, 1, Integer::sum);
            }
        }
        AllocationProblem old = built.problem();
        int nnz = 0;
        for (List<Path> ps : routablePaths) {
            for (Path p : ps) {
                nnz += p.links().size();
            }
        }
        AllocationProblemBuilder ext = AllocationProblemBuilder.extending(old, nnz, routable.size(), MAX_PATHS * routable.size(), nnz);
        Map<String, Integer> newLinks = new HashMap<>();
        int[] firstNew = new int[routable.size()];
        try {
            // the tenants' other sessions: the new counts change their shares
            for (String tenant : addedPerTenant.keySet()) {
                AppendIndex.IntList mine = x.byTenant.get(tenant);
                if (mine == null) {
                    continue;
                }
                TenantDto t = tenants.get(tenant);
                int count = mine.size + addedPerTenant.get(tenant);
                int activeCount = x.active.getOrDefault(tenant, 0) + addedActive.getOrDefault(tenant, 0);
                for (int j = 0; j < mine.size; j++) {
                    int i = mine.get(j);
                    SessionDto s = built.sessions().get(i);
                    boolean idle = in.idleSessions().contains(s.id);
                    double demand = old.demand(i);
                    ext.setSession(i, weight(t, count, s), demand, Math.min(guarantee(t, activeCount, idle), demand));
                }
            }
            for (int n = 0; n < routable.size(); n++) {
                SessionDto s = routable.get(n);
                TenantDto t = tenants.get(s.tenantId);
                int count = x.byTenant.containsKey(s.tenantId) ? x.byTenant.get(s.tenantId).size : 0;
                count += addedPerTenant.get(s.tenantId);
                int activeCount = x.active.getOrDefault(s.tenantId, 0) + addedActive.getOrDefault(s.tenantId, 0);
                boolean idle = in.idleSessions().contains(s.id);
                double demand = s.demandBps == null ? AllocationProblem.NO_DEMAND : s.demandBps;
                if (idle) {
                    demand = Math.min(demand, IDLE_DEMAND_BPS);
                }
                List<Path> ps = routablePaths.get(n);
                int[][] rows = new int[ps.size()][];
                for (int j = 0; j < rows.length; j++) {
                    List<Link> path = ps.get(j).links();
                    rows[j] = new int[path.size()];
                    for (int k = 0; k < path.size(); k++) {
                        Link l = path.get(k);
                        Integer e = x.links.get(l.id());
                        if (e == null) {
                            e = newLinks.get(l.id());
                        }
                        if (e == null) {
                            e = ext.linkCount();
                            ext.addLink(l.id(), in.headroom().usable(l.capacityBps()));
                            newLinks.put(l.id(), e);
                        }
                        rows[j][k] = e;
                    }
                }
                ext.addSessionByIndex(s.id, weight(t, count, s), demand, Math.min(guarantee(t, activeCount, idle), demand), rows);
            }
        } catch (IllegalArgumentException invalid) {
            return null;
        }
        AllocationProblem problem = ext.build();
        List<SessionDto> sessions = new ArrayList<>(built.sessions().size() + routable.size());
        sessions.addAll(built.sessions());
        sessions.addAll(routable);
        List<List<Path>> paths = new ArrayList<>(built.paths().size() + routable.size());
        paths.addAll(built.paths());
        paths.addAll(routablePaths);
        List<SessionDto> allUnroutable = unroutable.isEmpty() ? built.unroutable() : new ArrayList<>(built.unroutable());
        if (!unroutable.isEmpty()) {
            allUnroutable.addAll(unroutable);
        }
        AllocationModel model = new AllocationModel(problem, sessions, paths, allUnroutable, topo, built.shimHosts(), built.guaranteedTenants(),
                enumerator, built);
        // the index moves to the new model
        built.appendedTo = null;
        built.appendIndex = null;
        model.appendIndex = x;
        x.ids.addAll(newIds);
        if (x.linkPaths.length < problem.linkCount()) {
            x.linkPaths = Arrays.copyOf(x.linkPaths, problem.linkCount());
            for (int e = old.linkCount(); e < problem.linkCount(); e++) {
                x.linkPaths[e] = new AppendIndex.IntList();
            }
        }
        for (int n = 0; n < routable.size(); n++) {
            int i = old.sessionCount() + n;
            x.addSession(routable.get(n), i, in.idleSessions().contains(routable.get(n).id));
            for (int q = problem.firstPath(i); q < problem.endPath(i); q++) {
                for (int k = 0; k < problem.pathLength(q); k++) {
                    x.linkPaths[problem.pathLink(q, k)].add(q);
                }
            }
        }
        newLinks.forEach(x.links::put);
        return model;
    }

    private static double weight(TenantDto t, int sessions, SessionDto s) {
        return SessionWeights.weight(t.weight, sessions, s.weight == null ? OptionalDouble.empty() : OptionalDouble.of(s.weight));
    }

    private static double guarantee(TenantDto t, int active, boolean idle) {
        return t.minBandwidthBps == null || idle ? 0 : (double) t.minBandwidthBps / active;
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
