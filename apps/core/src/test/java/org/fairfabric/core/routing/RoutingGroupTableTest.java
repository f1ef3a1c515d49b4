package org.fairfabric.core.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoutingGroupTableTest {
    private static RoutingGroupTable table(int groups) {
        return new RoutingGroupTable("p0l0", Metric.QUEUE_DEPTH, groups, List.of(5, 6, 7, 8));
    }

    @Test
    void allPortsStartInTheHighestPriorityGroup() {
        RoutingGroupTable t = table(3);
        assertEquals(Set.of(5, 6, 7, 8), t.members(0));
        assertEquals(4, t.initialMembership().size());
        assertEquals(GroupMembershipChange.add("p0l0", Metric.QUEUE_DEPTH, 0, 5), t.initialMembership().get(0));
    }

    @Test
    void increaseThreeTimesGivesGroupsOneTwoTwoThenDecreaseGivesOneZeroZero() {
        RoutingGroupTable t = table(3);
        List<Integer> seen = new ArrayList<>();
        List<Integer> writes = new ArrayList<>();
        for (Trend trend : List.of(Trend.INCREASE, Trend.INCREASE, Trend.INCREASE,
                Trend.DECREASE, Trend.DECREASE, Trend.DECREASE)) {
            writes.add(t.onEvent(6, trend).size());
            seen.add(t.groupOf(6).getAsInt());
        }
        assertEquals(List.of(1, 2, 2, 1, 0, 0), seen);
        assertEquals(List.of(2, 2, 0, 2, 2, 0), writes, "two writes per move, none when bounded");
        assertEquals(0, t.groupOf(5).getAsInt(), "other ports are independent");
    }

    @Test
    void movesAreWrittenAddThenRemove() {
        RoutingGroupTable t = table(3);
        List<GroupMembershipChange> w = t.onEvent(7, Trend.INCREASE);
        assertEquals(List.of(GroupMembershipChange.add("p0l0", Metric.QUEUE_DEPTH, 1, 7),
                GroupMembershipChange.remove("p0l0", Metric.QUEUE_DEPTH, 0, 7)), w);
    }

    @Test
    void singleGroupDegeneratesToEcmp() {
        RoutingGroupTable t = table(1);
        assertTrue(t.onEvent(5, Trend.INCREASE).isEmpty());
        assertTrue(t.onEvent(5, Trend.DECREASE).isEmpty());
        assertEquals(Set.of(5, 6, 7, 8), t.members(0));
    }

    @Test
    void linkFailureRemovesThePortAndRecoveryPutsItBackInGroupZero() {
        RoutingGroupTable t = table(4);
        t.onEvent(8, Trend.INCREASE);
        t.onEvent(8, Trend.INCREASE);
        assertEquals(List.of(GroupMembershipChange.remove("p0l0", Metric.QUEUE_DEPTH, 2, 8)), t.portDown(8));
        assertTrue(t.onEvent(8, Trend.INCREASE).isEmpty(), "events for a down port are ignored");
        assertTrue(t.portDown(8).isEmpty());
        assertEquals(List.of(GroupMembershipChange.add("p0l0", Metric.QUEUE_DEPTH, 0, 8)), t.portUp(8));
        assertEquals(0, t.groupOf(8).getAsInt());
    }

    @Test
    void bestGroupSkipsEmptyGroupsAndPrioritiesAreInvertedForP4Runtime() {
        RoutingGroupTable t = table(3);
        for (int p : List.of(5, 6, 7, 8)) {
            t.onEvent(p, Trend.INCREASE);
        }
        assertEquals(1, t.bestNonEmptyGroup().getAsInt());
        assertEquals(3, t.p4RuntimePriority(0));
        assertEquals(1, t.p4RuntimePriority(2));
        for (int p : List.of(5, 6, 7, 8)) {
            t.portDown(p);
        }
        assertTrue(t.bestNonEmptyGroup().isEmpty());
    }

    @Test
    void combinedFeedbackMovesEachMetricIndependently() {
        DeviceRoutingGroups g = new DeviceRoutingGroups("p0s0",
                Map.of(Metric.DELAY, 3, Metric.QUEUE_DEPTH, 3, Metric.LINK_UTILIZATION, 3), List.of(3, 4));
        List<GroupMembershipChange> w = g.onFeedback(List.of(
                new MetricEvent("p0s0", 3, Metric.QUEUE_DEPTH, Trend.INCREASE),
                new MetricEvent("p0s0", 3, Metric.LINK_UTILIZATION, Trend.INCREASE)));
        assertEquals(4, w.size());
        assertEquals(1, g.table(Metric.QUEUE_DEPTH).groupOf(3).getAsInt());
        assertEquals(1, g.table(Metric.LINK_UTILIZATION).groupOf(3).getAsInt());
        assertEquals(0, g.table(Metric.DELAY).groupOf(3).getAsInt());
        assertEquals(3, g.portDown(4).size(), "failure removes the port from every table");
    }

    @Test
    void badInputChangesNothing() {
        DeviceRoutingGroups g = new DeviceRoutingGroups("p0s0",
                Map.of(Metric.DELAY, 3, Metric.QUEUE_DEPTH, 3, Metric.LINK_UTILIZATION, 3), List.of(3, 4));
        assertThrows(IllegalArgumentException.class, () -> g.onFeedback(List.of(
                new MetricEvent("p0s0", 3, Metric.QUEUE_DEPTH, Trend.INCREASE),
                new MetricEvent("p0s0", 9, Metric.QUEUE_DEPTH, Trend.INCREASE))));
        assertEquals(0, g.table(Metric.QUEUE_DEPTH).groupOf(3).getAsInt(), "first event was not applied");
        assertThrows(IllegalArgumentException.class, () -> g.onFeedback(List.of(
                new MetricEvent("p0s1", 3, Metric.QUEUE_DEPTH, Trend.INCREASE))));
        assertThrows(IllegalArgumentException.class, () -> table(0));
        assertThrows(IllegalArgumentException.class,
                () -> new RoutingGroupTable("d", Metric.DELAY, 2, List.of(1, 1)));
    }
}
