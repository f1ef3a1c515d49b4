package org.fairfabric.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fairfabric.monitor.stream.Json;
import org.junit.jupiter.api.Test;

/**
 * The input watermark of the period stages (docs/monitor.md, "Clocks"): after a cold start the
 * switch counters of several periods may be processed before the first shim report; no period
 * may be lost for that. An input that stops holds the view back for the input lag only.
 */
class MonitorColdStartTest {
    private static final long T0 = 1763770000000L;
    private static final String UPLINK = "device:leaf1/3->device:spine1/1";
    private static final long SWITCH_BYTES_PER_PERIOD = 3_000_000;

    /** The uplink's receiving port (spine1/1): its rx counter is the uplink's switch load. */
    private static void counters(MonitorDriver m, int k) {
        ObjectNode stats = DocExamples.example("ff.ctl.portstats.v1");
        stats.put("device", "device:spine1").put("seq", k + 1).put("ts_ms", T0 + k * 1000L);
        ObjectNode port = (ObjectNode) stats.get("ports").get(0);
        port.put("port", 1).put("rx_bytes", port.get("rx_bytes").asLong() + SWITCH_BYTES_PER_PERIOD * k);
        m.pipe(m.topics.portStats, "device:spine1", Json.write(stats), T0 + k * 1000L);
    }

    /** The uplink's frames: IP bytes + Ethernet header 14 + VLAN tag 4 + fabric header 20 per packet. */
    private static double uplinkShimBps(int k) {
        return (ipBytes(k) + 1000 * (18 + 20)) * 8.0;
    }

    /** The receiver's report of period k (T0 + k s .. T0 + (k + 1) s), with ip_bytes distinct per period. */
    private static void pathBytes(MonitorDriver m, int k) {
        ObjectNode v = DocExamples.example("ff.shim.pathbytes.v1");
        v.put("seq", 1 + k).put("period_start_ms", T0 + k * 1000L);
        ((ObjectNode) v.get("entries").get(0)).put("ip_bytes", ipBytes(k)).put("packets", 1000);
        m.pipe(m.topics.shimPathBytes, "h2", Json.write(v), T0 + (k + 1) * 1000L);
    }

    private static long ipBytes(int k) {
        return 1_000_000L + 1000L * k;
    }

    /** period index → the uplink's closed-period record. */
    private static Map<Integer, JsonNode> uplinkPeriods(MonitorDriver m) {
        Map<Integer, JsonNode> periods = new TreeMap<>();
        for (MonitorDriver.Out o : m.read(m.topics.links)) {
            if (o.key().equals(UPLINK) && o.value().get("update").asText().equals("period")) {
                int k = (int) ((o.value().get("period_start_ms").asLong() - T0) / 1000);
                assertTrue(periods.put(k, o.value()) == null, "period " + k + " published once");
            }
        }
        return periods;
    }

    /** Counters of periods 0..4 (timestamps T0..T0+5s) before the shim report of period 0, then both in step. */
    private static void coldStart(MonitorDriver m) {
        for (int k = 0; k <= 5; k++) {
            counters(m, k);
        }
        for (int k = 0; k <= 4; k++) {
            pathBytes(m, k);
        }
        for (int k = 6; k <= 10; k++) {
            counters(m, k);
            pathBytes(m, k - 1);
        }
    }

    @Test
    void countersOfSeveralPeriodsBeforeTheFirstShimReportLoseNoPeriod() throws Exception {
        try (MonitorDriver m = new MonitorDriver(MonitorSettings.DEFAULTS)) {
            m.loadCatalog();
            coldStart(m);
            assertEquals(List.of(), m.read(m.topics.rejected), "nothing late");
            Map<Integer, JsonNode> periods = uplinkPeriods(m);
            // both inputs at T0+10s: periods up to T0+7s end by T0+8.5s (grace 1.5 s)
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), List.copyOf(periods.keySet()));
            for (Map.Entry<Integer, JsonNode> p : periods.entrySet()) {
                int k = p.getKey();
                assertEquals(uplinkShimBps(k), p.getValue().get("load_bps_shim").asDouble(), 1e-6, "period " + k);
                assertEquals(SWITCH_BYTES_PER_PERIOD * 8.0, p.getValue().get("load_bps_switch").asDouble(), 1e-6, "period " + k);
            }
        }
    }

    @Test
    void withoutTheInputWatermarkTheSameInputLosesTheFirstPeriods() throws Exception {
        try (MonitorDriver m = new MonitorDriver(MonitorTopologyTest.WITHOUT_INPUT_LAG)) {
            m.loadCatalog();
            coldStart(m);
            List<MonitorDriver.Out> rejected = m.read(m.topics.rejected);
            assertTrue(rejected.stream().anyMatch(r -> r.value().get("reason").asText().equals("late")),
                    "the old clock (fastest input) rejects the first shim reports: " + rejected);
        }
    }

    @Test
    void anInputThatStopsHoldsTheViewBackForTheInputLagOnlyAndIsLateWhenItReturns() throws Exception {
        try (MonitorDriver m = new MonitorDriver(MonitorSettings.DEFAULTS)) {
            m.loadCatalog();
            for (int k = 0; k <= 2; k++) {
                counters(m, k);
                pathBytes(m, k);
            }
            counters(m, 3);
            // the shim stops at T0+3s; the counters go on to T0+12s
            for (int k = 4; k <= 12; k++) {
                counters(m, k);
            }
            assertEquals(List.of(), m.read(m.topics.rejected));
            Map<Integer, JsonNode> periods = uplinkPeriods(m);
            // the shim is left out once the counters are more than 5 s ahead: clock T0+12s closes up to T0+9s
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), List.copyOf(periods.keySet()));
            assertEquals(uplinkShimBps(2), periods.get(2).get("load_bps_shim").asDouble(), 1e-6);
            assertEquals(0.0, periods.get(5).get("load_bps_shim").asDouble(), "no shim report of period 5");
            pathBytes(m, 3);
            List<MonitorDriver.Out> rejected = m.read(m.topics.rejected);
            assertEquals(List.of(UPLINK), rejected.stream().map(MonitorDriver.Out::key).filter(UPLINK::equals).toList());
            assertTrue(rejected.stream().allMatch(r -> r.value().get("reason").asText().equals("late")), rejected.toString());
        }
    }
}
