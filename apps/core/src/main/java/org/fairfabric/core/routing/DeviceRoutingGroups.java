package org.fairfabric.core.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.core.model.Checks;

/**
 * The three upward tables of one switch (delay, queue depth, link utilisation), each with its own
 * routing groups. A feedback packet may carry events for several metrics; each moves the port in
 * that metric's table only.
 */
public final class DeviceRoutingGroups {
    private final String deviceId;
    private final Map<Metric, RoutingGroupTable> tables = new EnumMap<>(Metric.class);

    public DeviceRoutingGroups(String deviceId, Map<Metric, Integer> groupCounts, Collection<Integer> upwardPorts) {
        this.deviceId = Checks.nonEmpty(deviceId, "device id");
        for (Metric m : Metric.values()) {
            Integer n = Checks.notNull(groupCounts, "group counts").get(m);
            if (n == null) {
                throw new IllegalArgumentException("no group count for metric " + m);
            }
            tables.put(m, new RoutingGroupTable(deviceId, m, n, upwardPorts));
        }
    }

    public String deviceId() {
        return deviceId;
    }

    public RoutingGroupTable table(Metric metric) {
        return tables.get(metric);
    }

    public List<GroupMembershipChange> initialMembership() {
        List<GroupMembershipChange> out = new ArrayList<>();
        for (RoutingGroupTable t : tables.values()) {
            out.addAll(t.initialMembership());
        }
        return out;
    }

    /** Applies the events of one feedback packet in order. All events are checked before any applies. */
    public List<GroupMembershipChange> onFeedback(List<MetricEvent> events) {
        for (MetricEvent e : Checks.notNull(events, "events")) {
            if (!e.deviceId().equals(deviceId)) {
                throw new IllegalArgumentException("event for " + e.deviceId() + " sent to " + deviceId);
            }
            if (!tables.get(e.metric()).ports().contains(e.port())) {
                throw new IllegalArgumentException("port " + e.port() + " is not an upward port of " + deviceId);
            }
        }
        List<GroupMembershipChange> out = new ArrayList<>();
        for (MetricEvent e : events) {
            out.addAll(tables.get(e.metric()).onEvent(e.port(), e.trend()));
        }
        return out;
    }

    public List<GroupMembershipChange> portDown(int port) {
        List<GroupMembershipChange> out = new ArrayList<>();
        for (RoutingGroupTable t : tables.values()) {
            out.addAll(t.portDown(port));
        }
        return out;
    }

    public List<GroupMembershipChange> portUp(int port) {
        List<GroupMembershipChange> out = new ArrayList<>();
        for (RoutingGroupTable t : tables.values()) {
            out.addAll(t.portUp(port));
        }
        return out;
    }
}
