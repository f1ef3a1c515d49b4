package org.fairfabric.core.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The ports the three upward tables yield for one packet (Algorithm 3, lines 1-3): in each table
 * the highest-priority non-empty group matches, and the action selector picks a member by hash.
 * The model picks member (hash mod size) of the group's members in port order; predictions are
 * exact when the data plane orders members the same way, and otherwise right up to the group.
 */
public final class UpwardCandidates {
    private final int lowDelayPort;
    private final int lowQueueDepthPort;
    private final int lowUtilizationPort;

    public UpwardCandidates(int lowDelayPort, int lowQueueDepthPort, int lowUtilizationPort) {
        this.lowDelayPort = lowDelayPort;
        this.lowQueueDepthPort = lowQueueDepthPort;
        this.lowUtilizationPort = lowUtilizationPort;
    }

    /** Empty when a table has no member at all (every upward link down): the packet is dropped. */
    public static Optional<UpwardCandidates> of(DeviceRoutingGroups groups, int selectorHash) {
        int[] ports = new int[3];
        Metric[] order = {Metric.DELAY, Metric.QUEUE_DEPTH, Metric.LINK_UTILIZATION};
        for (int i = 0; i < 3; i++) {
            RoutingGroupTable t = groups.table(order[i]);
            OptionalInt g = t.bestNonEmptyGroup();
            if (g.isEmpty()) {
                return Optional.empty();
            }
            List<Integer> members = new ArrayList<>(t.members(g.getAsInt()));
            ports[i] = members.get(Math.floorMod(selectorHash, members.size()));
        }
        return Optional.of(new UpwardCandidates(ports[0], ports[1], ports[2]));
    }

    public int lowDelayPort() {
        return lowDelayPort;
    }

    public int lowQueueDepthPort() {
        return lowQueueDepthPort;
    }

    public int lowUtilizationPort() {
        return lowUtilizationPort;
    }
}
