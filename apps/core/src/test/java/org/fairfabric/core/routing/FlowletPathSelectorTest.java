package org.fairfabric.core.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.core.model.TrafficClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FlowletPathSelectorTest {
    private static final UpwardCandidates PORTS = new UpwardCandidates(2, 3, 4);

    @ParameterizedTest(name = "{0} with first choice {1} -> port {2}")
    @CsvSource({
        "LOW_DELAY, GREEN, 2",
        "LOW_DELAY, YELLOW, 3",
        "LOW_DELAY, RED, 4",
        "HIGH_THROUGHPUT, GREEN, 4",
        "HIGH_THROUGHPUT, YELLOW, 3",
        "HIGH_THROUGHPUT, RED, 2",
        "BEST_EFFORT, GREEN, 3",
        "BEST_EFFORT, YELLOW, 3",
        "BEST_EFFORT, RED, 3",
    })
    void algorithmThreeTruthTable(TrafficClass tc, UtilizationColor status, int expected) {
        int firstChoice = tc == TrafficClass.HIGH_THROUGHPUT ? 4 : 2;
        Map<Integer, UtilizationColor> util = new HashMap<>();
        util.put(firstChoice, status);
        FlowletPathSelector s = new FlowletPathSelector(40_000);
        assertEquals(expected, s.select(tc, 7, 1_000_000, PORTS, util));
    }

    @Test
    void packetsInsideTheGapKeepTheirPortAndLaterOnesAreReselected() {
        FlowletPathSelector s = new FlowletPathSelector(40_000);
        Map<Integer, UtilizationColor> util = new HashMap<>();
        assertEquals(2, s.select(TrafficClass.LOW_DELAY, 9, 0, PORTS, util));
        util.put(2, UtilizationColor.RED);
        UpwardCandidates moved = new UpwardCandidates(5, 6, 7);
        assertEquals(2, s.select(TrafficClass.LOW_DELAY, 9, 30_000, moved, util), "within the gap");
        assertEquals(2, s.select(TrafficClass.LOW_DELAY, 9, 70_000, moved, util), "gap exactly 40000 is not >");
        util.put(5, UtilizationColor.RED);
        assertEquals(7, s.select(TrafficClass.LOW_DELAY, 9, 110_001, moved, util), "gap above threshold");
        assertEquals(6, s.select(TrafficClass.BEST_EFFORT, 9, 110_002, moved, util), "other classes ignore flowlets");
    }

    @Test
    void candidatesComeFromTheBestNonEmptyGroupOfEachTable() {
        DeviceRoutingGroups g = new DeviceRoutingGroups("p0l0",
                Map.of(Metric.DELAY, 3, Metric.QUEUE_DEPTH, 3, Metric.LINK_UTILIZATION, 3), List.of(1, 2, 3, 4));
        for (int p : List.of(1, 3, 4)) {
            g.onFeedback(List.of(new MetricEvent("p0l0", p, Metric.DELAY, Trend.INCREASE)));
        }
        g.onFeedback(List.of(new MetricEvent("p0l0", 1, Metric.QUEUE_DEPTH, Trend.INCREASE)));
        UpwardCandidates c = UpwardCandidates.of(g, 5).get();
        assertEquals(2, c.lowDelayPort(), "only port 2 left in delay group 0");
        assertEquals(4, c.lowQueueDepthPort(), "members {2,3,4} in port order, hash 5 mod 3 = index 2");
        assertEquals(2, c.lowUtilizationPort(), "members {1,2,3,4}, hash 5 mod 4 = index 1");
    }

    @Test
    void noCandidatesWhenEveryUplinkIsDown() {
        DeviceRoutingGroups g = new DeviceRoutingGroups("p0l0",
                Map.of(Metric.DELAY, 2, Metric.QUEUE_DEPTH, 2, Metric.LINK_UTILIZATION, 2), List.of(1, 2));
        g.portDown(1);
        g.portDown(2);
        assertTrue(UpwardCandidates.of(g, 0).isEmpty());
    }
}
