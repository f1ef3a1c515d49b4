package org.fairfabric.core.ports;

import java.util.List;
import java.util.Map;
import org.fairfabric.core.aq.AqGrant;
import org.fairfabric.core.routing.GroupMembershipChange;

/**
 * Writes the core's decisions into the switches (P4Runtime in both the ONOS module and the
 * embedded controller). Implementations apply writes in the order given and throw
 * {@link DataPlaneException} on the first failure.
 */
public interface DataPlaneProgrammer {
    /** Routing-group membership writes, in order (add-then-remove for a move). */
    void applyGroupChanges(List<GroupMembershipChange> changes);

    /** Pinned-path forwarding of one switch: path id (VLAN id) to upward port. */
    void installPinnedPaths(String deviceId, Map<Integer, Integer> upPortByPathId);

    void installAq(AqGrant grant);

    /** Same AQ, new rate / limit / ECN threshold (weighted re-rating). */
    void updateAq(AqGrant grant);

    void removeAq(AqGrant grant);
}
