package org.fairfabric.controller.mininet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fairfabric.controller.rest.HttpJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * One session over 4 paths (issue 16): a k=4 fat-tree whose aggregation-core cables run at a
 * quarter of the other links' rate ({@link #CORE_MBIT} vs {@link #LINK_MBIT}), so that the session
 * from cmh1 (pod 0) to cmh5 (pod 1) needs all four of its paths, one through each core switch: the
 * weighted-PF optimum gives each path {@link #CORE_MBIT}. The shim on cmh1 tags each path's packets
 * with its path id; every switch on a path forwards by that id (its {@code pinned_path} entry).
 * Achieved per path is read from the switches' direct counters of those entries (frame bytes as
 * the pipeline sees them, tag included, as the allocation counts them), over 20 s windows (each switch timed by its own read): at the
 * sender's edge switch within ±5 % of the path's rate, and the same path id counted at the
 * aggregation switch the allocation put the path through (and not at the other one), so the bytes
 * took the pinned path. Greedy traffic: iperf3 with 4 TCP streams in the one session.
 */
class MultipathFabricTest extends FabricTestBase {
    static final double LINK_MBIT = 4;
    static final double CORE_MBIT = 1;
    static final String SENDER = "cmh1";
    static final String RECEIVER = "cmh5";
    static final String PINNED_PATH = "FabricIngress.pinned_path.pinned_path";
    static final double WINDOW_S = 20; // a counter read can take a second at load 40: longer windows, smaller error
    static final int WINDOWS = 3;
    static final double TOLERANCE = 0.05;

    int clientJob = -1;

    @Override
    String topology() {
        return "fattree";
    }

    @Override
    double linkMbit() {
        return LINK_MBIT;
    }

    @Override
    String prefix() {
        return "cm";
    }

    @Override
    boolean shims() {
        return true;
    }

    @Override
    List<String> driverArgs() {
        return List.of("--core-bw", Double.toString(CORE_MBIT));
    }

    static String switchName(String deviceId) {
        return deviceId.startsWith("device:") ? deviceId.substring("device:".length()) : deviceId;
    }

