package org.fairfabric.controller.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.fairfabric.controller.p4rt.WriteTiming;
import org.fairfabric.controller.program.P4teLoopStages.Stage;
import org.junit.jupiter.api.Test;

class P4teLoopStagesTest {
    static final long MS = 1_000_000L;

    @Test
    void stagesAreTheGapsBetweenTheTimesAndAddUpToTheTotal() {
        P4teLoopStages s = new P4teLoopStages();
        // received 0, taken 1, decided 3, enqueued 6, write started 10, sent 15, answered 21 (ms)
        s.record(0, MS, 3 * MS, 6 * MS, new WriteTiming(10 * MS, 15 * MS, 21 * MS));
        assertEquals(1.0, s.stage(Stage.QUEUED).percentileMillis(100));
        assertEquals(2.0, s.stage(Stage.ALGORITHM).percentileMillis(100));
        assertEquals(3.0, s.stage(Stage.PLAN).percentileMillis(100));
        assertEquals(4.0, s.stage(Stage.WRITE_QUEUE).percentileMillis(100));
        assertEquals(5.0, s.stage(Stage.DIFF).percentileMillis(100));
        assertEquals(6.0, s.stage(Stage.RPC).percentileMillis(100));
        assertEquals(21.0, s.stage(Stage.TOTAL).percentileMillis(100));
    }

    @Test
    void anEventThatJoinedAWaitingWriteAfterItsTurnCameCountsZeroForTheOverlap() {
        P4teLoopStages s = new P4teLoopStages();
        // handed over at 6 ms to a write whose turn came at 5 ms (it still carried the event's state)
        s.record(0, MS, 3 * MS, 6 * MS, new WriteTiming(5 * MS, 8 * MS, 9 * MS));
        assertEquals(0.0, s.stage(Stage.WRITE_QUEUE).percentileMillis(100));
        assertEquals(2.0, s.stage(Stage.DIFF).percentileMillis(100));
        assertEquals(9.0, s.stage(Stage.TOTAL).percentileMillis(100));
    }

    @Test
    void linesNameEveryStageAndClearForgets() {
        P4teLoopStages s = new P4teLoopStages();
        s.record(0, MS, 2 * MS, 3 * MS, new WriteTiming(4 * MS, 5 * MS, 6 * MS));
        List<String> lines = s.lines();
        assertEquals(Stage.values().length, lines.size());
        assertTrue(lines.get(lines.size() - 1).startsWith("total: packet-in received -> answer"), lines.toString());
        assertTrue(lines.get(lines.size() - 1).endsWith("n=1 p50=6.00 ms p99=6.00 ms max=6.00 ms"), lines.toString());
        s.clear();
        assertEquals(0, s.stage(Stage.TOTAL).count());
    }
}
