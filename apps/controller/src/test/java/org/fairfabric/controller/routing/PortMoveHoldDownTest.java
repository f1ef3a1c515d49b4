package org.fairfabric.controller.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.fairfabric.core.model.LeafSpine;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.routing.Trend;
import org.fairfabric.core.service.RoutingGroupService;
import org.junit.jupiter.api.Test;

/** The P4TE loop's hold-down after a move, alone and in front of the core's Algorithm 4. */
class PortMoveHoldDownTest {
    static final long MS = 1_000_000L;
    static final Map<Metric, Integer> THREE = Map.of(Metric.DELAY, 3, Metric.QUEUE_DEPTH, 3, Metric.LINK_UTILIZATION, 3);

    @Test
    void aPortThatMovedIsHeldForTheHoldTimeInThatMetricOnly() {
        PortMoveHoldDown h = new PortMoveHoldDown(1000);
        MetricEvent q6 = new MetricEvent("l0", 6, Metric.QUEUE_DEPTH, Trend.INCREASE);
        assertTrue(h.admits(q6, 0));
        h.moved(q6, 0);
        assertFalse(h.admits(new MetricEvent("l0", 6, Metric.QUEUE_DEPTH, Trend.DECREASE), 999 * MS), "either trend is held");
        assertTrue(h.admits(new MetricEvent("l0", 6, Metric.LINK_UTILIZATION, Trend.INCREASE), 1 * MS), "another metric is not");
        assertTrue(h.admits(new MetricEvent("l0", 7, Metric.QUEUE_DEPTH, Trend.INCREASE), 1 * MS), "another port is not");
        assertTrue(h.admits(new MetricEvent("l1", 6, Metric.QUEUE_DEPTH, Trend.INCREASE), 1 * MS), "another switch is not");
        assertTrue(h.admits(q6, 1000 * MS), "free again after the hold time");
        assertEquals(1, h.suppressed());
        h.clear();
        assertTrue(h.admits(q6, 1 * MS), "cleared when the groups are installed again");
        assertThrows(IllegalArgumentException.class, () -> new PortMoveHoldDown(-1));
    }

    /**
     * A queue that crosses its threshold up and down every 5 ms for 2 s (what 48 TCP flows on one
     * uplink did in the p4te-balance experiment: ~100 moves/s): every event moves the port without
     * the hold-down, at most one move per hold time with it.
     */
    @Test
    void aFlappingQueueMovesItsPortOncePerHoldTimeInsteadOfOnEveryEvent() {
        assertEquals(400, moves(0), "without a hold-down every event moves the port");
        int held = moves(PortMoveHoldDown.DEFAULT_HOLD_MS);
        assertEquals(2, held, "moves in 2 s with a 1 s hold-down");
    }

    private static int moves(long holdMs) {
        RoutingGroupService groups = new RoutingGroupService(THREE);
        groups.install(LeafSpine.build(4, 4, 4, 40, 20));
        PortMoveHoldDown hold = new PortMoveHoldDown(holdMs);
        int moves = 0;
        for (int i = 0; i < 400; i++) {
            long now = i * 5 * MS;
            MetricEvent e = new MetricEvent("p0l1", 6, Metric.QUEUE_DEPTH, i % 2 == 0 ? Trend.INCREASE : Trend.DECREASE);
            if (hold.admits(e, now) && !groups.onMetricEvents(List.of(e)).isEmpty()) {
                hold.moved(e, now);
                moves++;
            }
        }
        return moves;
    }
}
