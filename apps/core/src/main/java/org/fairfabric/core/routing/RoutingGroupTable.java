package org.fairfabric.core.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fairfabric.core.model.Checks;

/**
 * The routing groups of one upward table (one device, one metric): P4TE Algorithm 4.
 *
 * <p>Groups are numbered 0 (highest priority) to n-1 (lowest). Every upward port starts in group 0.
 * An INCREASE moves a port one group down (towards n-1), a DECREASE one group up, bounded at both
 * ends (a bounded move writes nothing). A move is written add-then-remove (the reverse of the
 * paper's lines 16-17) so that a port is never in no group. A port that goes down is removed from
 * its group and ignores events until it comes back up, when it re-enters group 0 as at
 * initialisation. With n = 1 every port stays in the one group: plain ECMP.
 */
public final class RoutingGroupTable {
    private final String deviceId;
    private final Metric metric;
    private final int groupCount;
    private final SortedSet<Integer> ports;
    private final Map<Integer, Integer> groupOfUpPort = new TreeMap<>();

    public RoutingGroupTable(String deviceId, Metric metric, int groupCount, Collection<Integer> upwardPorts) {
        this.deviceId = Checks.nonEmpty(deviceId, "device id");
        this.metric = Checks.notNull(metric, "metric");
        if (groupCount < 1) {
            throw new IllegalArgumentException("a routing-group table needs at least one group, got " + groupCount);
        }
        this.groupCount = groupCount;
        TreeSet<Integer> set = new TreeSet<>();
        for (Integer p : Checks.notNull(upwardPorts, "upward ports")) {
            if (p == null || p <= 0 || !set.add(p)) {
                throw new IllegalArgumentException("upward ports must be distinct positive numbers: " + upwardPorts);
            }
        }
        if (set.isEmpty()) {
            throw new IllegalArgumentException("device " + deviceId + " has no upward ports");
        }
        this.ports = Collections.unmodifiableSortedSet(set);
        for (int p : set) {
            groupOfUpPort.put(p, 0);
        }
    }

    public String deviceId() {
        return deviceId;
    }

    public Metric metric() {
        return metric;
    }

    public int groupCount() {
        return groupCount;
    }

    public SortedSet<Integer> ports() {
        return ports;
    }

    /** The writes that install the initial state: every port in group 0. */
    public List<GroupMembershipChange> initialMembership() {
        List<GroupMembershipChange> out = new ArrayList<>();
        for (int p : ports) {
            out.add(GroupMembershipChange.add(deviceId, metric, 0, p));
        }
        return out;
    }

    /** Algorithm 4, runtime phase: the writes for one event (none when the move is bounded). */
    public List<GroupMembershipChange> onEvent(int port, Trend trend) {
        checkPort(port);
        Checks.notNull(trend, "trend");
        Integer old = groupOfUpPort.get(port);
        if (old == null) {
            return List.of();
        }
        int target = trend == Trend.INCREASE ? old + 1 : old - 1;
        if (target < 0 || target >= groupCount) {
            return List.of();
        }
        groupOfUpPort.put(port, target);
        return List.of(GroupMembershipChange.add(deviceId, metric, target, port),
                GroupMembershipChange.remove(deviceId, metric, old, port));
    }

    /** Link failure (P4TE section 6.5): take the port out of its group. */
    public List<GroupMembershipChange> portDown(int port) {
        checkPort(port);
        Integer old = groupOfUpPort.remove(port);
        if (old == null) {
            return List.of();
        }
        return List.of(GroupMembershipChange.remove(deviceId, metric, old, port));
    }

    /** Link recovery: the port re-enters the highest-priority group. */
    public List<GroupMembershipChange> portUp(int port) {
        checkPort(port);
        if (groupOfUpPort.containsKey(port)) {
            return List.of();
        }
        groupOfUpPort.put(port, 0);
        return List.of(GroupMembershipChange.add(deviceId, metric, 0, port));
    }

    public OptionalInt groupOf(int port) {
        checkPort(port);
        Integer g = groupOfUpPort.get(port);
        return g == null ? OptionalInt.empty() : OptionalInt.of(g);
    }

    public boolean isUp(int port) {
        checkPort(port);
        return groupOfUpPort.containsKey(port);
    }

    /** Members of a group, in port order (the order the Algorithm 3 model hashes over). */
    public SortedSet<Integer> members(int groupId) {
        if (groupId < 0 || groupId >= groupCount) {
            throw new IllegalArgumentException("group " + groupId + " outside 0.." + (groupCount - 1));
        }
        TreeSet<Integer> out = new TreeSet<>();
        for (Map.Entry<Integer, Integer> e : groupOfUpPort.entrySet()) {
            if (e.getValue() == groupId) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    /** The group the data plane matches: the highest-priority group that is not empty. */
    public OptionalInt bestNonEmptyGroup() {
        int best = Integer.MAX_VALUE;
        for (int g : groupOfUpPort.values()) {
            best = Math.min(best, g);
        }
        return best == Integer.MAX_VALUE ? OptionalInt.empty() : OptionalInt.of(best);
    }

    /**
     * P4Runtime priority of a group's table entry. The paper's lower-value-wins convention is
     * inverted because in P4Runtime the higher priority value wins.
     */
    public int p4RuntimePriority(int groupId) {
        if (groupId < 0 || groupId >= groupCount) {
            throw new IllegalArgumentException("group " + groupId + " outside 0.." + (groupCount - 1));
        }
        return groupCount - groupId;
    }

    private void checkPort(int port) {
        if (!ports.contains(port)) {
            throw new IllegalArgumentException("port " + port + " is not an upward port of " + deviceId);
        }
    }
}
