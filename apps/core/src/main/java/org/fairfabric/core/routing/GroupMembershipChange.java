package org.fairfabric.core.routing;

import java.util.Objects;

/**
 * One write to the data plane: add a port to, or remove it from, a routing group of one upward
 * table. Writes are emitted in the order they must be applied.
 */
public final class GroupMembershipChange {
    /** What the write does. */
    public enum Kind {
        ADD, REMOVE
    }

    private final String deviceId;
    private final Metric metric;
    private final int groupId;
    private final int port;
    private final Kind kind;

    public GroupMembershipChange(String deviceId, Metric metric, int groupId, int port, Kind kind) {
        this.deviceId = deviceId;
        this.metric = metric;
        this.groupId = groupId;
        this.port = port;
        this.kind = kind;
    }

    public static GroupMembershipChange add(String deviceId, Metric metric, int groupId, int port) {
        return new GroupMembershipChange(deviceId, metric, groupId, port, Kind.ADD);
    }

    public static GroupMembershipChange remove(String deviceId, Metric metric, int groupId, int port) {
        return new GroupMembershipChange(deviceId, metric, groupId, port, Kind.REMOVE);
    }

    public String deviceId() {
        return deviceId;
    }

    public Metric metric() {
        return metric;
    }

    /** Group id: 0 is the highest priority, n-1 the lowest. */
    public int groupId() {
        return groupId;
    }

    public int port() {
        return port;
    }

    public Kind kind() {
        return kind;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GroupMembershipChange)) {
            return false;
        }
        GroupMembershipChange c = (GroupMembershipChange) o;
        return groupId == c.groupId && port == c.port && deviceId.equals(c.deviceId) && metric == c.metric
                && kind == c.kind;
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, metric, groupId, port, kind);
    }

    @Override
    public String toString() {
        return kind + " " + deviceId + "/" + port + " " + metric + "#" + groupId;
    }
}
