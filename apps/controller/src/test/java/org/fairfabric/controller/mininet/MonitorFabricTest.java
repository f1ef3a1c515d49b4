package org.fairfabric.controller.mininet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.fairfabric.monitor.Monitor;
import org.fairfabric.monitor.MonitorOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live chain of issue 15 on the k=4 fat-tree: host shims on two hosts of one tenant in
 * different pods, the controller (port-stats poller, catalog, view reader) and a monitor instance
 * on the broker of ./fairfabric test. iperf3 UDP at a constant rate from cmh1 to cmh16:
 * the session appears in the view within two periods of the traffic's start (event time), every
 * link on its paths has n_e = 1 and a load Λ_e, from the shim's bytes and from the switch counters,
 * within 2 % of the rate iperf3 carried over the same window; the controller allocated the
 * detected session with no REST call; after the traffic the session goes inactive within the
 * liveness timeout.
 */
@Tag("mininet")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MonitorFabricTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double LINK_MBIT = 10;
    /** iperf3's UDP payload per datagram; on the wire each is a frame of payload + 42 bytes (UDP 8, IPv4 20, Ethernet 14). */
    private static final int PAYLOAD = 1400;
    private static final double FRAME_FACTOR = (PAYLOAD + 42.0) / PAYLOAD;
    private static final int SECONDS = 20;
    private static final long PERIOD_MS = 1000;
    private static final long LIVENESS_MS = 30_000;
    private static final String SRC = "cmh1";
    private static final String DST = "cmh16";

    @TempDir
    static Path work;
    private MininetFabric fabric;
    private FabricController ctl;
    private KafkaStreams monitor;
    private final List<Process> shims = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        MonitorKafka.resetDefaultTopics(MininetRequirements.kafka());
        monitor = Monitor.start(MonitorOptions.parse(new String[] {"--kafka", MininetRequirements.kafka(),
            "--state-dir", work.resolve("monitor").toString()}, Map.of()));
        fabric = MininetFabric.start("fattree", "cm", LINK_MBIT, work.resolve("fabric"));
        markShimHosts(List.of(SRC, DST));
        ctl = FabricController.start(fabric, work.resolve("controller"));
        assertEquals(201, ctl.send("POST", "/tenants", "{\"id\":\"mon\",\"name\":\"Tenant mon\",\"weight\":1}").status);
        for (String h : List.of(SRC, DST)) {
            JsonNode host = fabric.host(h);
            String body = JSON.createObjectNode().put("id", h).put("ip", host.path("ip").asText())
                    .put("mac", host.path("mac").asText()).set("location", JSON.createObjectNode()
                            .put("device", "device:" + host.path("switch").asText()).put("port", host.path("port").asInt()))
                    .toString();
            assertEquals(201, ctl.send("POST", "/tenants/mon/hosts", body).status, "adding " + h);
            shims.add(startShim(h, host));
        }
        // no warm-up traffic (a ping would be a session of its own); the controller publishes the
        // catalog (the pair's paths) 200 ms after the hosts changed: give it and the monitor's
        // global store time to have it before the traffic starts
        Thread.sleep(5000);
    }

    /** The controller pins paths (VLAN tags) only for hosts whose configuration says they run the shim. */
    private void markShimHosts(List<String> names) throws Exception {
        JsonNode cfg = JSON.readTree(fabric.netcfg.toFile());
        for (String name : names) {
            String mac = fabric.host(name).path("mac").asText();
            boolean found = false;
            for (var e : (Iterable<Map.Entry<String, JsonNode>>) cfg.path("hosts")::fields) {
                if (e.getKey().toLowerCase().startsWith(mac.toLowerCase())) {
                    ((com.fasterxml.jackson.databind.node.ObjectNode) e.getValue()).putObject("fairfabric").put("shim", true);
                    found = true;
                }
            }
            assertTrue(found, "no configuration entry for " + name + " (" + mac + ")");
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(fabric.netcfg.toFile(), cfg);
    }

    private Process startShim(String name, JsonNode host) throws Exception {
        Path root = MininetRequirements.repositoryRoot();
        Path state = work.resolve(name + ".addr");
        long pid = host.path("pid").asLong();
        Process p = new ProcessBuilder(root.resolve("bin/host-shim").toString(), "-host", name,
                "-addr", host.path("ip").asText(), "-dev", host.path("intf").asText(),
                "-netns", "/proc/" + pid + "/ns/net", "-proc-net", "/proc/" + pid + "/net",
                "-kafka", MininetRequirements.kafka(), "-mode", "lossless", "-period", "1s",
                "-metrics", "127.0.0.1:0", "-state-file", state.toString())
                .redirectErrorStream(true).redirectOutput(work.resolve(name + "-shim.log").toFile()).start();
        fabric.track(p.pid());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(state) || Files.readString(state).isBlank()) {
            assertTrue(p.isAlive(), "shim " + name + " exited: " + Files.readString(work.resolve(name + "-shim.log")));
            assertTrue(System.nanoTime() < deadline, "shim " + name + " not ready");
            Thread.sleep(100);
        }
        return p;
    }

    @AfterAll
    void stop() throws Exception {
        for (Process p : shims) {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        try {
            if (ctl != null) {
                ctl.close();
            }
        } finally {
            try {
                if (fabric != null) {
                    fabric.close();
                }
            } finally {
                if (monitor != null) {
                    monitor.close(Duration.ofSeconds(30));
                }
            }
        }
    }

    @Test
    void aSessionDetectedFromTrafficIsInTheViewWithItsLoadOnEveryLinkAndIsAllocatedWithoutRest() throws Exception {
        String src = fabric.host(SRC).path("ip").asText();
        String dst = fabric.host(DST).path("ip").asText();
        String pair = src + ">" + dst;
        long before = System.currentTimeMillis();
        CompletableFuture<JsonNode> iperf = CompletableFuture.supplyAsync(() -> fabric.call("iperf3", "src", SRC,
                "dst", DST, "seconds", SECONDS, "udp", true, "bitrate", "6M", "length", PAYLOAD));
        // the driver starts the iperf3 server, waits 0.5 s, then the client
        long trafficStart = before + 500;

        JsonNode session = await(60, "session " + pair + " active in GET /monitor/sessions", () -> {
            for (JsonNode s : ctl.get("/monitor/sessions")) {
                if (s.path("src").asText().equals(src) && s.path("dst").asText().equals(dst)
                        && s.path("state").asText().equals("active")) {
                    return s;
                }
            }
            return null;
        });
        long since = session.path("since_ms").asLong();
        assertTrue(since <= trafficStart + 2 * PERIOD_MS + 500, "active from " + since + ", traffic from " + trafficStart
                + ": not within two periods (+ 0.5 s for iperf3's start)");
        List<String> links = new ArrayList<>();
        session.path("links").forEach(l -> links.add(l.asText()));
        assertFalse(links.isEmpty(), "the session counts on the links of its paths: " + session);

        // n_e reaches the link view one stage after the session view
        await(30, "n_e = 1 on every link of " + links, () -> {
            Map<String, JsonNode> view = new HashMap<>();
            for (JsonNode l : ctl.get("/monitor/links")) {
                view.put(l.path("link").asText(), l);
            }
            for (String link : links) {
                if (!view.containsKey(link) || view.get(link).path("active_sessions").asInt() != 1) {
                    return null;
                }
            }
            return JSON.createObjectNode();
        });

        // while the traffic lasts: the allocation loop allocates the detected session (no REST call)
        JsonNode allocation = null;
        JsonNode lastSeen = null;
        while (!iperf.isDone() && allocation == null) {
            for (JsonNode a : ctl.get("/allocations")) {
                if (a.path("sessionId").asText().equals("detected/" + SRC + "-" + DST)) {
                    lastSeen = a;
                    if (a.path("paths").size() > 0 && a.path("totalBps").asDouble() > 0) {
                        allocation = a;
                    }
                }
            }
            Thread.sleep(250);
        }
        JsonNode result = iperf.get(SECONDS + 120, TimeUnit.SECONDS);
        long trafficEnd = trafficStart + SECONDS * 1000L;
        double carried = result.path("received_bps").asDouble() * FRAME_FACTOR;
        // every period fully inside the traffic, one period off each end (start-up, the last report)
        long first = (trafficStart / PERIOD_MS + 2) * PERIOD_MS;
        long last = (trafficEnd / PERIOD_MS - 2) * PERIOD_MS;
        Map<String, Map<Long, JsonNode>> periods = linkPeriods(last + PERIOD_MS, links);
        for (String link : links) {
            double shim = 0;
            double sw = 0;
            int n = 0;
            for (long p = first; p <= last; p += PERIOD_MS) {
                JsonNode f = periods.get(link).get(p);
                assertTrue(f != null, "no figures of " + link + " for period " + p + ": " + periods.get(link).keySet());
                shim += f.path("load_bps_shim").asDouble();
                assertFalse(f.path("load_bps_switch").isNull(), "no switch figure of " + link + " in period " + p);
                sw += f.path("load_bps_switch").asDouble();
                n++;
            }
            shim /= n;
            sw /= n;
            String what = link + " over " + n + " periods: shim " + shim + ", switch " + sw + " bit/s, iperf3 carried "
                    + carried + " bit/s (" + result + ")";
            assertEquals(carried, shim, 0.02 * carried, "shim bytes: " + what);
            assertEquals(carried, sw, 0.02 * carried, "switch counters: " + what);
        }

        assertTrue(allocation != null, "the detected session allocated on paths while the traffic lasted; last seen: " + lastSeen);

        await(LIVENESS_MS / 1000 + 60, "session " + pair + " inactive after the traffic", () -> {
            for (JsonNode s : ctl.get("/monitor/sessions")) {
                if (s.path("src").asText().equals(src) && s.path("dst").asText().equals(dst)) {
                    return s.path("state").asText().equals("inactive") ? s : null;
                }
            }
            return JSON.createObjectNode(); // removed (a tombstone) counts as gone
        });
    }

    /** The monitor's per-period link figures of {@code links} from ff.mon.links.v1, read until every link has period {@code until}. */
    private Map<String, Map<Long, JsonNode>> linkPeriods(long until, List<String> links) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, MininetRequirements.kafka());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "monitor-fabric-test-" + System.nanoTime());
        Map<String, Map<Long, JsonNode>> out = new HashMap<>();
        links.forEach(l -> out.put(l, new HashMap<>()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of("ff.mon.links.v1"));
            while (true) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    if (r.value() == null || !out.containsKey(r.key())) {
                        continue;
                    }
                    JsonNode v = JSON.readTree(r.value());
                    if (v.path("update").asText().equals("period")) {
                        out.get(r.key()).put(v.path("period_start_ms").asLong(), v);
                    }
                }
                if (out.values().stream().allMatch(m -> m.containsKey(until))) {
                    return out;
                }
                assertTrue(System.nanoTime() < deadline, "the view did not publish period " + until + " of every link: "
                        + out.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().keySet()).toList());
            }
        }
    }

    interface Probe {
        JsonNode get() throws Exception;
    }

    private static JsonNode await(long timeoutS, String what, Probe probe) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (true) {
            JsonNode v = probe.get();
            if (v != null) {
                return v;
            }
            assertTrue(System.nanoTime() < deadline, "no " + what + " within " + timeoutS + " s");
            Thread.sleep(250);
        }
    }
}
