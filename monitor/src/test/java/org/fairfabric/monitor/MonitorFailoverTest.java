package org.fairfabric.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.fairfabric.monitor.stream.Json;
import org.junit.jupiter.api.Test;

/**
 * Against the broker of `./fairfabric kafka start`: two instances share the partitions; one is
 * killed -9 mid-run and the other takes its tasks over. The view equals a single instance's run
 * over the same input: every period once, the same loads and tenant rates.
 */
class MonitorFailoverTest {
    static final int PERIODS = 30;

    @Test
    void theSurvivorTakesOverAndTheOutputEqualsASingleInstanceRun() throws Exception {
        Map<String, String> single;
        try (BrokerFixture f = new BrokerFixture()) {
            f.startMonitor(0, f.tempDir());
            for (int k = 0; k < PERIODS; k++) {
                f.producePeriod(k);
            }
            f.awaitPeriod(BrokerFixture.lastClosed(PERIODS), Duration.ofSeconds(180));
            single = periodFigures(f);
        }
        Map<String, String> pair;
        try (BrokerFixture f = new BrokerFixture()) {
            Path dirA = f.tempDir();
            Path dirB = f.tempDir();
            Process a = f.startMonitor(0, dirA);
            Process b = f.startMonitor(1, dirB);
            for (int k = 0; k < 12; k++) {
                f.producePeriod(k);
            }
            f.awaitPeriod(5, Duration.ofSeconds(180));
            for (int k = 12; k < 18; k++) {
                f.producePeriod(k);
            }
            // kill the instance that runs the readers' task (0_0), the one every view depends on
            Process victim = ownsTask(dirA, "0_0") ? a : b;
            BrokerFixture.kill(victim);
            for (int k = 18; k < PERIODS; k++) {
                f.producePeriod(k);
            }
            f.awaitPeriod(BrokerFixture.lastClosed(PERIODS), Duration.ofSeconds(180));
            MonitorRestartTest.assertEveryPeriodOnceWithItsLoad(f.uplinkPeriods(), BrokerFixture.lastClosed(PERIODS));
            assertEquals(List.of(), f.readAll(f.topics.rejected), "nothing rejected: no replayed duplicate, nothing late");
            pair = periodFigures(f);
        }
        assertTrue(single.size() > 4 * (BrokerFixture.lastClosed(PERIODS)), "links and tenants of every closed period: " + single.size());
        assertEquals(single, pair);
    }

    private static boolean ownsTask(Path stateDir, String task) throws Exception {
        try (var walk = Files.walk(stateDir)) {
            return walk.anyMatch(p -> p.getFileName().toString().equals(task) && Files.isDirectory(p));
        }
    }

    /** (topic kind, key, period) → the period's figures, from every committed record; a doubled period fails. */
    private static Map<String, String> periodFigures(BrokerFixture f) {
        Map<String, String> out = new TreeMap<>();
        collect(out, "link", f.readAll(f.topics.links), List.of("load_bps_shim", "load_bps_switch", "drops", "qdepth"));
        collect(out, "tenant", f.readAll(f.topics.tenants), List.of("achieved_bps", "demand", "below_guarantee"));
        return out;
    }

    private static void collect(Map<String, String> out, String kind, List<ConsumerRecord<String, String>> records,
                                List<String> fields) {
        for (ConsumerRecord<String, String> r : records) {
            if (r.value() == null) {
                continue;
            }
            JsonNode v = Json.parseObject(r.value());
            if (v.get("period_start_ms") == null || v.get("period_start_ms").isNull()
                    || (v.has("update") && !v.get("update").asText().equals("period"))) {
                continue;
            }
            StringBuilder figures = new StringBuilder();
            for (String field : fields) {
                figures.append(field).append('=').append(v.get(field)).append(' ');
            }
            String key = kind + " " + r.key() + " " + v.get("period_start_ms").asLong();
            String previous = out.put(key, figures.toString());
            assertTrue(previous == null || previous.equals(figures.toString()), key + " published twice, differently");
        }
    }
}
