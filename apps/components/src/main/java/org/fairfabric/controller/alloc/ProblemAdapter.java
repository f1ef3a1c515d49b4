package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
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
import org.fairfabric.core.model.Session;
import org.fairfabric.core.model.SessionKey;
import org.fairfabric.core.model.SessionWeights;
import org.fairfabric.core.model.Tenant;
import org.fairfabric.core.model.Topology;

/**
 * Builds the allocator's {@link AllocationProblem} from the controller's model. Decisions (see
 * docs/controller.md, "Allocation loop"):
 * <ul>
 * <li>links: every directed link a candidate path uses, with the configuration's capacity in bit/s
 *     (host links as {@link CoreTopology} gives them); links that are down are left out, and so are
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
 * a build given the previous one reuses its topology and its sessions' paths when the topology's
 * inputs (configuration, hosts, links that are down) are unchanged.
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

    private ProblemAdapter() {
    }

    public static AllocationModel build(AllocationInputs in) {
        return build(in, null, null);
    }

    /**
     * @param before the inputs {@code built} was built from (both null: none); when their
     *               configuration (the same object), hosts and down links are those of {@code in},
     *               its topology, shim hosts and routable sessions' paths are reused
     */
    public static AllocationModel build(AllocationInputs in, AllocationInputs before, AllocationModel built) {
        boolean sameTopology = before != null && before.config() == in.config() && before.hosts().equals(in.hosts())
                && before.downLinks().equals(in.downLinks());
        Topology topo = sameTopology ? built.topology() : topology(in);
        Set<String> shims = sameTopology ? built.shimHosts() : shimHosts(in.config(), topo);
        Map<String, List<Path>> known = new HashMap<>();
        if (sameTopology) {
            for (int i = 0; i < built.sessions().size(); i++) {
                known.put(pair(built.sessions().get(i)), built.paths().get(i));
            }
        }
        PathEnumerator enumerator = new PathEnumerator(topo);
        Map<String, TenantDto> tenants = new LinkedHashMap<>();
        in.tenants().forEach(t -> tenants.put(t.id, t));

        List<SessionDto> routable = new ArrayList<>();
        List<List<Path>> paths = new ArrayList<>();
        List<SessionDto> unroutable = new ArrayList<>();
        for (SessionDto s : in.sessions()) {
            List<Path> usable = !tenants.containsKey(s.tenantId) ? List.of()
                    : known.containsKey(pair(s)) ? known.get(pair(s)) : usablePaths(topo, enumerator, s);
            if (usable.isEmpty()) {
                unroutable.add(s);
            } else {
                routable.add(s);
                paths.add(usable);
            }
        }
        Set<String> guaranteed = new TreeSet<>();
        tenants.values().stream().filter(t -> t.minBandwidthBps != null).forEach(t -> guaranteed.add(t.id));
        if (routable.isEmpty()) {
            return new AllocationModel(null, routable, paths, unroutable, topo, shims, guaranteed);
        }

        Map<String, Integer> perTenant = new HashMap<>();
        List<Session> coreSessions = new ArrayList<>();
        for (SessionDto s : routable) {
            if (!in.idleSessions().contains(s.id)) {
                perTenant.merge(s.tenantId, 1, Integer::sum);
            }
            coreSessions.add(s.weight == null ? new Session(new SessionKey(s.srcHost, s.dstHost), s.tenantId)
                    : new Session(new SessionKey(s.srcHost, s.dstHost), s.tenantId, java.util.OptionalDouble.of(s.weight),
                    org.fairfabric.core.model.TrafficClass.BEST_EFFORT));
        }
        Map<String, Tenant> coreTenants = new HashMap<>();
        tenants.values().forEach(t -> coreTenants.put(t.id, new Tenant(t.id, t.name, t.weight, OptionalLong.empty())));
        Map<SessionKey, Double> weights = SessionWeights.compute(coreTenants, coreSessions);

        AllocationProblemBuilder b = new AllocationProblemBuilder();
        Map<String, Integer> linkIndex = new HashMap<>(); // links in the order the sessions' paths first use them
        for (int i = 0; i < routable.size(); i++) {
            SessionDto s = routable.get(i);
            TenantDto t = tenants.get(s.tenantId);
            double demand = s.demandBps == null ? AllocationProblem.NO_DEMAND : s.demandBps;
            boolean idle = in.idleSessions().contains(s.id);
            if (idle) {
                demand = Math.min(demand, IDLE_DEMAND_BPS);
            }
            double guarantee = t.minBandwidthBps == null || idle ? 0 : (double) t.minBandwidthBps / perTenant.get(s.tenantId);
            int[][] linkPaths = new int[paths.get(i).size()][];
            for (int j = 0; j < linkPaths.length; j++) {
                List<Link> links = paths.get(i).get(j).links();
                linkPaths[j] = new int[links.size()];
                for (int k = 0; k < links.size(); k++) {
                    Link l = links.get(k);
                    Integer e = linkIndex.get(l.id());
                    if (e == null) {
                        e = linkIndex.size();
                        linkIndex.put(l.id(), e);
                        b.addLink(l.id(), l.capacityBps());
                    }
                    linkPaths[j][k] = e;
                }
            }
            b.addSessionByIndex(s.id, weights.get(new SessionKey(s.srcHost, s.dstHost)), demand, Math.min(guarantee, demand), linkPaths);
        }
        return new AllocationModel(b.build(), routable, paths, unroutable, topo, shims, guaranteed);
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

    private static String pair(SessionDto s) {
        return s.srcHost + ">" + s.dstHost;
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