    @Test
    @Order(1)
    void oneSessionOverFourPathsCarriesEachPathsRateOnItsPinnedPath() throws Exception {
        assertEquals(201, ctl.send("POST", "/tenants", "{\"id\":\"indigo\",\"name\":\"Tenant indigo\",\"weight\":1}").status);
        for (String h : List.of(SENDER, RECEIVER)) {
            HttpJson.Answer a = ctl.send("POST", "/tenants/indigo/hosts", RestRoundTrip.hostJson(h, fabric.host(h)));
            assertEquals(201, a.status, h + ": " + a);
        }
        HttpJson.Answer s = ctl.send("POST", "/sessions", "{\"srcHost\":\"" + SENDER + "\",\"dstHost\":\"" + RECEIVER + "\"}");
        assertEquals(201, s.status, s.toString());
        String session = s.json().path("id").asText();

        // path id -> [rate, aggregation switch]
        Map<Integer, Double> rate = new TreeMap<>();
        Map<Integer, String> agg = new TreeMap<>();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (rate.size() < 4) {
            rate.clear();
            agg.clear();
            for (JsonNode a : ctl.get("/allocations")) {
                if (!a.path("sessionId").asText().equals(session)) {
                    continue;
                }
                for (JsonNode p : a.path("paths")) {
                    if (p.path("rateBps").asDouble() > 0.5 * CORE_MBIT * 1e6) {
                        rate.put(p.path("pathId").asInt(), p.path("rateBps").asDouble());
                        for (JsonNode d : p.path("devices")) { // the sending pod's aggregation switch: the first on the path
                            if ("aggregation".equals(fabric.role(switchName(d.asText())))) {
                                agg.putIfAbsent(p.path("pathId").asInt(), switchName(d.asText()));
                            }
                        }
                    }
                }
            }
            assertTrue(System.nanoTime() < deadline, "no allocation over 4 paths within 60 s: " + ctl.get("/allocations"));
            Thread.sleep(200);
        }
        for (Map.Entry<Integer, Double> e : rate.entrySet()) {
            assertEquals(CORE_MBIT * 1e6, e.getValue(), CORE_MBIT * 1e6 * 1e-3, "path " + e.getKey() + "'s rate (the optimum)");
        }
        assertEquals(2, new java.util.HashSet<>(agg.values()).size(), "two paths through each aggregation switch: " + agg);
        awaitShimPaths(rate.keySet(), 30);

        fabric.iperf3Server(RECEIVER, null, 5401);
        clientJob = fabric.call("bg", "host", SENDER, "argv", List.of("iperf3", "-c", fabric.host(RECEIVER).path("ip").asText(),
                "-p", "5401", "-P", "4", "-t", "600")).path("job").asInt(); // stopped at the end
        Thread.sleep(8000); // TCP's start

        String edge = fabric.host(SENDER).path("switch").asText();
        List<String> aggs = new ArrayList<>(new java.util.TreeSet<>(agg.values()));
        String last = "";
        countersAt(edge, aggs, new TreeMap<>()); // the first read opens the channels and loads classes: not in a window
        for (int w = 1; w <= WINDOWS; w++) {
            Map<String, Double> t0 = new TreeMap<>();
            Map<String, Map<Long, long[]>> before = countersAt(edge, aggs, t0);
            Thread.sleep((long) (WINDOW_S * 1000));
            Map<String, Double> t1 = new TreeMap<>();
            Map<String, Map<Long, long[]>> after = countersAt(edge, aggs, t1);
            double dt = t1.get(edge) - t0.get(edge);
            StringBuilder line = new StringBuilder();
            boolean ok = true;
            for (Map.Entry<Integer, Double> e : rate.entrySet()) {
                long vid = e.getKey();
                double atEdge = bytes(after, before, edge, vid) * 8 / dt;
                String on = agg.get(e.getKey());
                double onPath = bytes(after, before, on, vid) * 8 / (t1.get(on) - t0.get(on));
                String other = aggs.get(0).equals(on) ? aggs.get(1) : aggs.get(0);
                double offPath = bytes(after, before, other, vid) * 8 / (t1.get(other) - t0.get(other));
                double err = (atEdge - e.getValue()) / e.getValue();
                ok &= Math.abs(err) <= TOLERANCE && Math.abs(onPath - atEdge) <= TOLERANCE * e.getValue() && offPath == 0;
                line.append(String.format(" path %d via %s %.3f/%.3f Mbit/s (%+.1f %%, %s %.3f, %s %.3f)", vid, agg.get(e.getKey()),
                        atEdge / 1e6, e.getValue() / 1e6, 100 * err, agg.get(e.getKey()), onPath / 1e6, other, offPath / 1e6));
            }
            last = line.toString();
            System.out.printf("[mininet] one session over 4 paths, %.0f/%.0f Mbit/s links, window %d of %.0f s, achieved/allocated"
                    + " per path (pinned_path counters):%s (load %s)%n", LINK_MBIT, CORE_MBIT, w, WINDOW_S, last, loadAverage());
            if (ok) {
                return;
            }
        }
        throw new AssertionError("no " + WINDOW_S + " s window in " + WINDOWS + " with every path within ±5 % of its rate on its"
                + " pinned path; last:" + last);
    }

    /**
     * The switches' pinned_path counters; {@code at} gets each switch's read time (s, the middle of
     * its Read RPC), so each switch's rate uses its own interval: on a loaded machine one read
     * can take a second or more.
     */
    private Map<String, Map<Long, long[]>> countersAt(String edge, List<String> aggs, Map<String, Double> at) throws Exception {
        Map<String, Map<Long, long[]>> out = new TreeMap<>();
        List<String> all = new ArrayList<>(List.of(edge));
        all.addAll(aggs);
        for (String sw : all) {
            long a = System.nanoTime();
            out.put(sw, DirectCounters.read(fabric, sw, PINNED_PATH));
            at.put(sw, (a + System.nanoTime()) / 2e9);
        }
        return out;
    }

    private static double bytes(Map<String, Map<Long, long[]>> after, Map<String, Map<Long, long[]>> before, String sw, long vid) {
        long[] a = after.get(sw).get(vid);
        long[] b = before.get(sw).get(vid);
        return a == null || b == null ? 0 : a[1] - b[1];
    }

    /** Waits until the sender's shim has every path of the allocation in force (its /rates). */
    private void awaitShimPaths(java.util.Set<Integer> paths, double timeoutS) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
        while (true) {
            java.util.Set<Integer> inForce = new java.util.TreeSet<>();
            for (JsonNode s : fabric.call("shim", "host", SENDER, "path", "/rates").path("body").path("sessions")) {
                s.path("paths").forEach(p -> inForce.add(p.path("id").asInt()));
            }
            if (inForce.equals(paths)) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the shim on " + SENDER + " has paths " + inForce + ", not " + paths);
            Thread.sleep(200);
        }
    }

    @AfterAll
    void stopTraffic() {
        if (clientJob >= 0) {
            fabric.tryCall("bg_wait", "job", clientJob, "timeout", 1);
        }
    }
}
