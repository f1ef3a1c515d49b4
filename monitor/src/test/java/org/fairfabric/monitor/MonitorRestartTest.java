package org.fairfabric.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Against the broker of `./fairfabric kafka start`: a monitor killed -9 mid-run resumes without losing or doubling a period. */
class MonitorRestartTest {
    static final int PERIODS = 30;

    @Test
    void aMonitorKilledMidRunResumesWithoutALostOrDoubleCountedPeriod() throws Exception {
        try (BrokerFixture f = new BrokerFixture()) {
            Path state = f.tempDir();
            Process first = f.startMonitor(0, state);
            for (int k = 0; k < 12; k++) {
                f.producePeriod(k);
            }
            f.awaitPeriod(5, Duration.ofSeconds(120));
            for (int k = 12; k < 20; k++) {
                f.producePeriod(k);
            }
            BrokerFixture.kill(first);
            for (int k = 20; k < PERIODS; k++) {
                f.producePeriod(k);
            }
            f.startMonitor(0, state);
            f.awaitPeriod(BrokerFixture.lastClosed(PERIODS), Duration.ofSeconds(180));
            assertEquals(List.of(), f.readAll(f.topics.rejected), "nothing rejected: no replayed duplicate, nothing late");
            assertEveryPeriodOnceWithItsLoad(f.uplinkPeriods(), BrokerFixture.lastClosed(PERIODS));
        }
    }

    static void assertEveryPeriodOnceWithItsLoad(List<JsonNode> periods, int upTo) {
        Map<Integer, Integer> count = new TreeMap<>();
        for (JsonNode l : periods) {
            int k = BrokerFixture.periodIndex(l);
            count.merge(k, 1, Integer::sum);
            assertEquals(BrokerFixture.expectedShimBps(k), l.get("load_bps_shim").asDouble(), 1e-6, "period " + k);
            if (k > 0) {
                assertEquals(3_000_000 * 8.0, l.get("load_bps_switch").asDouble(), 1e-6, "period " + k);
            }
        }
        for (int k = 0; k <= upTo; k++) {
            int period = k;
            assertEquals(1, count.getOrDefault(k, 0), () -> "period " + period + " published once; all: " + count
                    + "; its records: " + periods.stream().filter(l -> BrokerFixture.periodIndex(l) == period).toList());
        }
    }
}
