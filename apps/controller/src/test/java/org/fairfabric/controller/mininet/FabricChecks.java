package org.fairfabric.controller.mininet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/** Checks shared by the Mininet fabric tests. */
final class FabricChecks {
    static final Set<String> METRICS = Set.of("hop-delay", "queue-depth", "link-utilisation");

    private FabricChecks() {
    }

    /** Waits (at most timeoutS) for one all-pairs round without loss, then requires one more such round. */
    static void assertAllPairs(MininetFabric fabric, double timeoutS) {
        JsonNode first = fabric.pingAll(timeoutS);
        assertTrue(first.path("failed").isEmpty(), "pairs still unreachable after " + timeoutS + " s: " + first.path("failed"));
        JsonNode again = fabric.call("ping_all");
        assertEquals(0.0, again.path("loss").asDouble(), "all-pairs ping lost packets: " + again.path("failed"));
        assertTrue(again.path("pairs").asInt() > 0);
    }

    /** The routing groups of one switch (device id "device:NAME"). */
    static List<JsonNode> groups(FabricController ctl, String switchName) {
        List<JsonNode> out = new ArrayList<>();
        ctl.get("/routing-groups").forEach(g -> {
            if (g.path("device").asText().equals("device:" + switchName)) {
                out.add(g);
            }
        });
        return out;
    }

    static Set<Integer> ports(JsonNode group) {
        Set<Integer> out = new TreeSet<>();
        group.path("ports").forEach(p -> out.add(p.asInt()));
        return out;
    }

    /** The ports of a switch in any level of one metric's table, sorted (with repeats, if a port were in two levels). */
    static List<Integer> portsOfMetric(FabricController ctl, String switchName, String metric) {
        List<Integer> out = new ArrayList<>();
        for (JsonNode g : groups(ctl, switchName)) {
            if (g.path("metric").asText().equals(metric)) {
                g.path("ports").forEach(p -> out.add(p.asInt()));
            }
        }
        out.sort(null);
        return out;
    }

    /** Level 0 of each metric's table holds all the switch's uplinks (ECMP), for every switch given. */
    static void assertEcmp(FabricController ctl, Map<String, Integer> uplinksBySwitch) {
        for (Map.Entry<String, Integer> sw : uplinksBySwitch.entrySet()) {
            Set<String> metrics = new TreeSet<>();
            for (JsonNode g : groups(ctl, sw.getKey())) {
                if (g.path("level").asInt() == 0) {
                    metrics.add(g.path("metric").asText());
                    assertEquals(sw.getValue(), g.path("ports").size(), sw.getKey() + " level 0: " + g);
                }
            }
            assertEquals(METRICS, metrics, sw.getKey() + ": level 0 of every metric");
        }
    }

    /** Polls the switch's routing groups until they satisfy {@code ok}; returns them. */
    static List<JsonNode> awaitGroups(FabricController ctl, String switchName, Predicate<List<JsonNode>> ok, double timeoutS,
                                      String what) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
        while (true) {
            List<JsonNode> g = groups(ctl, switchName);
            if (ok.test(g)) {
                return g;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " not within " + timeoutS + " s: " + g + "\n" + ctl.logTail());
            }
            Thread.sleep(500);
        }
    }

    /**
     * Requires every one of {@code count} UDP flows (distinct source ports, so spread over the
     * ECMP choices) of each [src, dst] pair to arrive, trying the pairs that lost some again for up
     * to timeoutS: the REST view changes when the controller hands its writes to the switches, a
     * moment before they land.
     */
    static void assertFlowsDelivered(MininetFabric fabric, List<List<String>> pairs, int count, double timeoutS)
            throws InterruptedException {
        long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
        List<List<String>> left = pairs;
        while (true) {
            List<Integer> got = fabric.flowsDelivered(left, count);
            List<List<String>> short_ = new ArrayList<>();
            List<String> report = new ArrayList<>();
            for (int i = 0; i < left.size(); i++) {
                if (got.get(i) != count) {
                    short_.add(left.get(i));
                    report.add(left.get(i).get(0) + " -> " + left.get(i).get(1) + ": " + got.get(i) + " of " + count);
                }
            }
            if (short_.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("flows lost after " + timeoutS + " s: " + report);
            }
            left = short_;
            Thread.sleep(1000);
        }
    }
}
