package org.fairfabric.core.service;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.routing.DeviceRoutingGroups;
import org.fairfabric.core.routing.GroupMembershipChange;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.routing.RoutingGroupTable;

/**
 * Runs P4TE routing groups for every switch of the fabric: installs the initial membership, turns
 * feedback events and link state changes into ordered group changes (returned: the caller programs
 * them; a move is an ADD followed by its REMOVE). State is
 * per device, as the paper's switch-local control planes; the service serialises calls so the
 * events of one device are handled in arrival order.
 */
public final class RoutingGroupService {
    private final Map<Metric, Integer> groupCounts;
    private final Map<String, DeviceRoutingGroups> devices = new TreeMap<>();
    private final Map<String, Link> linkById = new LinkedHashMap<>();

    public RoutingGroupService(Map<Metric, Integer> groupCounts) {
        this.groupCounts = Collections.unmodifiableMap(new EnumMap<>(Checks.notNull(groupCounts, "group counts")));
        for (Metric m : Metric.values()) {
            Integer n = this.groupCounts.get(m);
            if (n == null || n < 1) {
                throw new IllegalArgumentException("metric " + m + " needs at least one routing group");
            }
        }
    }

    /**
     * Sets up groups for every switch of the topology that has uplinks and is not yet known; known
     * switches keep their state. Ports whose uplink is down start outside every group.
     */
    public synchronized List<GroupMembershipChange> install(Topology topology) {
        Checks.notNull(topology, "topology");
        for (Link l : topology.links()) {
            linkById.put(l.id(), l);
        }
        List<GroupMembershipChange> writes = new ArrayList<>();
        for (String deviceId : topology.devices().keySet()) {
            List<Link> ups = topology.upwardLinks(deviceId);
            if (ups.isEmpty() || devices.containsKey(deviceId)) {
                continue;
            }
            List<Integer> ports = new ArrayList<>();
            for (Link l : ups) {
                ports.add(l.src().port());
            }
            DeviceRoutingGroups groups = new DeviceRoutingGroups(deviceId, groupCounts, ports);
            for (Link l : ups) {
                if (!l.isUp()) {
                    groups.portDown(l.src().port());
                }
            }
            devices.put(deviceId, groups);
            writes.addAll(currentMembership(groups));
        }
        return writes;
    }

    /** Events of one or more feedback packets. Everything is validated before anything moves. */
    public synchronized List<GroupMembershipChange> onMetricEvents(List<MetricEvent> metricEvents) {
        Map<String, List<MetricEvent>> byDevice = new LinkedHashMap<>();
        for (MetricEvent e : Checks.notNull(metricEvents, "metric events")) {
            DeviceRoutingGroups g = devices.get(e.deviceId());
            if (g == null) {
                throw new IllegalArgumentException("no routing groups on device " + e.deviceId());
            }
            if (!g.table(e.metric()).ports().contains(e.port())) {
                throw new IllegalArgumentException("port " + e.port() + " is not an upward port of " + e.deviceId());
            }
            byDevice.computeIfAbsent(e.deviceId(), k -> new ArrayList<>()).add(e);
        }
        List<GroupMembershipChange> writes = new ArrayList<>();
        for (Map.Entry<String, List<MetricEvent>> e : byDevice.entrySet()) {
            writes.addAll(devices.get(e.getKey()).onFeedback(e.getValue()));
        }
        return writes;
    }

    /** A link changed state: an uplink that went down leaves every group, one that came up rejoins group 0. */
    public synchronized List<GroupMembershipChange> onLinkState(String linkId, LinkState state) {
        Link link = linkById.get(linkId);
        if (link == null) {
            throw new IllegalArgumentException("unknown link " + linkId);
        }
        Checks.notNull(state, "link state");
        DeviceRoutingGroups g = devices.get(link.src().elementId());
        if (g == null || !g.table(Metric.DELAY).ports().contains(link.src().port())) {
            return List.of();
        }
        List<GroupMembershipChange> writes = state == LinkState.UP ? g.portUp(link.src().port())
                : g.portDown(link.src().port());
        return writes;
    }

    /** The full membership of a device as ADD writes, to re-program a switch that reconnected. */
    public synchronized List<GroupMembershipChange> resync(String deviceId) {
        DeviceRoutingGroups g = devices.get(deviceId);
        if (g == null) {
            throw new IllegalArgumentException("no routing groups on device " + deviceId);
        }
        List<GroupMembershipChange> writes = currentMembership(g);
        return writes;
    }

    /** Membership snapshot: metric -> group id -> ports, for REST and the GUI. */
    public synchronized Map<Metric, List<SortedSet<Integer>>> membership(String deviceId) {
        DeviceRoutingGroups g = devices.get(deviceId);
        if (g == null) {
            throw new IllegalArgumentException("no routing groups on device " + deviceId);
        }
        Map<Metric, List<SortedSet<Integer>>> out = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            RoutingGroupTable t = g.table(m);
            List<SortedSet<Integer>> groups = new ArrayList<>();
            for (int i = 0; i < t.groupCount(); i++) {
                groups.add(Collections.unmodifiableSortedSet(t.members(i)));
            }
            out.put(m, Collections.unmodifiableList(groups));
        }
        return out;
    }

    public synchronized List<String> devices() {
        return new ArrayList<>(devices.keySet());
    }

    private static List<GroupMembershipChange> currentMembership(DeviceRoutingGroups g) {
        List<GroupMembershipChange> out = new ArrayList<>();
        for (Metric m : Metric.values()) {
            RoutingGroupTable t = g.table(m);
            for (int i = 0; i < t.groupCount(); i++) {
                for (int port : t.members(i)) {
                    out.add(GroupMembershipChange.add(g.deviceId(), m, i, port));
                }
            }
        }
        return out;
    }

}
