package org.fairfabric.core.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.LeafSpine;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.routing.GroupMembershipChange;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.routing.Trend;
import org.junit.jupiter.api.Test;

/** The routing-group service returns its decisions (group changes); it writes nothing itself. */
class RoutingGroupServiceTest {
    static final Map<Metric, Integer> THREE = Map.of(Metric.DELAY, 3, Metric.QUEUE_DEPTH, 3, Metric.LINK_UTILIZATION, 3);

    @Test
    void installsMovesAndHandlesFailures() {
        Topology t = LeafSpine.build(4, 4, 4, 40, 20);
        Link uplink = t.linkFrom(new ConnectPoint("p0l0", 5)).get();
        t = t.withLinkState(uplink.id(), LinkState.DOWN);
        RoutingGroupService s = new RoutingGroupService(THREE);
        assertEquals(3 * 4 * 4 - 3, s.install(t).size(), "the down uplink starts in no group");
        assertEquals(List.of("p0l0", "p0l1", "p0l2", "p0l3"), s.devices(), "spines have no uplinks");
        assertEquals(Set.of(6, 7, 8), s.membership("p0l0").get(Metric.QUEUE_DEPTH).get(0));

        List<GroupMembershipChange> move = s.onMetricEvents(List.of(new MetricEvent("p0l1", 6, Metric.QUEUE_DEPTH, Trend.INCREASE)));
        assertEquals(2, move.size(), "a move: the ADD to the new level, then the REMOVE from the old");
        assertEquals(GroupMembershipChange.add("p0l1", Metric.QUEUE_DEPTH, 1, 6), move.get(0));

        assertThrows(IllegalArgumentException.class, () -> s.onMetricEvents(List.of(
                new MetricEvent("p0l1", 6, Metric.QUEUE_DEPTH, Trend.INCREASE),
                new MetricEvent("p0s0", 1, Metric.QUEUE_DEPTH, Trend.INCREASE))));
        assertEquals(Set.of(6), s.membership("p0l1").get(Metric.QUEUE_DEPTH).get(1), "nothing moved");

        assertEquals(3, s.onLinkState(uplink.id(), LinkState.UP).size(), "one ADD per metric table");
        assertEquals(Set.of(5, 6, 7, 8), s.membership("p0l0").get(Metric.DELAY).get(0));
        Link spineDown = t.linkFrom(new ConnectPoint("p0s0", 1)).get();
        assertEquals(List.of(), s.onLinkState(spineDown.id(), LinkState.DOWN), "downlinks have no groups");
        assertEquals(12, s.resync("p0l3").size());
    }
}
