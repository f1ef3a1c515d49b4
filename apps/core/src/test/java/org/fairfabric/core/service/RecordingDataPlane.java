package org.fairfabric.core.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.fairfabric.core.aq.AqGrant;
import org.fairfabric.core.ports.DataPlaneException;
import org.fairfabric.core.ports.DataPlaneProgrammer;
import org.fairfabric.core.routing.GroupMembershipChange;

/** Test double: records every write and can be told to fail AQ installs. */
final class RecordingDataPlane implements DataPlaneProgrammer {
    final List<GroupMembershipChange> groupWrites = new ArrayList<>();
    final List<String> aqWrites = new ArrayList<>();
    boolean failInstall;

    @Override
    public void applyGroupChanges(List<GroupMembershipChange> changes) {
        groupWrites.addAll(changes);
    }

    @Override
    public void installPinnedPaths(String deviceId, Map<Integer, Integer> upPortByPathId) {
        aqWrites.add("pin " + deviceId);
    }

    @Override
    public void installAq(AqGrant grant) {
        if (failInstall) {
            throw new DataPlaneException("switch refused AQ " + grant.aqId());
        }
        aqWrites.add("install " + grant.aqId() + " " + Math.round(grant.rateBps()));
    }

    @Override
    public void updateAq(AqGrant grant) {
        aqWrites.add("update " + grant.aqId() + " " + Math.round(grant.rateBps()));
    }

    @Override
    public void removeAq(AqGrant grant) {
        aqWrites.add("remove " + grant.aqId());
    }
}
