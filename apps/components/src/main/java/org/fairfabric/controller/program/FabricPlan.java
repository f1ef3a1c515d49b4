package org.fairfabric.controller.program;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.fairfabric.controller.program.FabricEntities.UpwardTable;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Device;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.PathEnumerator;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.routing.Metric;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * What every switch of a fat-tree or leaf-spine must hold for forwarding on the fabric pipeline,
 * computed from the core's model of the fabric:
 * <ul>
 * <li>port kinds (host or fabric), the router MAC in {@code my_station}, and per port the MACs a
 *     frame leaves with (router MAC, then the neighbour switch's router MAC or the host's MAC);</li>
 * <li>downward routes: a /32 per host on every switch that reaches the host's switch downwards
 *     (its own switch: the host port; above it: the downward port towards it; LPM keeps room for
 *     tenant hosts with any address);</li>
 * <li>upward routing groups from the core's routing-group tables (P4TE Algorithm 4): per metric,
 *     one selector group per non-empty level with its uplinks, and one entry for the DCN prefix
 *     at the level's priority (all uplinks in level 0 is ECMP); below a failed downward link,
 *     per-destination groups for the hosts the link cut off ({@link DownlinkDetours});</li>
 * <li>pinned paths: path id (VLAN id) to uplink from {@link PathEnumerator#pinnedUpPorts};</li>
 * <li>proxy ARP on switches with hosts: every host address answered with the switch's router MAC
 *     (hosts share one subnet and send everything to their switch);</li>
 * <li>the CPU clone session that carries event reports, and queue-depth sensing on uplinks.</li>
 * </ul>
 */
public final class FabricPlan {
    /** The data-centre prefix the upward tables match (fabric hosts are in 10/8). */
    public static final String DCN_PREFIX = "10.0.0.0";
    public static final int DCN_PREFIX_LENGTH = 8;

    private final FabricEntities entities;
    private final int cpuPort;
    private final int queueDelta;

    /**
     * @param queueDelta the queue-depth Δ (packets) sensed on uplinks, 0 for no queue sensing
     */
    public FabricPlan(org.fairfabric.controller.p4rt.P4InfoIndex p4, int cpuPort, int queueDelta) {
        if (cpuPort <= 0 || queueDelta < 0) {
            throw new IllegalArgumentException("cpu port must be positive and the queue delta not negative");
        }
        this.entities = new FabricEntities(p4);
        this.cpuPort = cpuPort;
        this.queueDelta = queueDelta;
    }

    /** Whether a P4Info is the fabric pipeline's (has every table this plan writes). */
    public static boolean isFabricPipeline(org.fairfabric.controller.p4rt.P4InfoIndex p4) {
        try {
            for (String t : List.of(FabricEntities.INGRESS_PORT_KIND, FabricEntities.EGRESS_PORT_KIND, FabricEntities.PORT_MACS,
                    FabricEntities.MY_STATION, FabricEntities.ARP_TABLE, FabricEntities.ROUTING_DOWN, FabricEntities.PINNED_PATH,
                    FabricEntities.QUEUE_SENSING)) {
                p4.tableId(t);
            }
            for (UpwardTable t : UpwardTable.values()) {
                p4.tableId(t.table);
                p4.actionProfileId(t.selector);
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The entities of every switch.
     *
     * @param routerMac the router MAC of each switch
     * @param groups    each switch's routing-group membership (metric → level → ports); absent for
     *                  switches without uplinks
     */
    public Map<String, List<Entity>> entities(Topology topo, Function<String, String> routerMac,
                                             Function<String, Map<Metric, List<SortedSet<Integer>>>> groups) {
        return entities(topo, routerMac, groups, Set.of());
    }

    /**
     * The entities of every switch, with ports reported failed: switches below a failed downward
     * link get per-destination groups that avoid it ({@link DownlinkDetours}).
     */
    public Map<String, List<Entity>> entities(Topology topo, Function<String, String> routerMac,
                                             Function<String, Map<Metric, List<SortedSet<Integer>>>> groups,
                                             Set<ConnectPoint> failedPorts) {
        PathEnumerator paths = new PathEnumerator(topo);
        DownlinkDetours detours = new DownlinkDetours(topo, failedPorts);
        Map<String, List<Entity>> out = new LinkedHashMap<>();
        for (Device d : topo.devices().values()) {
            out.put(d.id(), device(topo, d, routerMac, groups.apply(d.id()), paths.pinnedUpPorts(d.id()), detours));
        }
        return out;
    }

    /** The entities of one switch (as {@link #entities} gives them, without computing the others). */
    public List<Entity> entitiesOf(Topology topo, String deviceId, Function<String, String> routerMac,
                                   Map<Metric, List<SortedSet<Integer>>> groups) {
        return entitiesOf(topo, deviceId, routerMac, groups, Set.of());
    }

    /** The entities of one switch, with ports reported failed (as {@link #entities}). */
    public List<Entity> entitiesOf(Topology topo, String deviceId, Function<String, String> routerMac,
                                   Map<Metric, List<SortedSet<Integer>>> groups, Set<ConnectPoint> failedPorts) {
        return device(topo, topo.device(deviceId), routerMac, groups, new PathEnumerator(topo).pinnedUpPorts(deviceId),
                new DownlinkDetours(topo, failedPorts));
    }

    /**
     * The routing-group entities of one switch (members, groups, their entries, queue sensing, the
     * per-destination detours around failed ports): {@link #entitiesOf} with {@code groups} is
     * {@link #entitiesOf} with null groups followed by these, so a routing-group change recomputes
     * only them.
     */
    public List<Entity> upwardEntitiesOf(Topology topo, String deviceId, Map<Metric, List<SortedSet<Integer>>> groups,
                                         Set<ConnectPoint> failedPorts) {
        Device d = topo.device(deviceId);
        List<Entity> out = upward(topo, d, groups);
        out.addAll(detours(topo, d, groups, new DownlinkDetours(topo, failedPorts)));
        return out;
    }

    private List<Entity> device(Topology topo, Device d, Function<String, String> routerMac,
                                Map<Metric, List<SortedSet<Integer>>> groups, Map<Integer, Integer> pinned,
                                DownlinkDetours detours) {
        String me = routerMac.apply(d.id());
        List<Entity> out = new ArrayList<>();
        out.add(entities.myStation(me));
        out.add(entities.cpuCloneSession(cpuPort));
        for (Link l : topo.linksFrom(d.id())) {
            String peer = l.dst().elementId();
            if (topo.hosts().containsKey(peer)) {
                continue; // host cables are added below, from the host's side
            }
            out.addAll(port(l.src().port(), FabricEntities.KIND_FABRIC, me, routerMac.apply(peer)));
        }
        boolean hasHosts = false;
        for (Host h : topo.hosts().values()) {
            if (h.attachment().elementId().equals(d.id())) {
                hasHosts = true;
                if (h.server().isEmpty()) { // a VM's frames leave with its server's MAC
                    out.addAll(port(h.attachment().port(), FabricEntities.KIND_HOST, me, h.mac()));
                }
            }
        }
        Map<String, Integer> down = downwardPorts(topo, d.id());
        for (Host h : topo.hosts().values()) {
            String sw = h.attachment().elementId();
            Integer port = sw.equals(d.id()) ? Integer.valueOf(h.attachment().port()) : down.get(sw);
            if (port != null) {
                out.add(entities.routeDown(h.ip(), 32, port));
            }
            if (hasHosts) {
                out.add(entities.arpReply(h.ip(), me));
            }
        }
        for (Map.Entry<Integer, Integer> p : pinned.entrySet()) {
            out.add(entities.pinnedUplink(p.getKey(), p.getValue()));
        }
        if (groups != null) {
            out.addAll(upward(topo, d, groups));
            out.addAll(detours(topo, d, groups, detours));
        }
        return out;
    }

    private List<Entity> port(int port, int kind, String me, String neighbourMac) {
        return List.of(entities.portKind(true, port, kind), entities.portKind(false, port, kind),
                entities.portMacs(port, me, neighbourMac));
    }

    private List<Entity> upward(Topology topo, Device d, Map<Metric, List<SortedSet<Integer>>> groups) {
        List<Entity> out = new ArrayList<>();
        List<Link> ups = topo.upwardLinks(d.id());
        for (Metric m : Metric.values()) {
            UpwardTable t = table(m);
            for (Link l : ups) {
                out.add(entities.uplinkMember(t, l.src().port()));
            }
            List<SortedSet<Integer>> levels = groups.get(m);
            for (int level = 0; level < levels.size(); level++) {
                SortedSet<Integer> ports = levels.get(level);
                if (ports.isEmpty()) {
                    continue; // no entry and no group: lookups fall through to the next level
                }
                out.add(entities.group(t, level, new ArrayList<>(ports)));
                out.add(entities.groupEntry(t, DCN_PREFIX, DCN_PREFIX_LENGTH, level, levels.size() - level));
            }
        }
        if (queueDelta > 0) {
            for (Link l : ups) {
                out.add(entities.queueSensing(l.src().port(), queueDelta));
            }
        }
        return out;
    }

    /**
     * Per-destination routing groups: for the hosts of each destination whose traffic must avoid
     * some uplinks, each level's group without those uplinks (group id (set + 1) · levels + level + 1,
     * one set per distinct choice of avoided uplinks) and a /32 entry per host above every DCN
     * entry (priority levels + levels − level), so the levels keep their order and an emptied
     * level still falls through to the next.
     */
    private List<Entity> detours(Topology topo, Device d, Map<Metric, List<SortedSet<Integer>>> groups,
                                 DownlinkDetours detours) {
        SortedMap<String, SortedSet<Integer>> avoid = detours.avoid(d.id());
        if (avoid.isEmpty()) {
            return List.of();
        }
        Map<String, Set<String>> addressesByAvoided = new TreeMap<>();
        for (Host h : topo.hosts().values()) {
            SortedSet<Integer> ports = avoid.get(h.attachment().elementId());
            if (ports != null) {
                addressesByAvoided.computeIfAbsent(ports.toString(), k -> new TreeSet<>()).add(h.ip());
            }
        }
        Map<String, SortedSet<Integer>> avoidedByKey = new TreeMap<>();
        avoid.values().forEach(p -> avoidedByKey.put(p.toString(), p));
        List<Entity> out = new ArrayList<>();
        for (Metric m : Metric.values()) {
            UpwardTable t = table(m);
            List<SortedSet<Integer>> levels = groups.get(m);
            int set = 0;
            for (Map.Entry<String, Set<String>> e : addressesByAvoided.entrySet()) {
                set++;
                for (int level = 0; level < levels.size(); level++) {
                    List<Integer> ports = new ArrayList<>(levels.get(level));
                    ports.removeAll(avoidedByKey.get(e.getKey()));
                    if (ports.isEmpty()) {
                        continue;
                    }
                    int groupId = set * levels.size() + level + 1;
                    out.add(entities.selectorGroup(t, groupId, ports));
                    for (String ip : e.getValue()) {
                        out.add(entities.groupEntryTo(t, ip, 32, groupId, 2 * levels.size() - level));
                    }
                }
            }
        }
        return out;
    }

    static UpwardTable table(Metric m) {
        switch (m) {
            case DELAY:
                return UpwardTable.DELAY;
            case QUEUE_DEPTH:
                return UpwardTable.QUEUE_DEPTH;
            default:
                return UpwardTable.LINK_UTILIZATION;
        }
    }

    /** For each switch below {@code deviceId} (at any depth), the downward port of {@code deviceId} towards it. */
    static Map<String, Integer> downwardPorts(Topology topo, String deviceId) {
        Map<String, Integer> out = new TreeMap<>();
        int tier = topo.tier(deviceId);
        for (Link l : topo.linksFrom(deviceId)) {
            String below = l.dst().elementId();
            if (topo.hosts().containsKey(below) || topo.tier(below) >= tier) {
                continue;
            }
            out.putIfAbsent(below, l.src().port());
            for (String further : downwardPorts(topo, below).keySet()) {
                out.putIfAbsent(further, l.src().port());
            }
        }
        return out;
    }
}
