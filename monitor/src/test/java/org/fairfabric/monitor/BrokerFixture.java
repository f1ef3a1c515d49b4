package org.fairfabric.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.fairfabric.monitor.stream.Json;

/**
 * The real broker ($FAIRFABRIC_KAFKA) under a random topic suffix, monitor instances as child
 * JVMs (so that a test can kill -9 them), and a deterministic input: period k has the
 * receiver h2's path bytes and device:leaf1's counters. Every topic of the suffix, the
 * monitor's internal and changelog topics included, is deleted on close.
 */
final class BrokerFixture implements AutoCloseable {
    /**
     * The event time of period 0: now, on a period boundary. Not a fixed date: the broker deletes
     * records whose timestamps are older than its retention (24 h) at its first retention check,
     * 30 s after it starts, then every 5 min, which silently removed the first periods' inputs and
     * outputs in the middle of a run.
     */
    static final long T0 = System.currentTimeMillis() / 1000 * 1000;
    /**
     * The tests produce a period every {@link #PACE_MS} of wall-clock time, ten times faster than
     * event time, so the grace (event time) covers a skew of GRACE_MS / 10 between the inputs.
     */
    static final long GRACE_MS = 4000;
    /** How far (event time) one input may lag the other: 1 s of wall-clock time at this pace. */
    static final long INPUT_LAG_MS = 10000;
    static final long PACE_MS = 100;
    /** The last period closed once period {@code n - 1} was produced. */
    static int lastClosed(int produced) {
        return produced - 1 - (int) (GRACE_MS / 1000) - 1;
    }
    static final String UPLINK = "device:leaf1/3->device:spine1/1";

    final String bootstrap = KafkaSettings.bootstrapServers(System.getenv());
    final String suffix = ".test-" + UUID.randomUUID().toString().substring(0, 8);
    final Topics topics = new Topics(suffix);
    final Admin admin;
    final KafkaProducer<String, String> producer;
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();

    BrokerFixture() throws Exception {
        Properties a = new Properties();
        a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        admin = Admin.create(a);
        MonitorTopics.ensure(admin, topics, 2);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        for (String[] kv : DocExamples.keyed("ff.ctl.catalog.v1")) {
            producer.send(new ProducerRecord<>(topics.catalog, kv[0], kv[1])).get();
        }
    }

    /** The receiver's ip_bytes in period k: distinct per period, so a lost or doubled period shows. */
    static long ipBytes(int k) {
        return 2_000_000L + 1000L * k;
    }

    /** The uplink's shim load: IP bytes + Ethernet 14 + VLAN 4 + fabric header 20 per packet (a link between switches). */
    static double expectedShimBps(int k) {
        return (ipBytes(k) + 2000L * (18 + 20)) * 8.0;
    }

    void producePeriod(int k) throws Exception {
        ObjectNode pb = DocExamples.example("ff.shim.pathbytes.v1");
        pb.put("seq", k + 1).put("period_start_ms", T0 + k * 1000L);
        ((ObjectNode) pb.get("entries").get(0)).put("ip_bytes", ipBytes(k)).put("packets", 2000);
        long end = T0 + (k + 1) * 1000L;
        // synchronous: a shim report must not reach the broker after the next periods' counters
        producer.send(new ProducerRecord<>(topics.shimPathBytes, null, end, "h2", Json.write(pb))).get();
        // the uplink's receiving port, spine1/1: its rx counter is the uplink's switch load
        ObjectNode ps = DocExamples.example("ff.ctl.portstats.v1");
        ps.put("device", "device:spine1").put("seq", k + 1).put("ts_ms", end);
        ((ObjectNode) ps.get("ports").get(0)).put("port", 1).put("rx_bytes", 1_000_000L + 3_000_000L * k);
        producer.send(new ProducerRecord<>(topics.portStats, null, end, "device:spine1", Json.write(ps))).get();
        Thread.sleep(PACE_MS);
    }

    /** Starts a monitor instance in a child JVM. */
    Process startMonitor(int instance, Path stateDir) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "org.fairfabric.monitor.Monitor", "--kafka", bootstrap, "--instance-id", Integer.toString(instance),
                "--topic-suffix", suffix, "--partitions", "2", "--state-dir", stateDir.toString(),
                "--grace-ms", Long.toString(GRACE_MS), "--input-lag-ms", Long.toString(INPUT_LAG_MS));
        Path logs = Path.of("target", "monitor-logs");
        Files.createDirectories(logs);
        Path log = logs.resolve(suffix.substring(1) + "-" + instance + "-" + System.nanoTime() + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (!Files.readString(log).contains("-> RUNNING")) {
            if (System.nanoTime() > deadline || !p.isAlive()) {
                throw new AssertionError("monitor " + instance + " did not reach RUNNING; log " + log);
            }
            Thread.sleep(200);
        }
        return p;
    }

    Path tempDir() throws Exception {
        Path d = Files.createTempDirectory("monitor-state");
        dirs.add(d);
        return d;
    }

    /** kill -9. */
    static void kill(Process p) throws Exception {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    /** Every committed record of a topic so far (read_committed, from the start). */
    List<ConsumerRecord<String, String>> readAll(String topic) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            var end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline
                    && parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    /** The closed periods (index k) of the uplink in ff.mon.links, one entry per record. */
    List<JsonNode> uplinkPeriods() {
        return linkPeriods(UPLINK);
    }

    List<JsonNode> linkPeriods(String link) {
        List<JsonNode> out = new ArrayList<>();
        for (ConsumerRecord<String, String> r : readAll(topics.links)) {
            if (link.equals(r.key()) && r.value() != null) {
                ObjectNode v = (ObjectNode) Json.parseObject(r.value());
                v.put("_offset", r.partition() + "@" + r.offset());
                if (v.get("update").asText().equals("period")) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    static int periodIndex(JsonNode link) {
        return (int) ((link.get("period_start_ms").asLong() - T0) / 1000);
    }

    static final List<String> PATH = List.of("h1/0->device:leaf1/1", UPLINK, "device:spine1/2->device:leaf2/3",
            "device:leaf2/1->h2/0");

    /** Waits until period {@code k} of every link of the path is in the view. */
    /**
     * Waits until period k is out for every link of the path and for every tenant with records: the
     * stages run in tasks of their own, so the links' view can be ahead of the tenants' (a failover
     * test that compared right after the links' last period missed the tenants' last 14).
     */
    void awaitPeriod(int k, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (PATH.stream().allMatch(link -> linkPeriods(link).stream().anyMatch(l -> periodIndex(l) >= k))
                    && tenantsReached(k)) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("period " + k + " did not appear in " + topics.links + " and " + topics.tenants
                + " within " + timeout);
    }

    private boolean tenantsReached(int k) {
        Map<String, Integer> last = new HashMap<>();
        for (ConsumerRecord<String, String> r : readAll(topics.tenants)) {
            if (r.value() != null) {
                JsonNode v = Json.parseObject(r.value());
                if (v.hasNonNull("period_start_ms")) {
                    last.merge(r.key(), periodIndex(v), Math::max);
                }
            }
        }
        return !last.isEmpty() && last.values().stream().allMatch(p -> p >= k);
    }

    @Override
    public void close() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        producer.close();
        Set<String> mine = admin.listTopics().names().get().stream()
                .filter(t -> t.endsWith(suffix) || t.startsWith("fairfabric-monitor" + suffix + "-"))
                .collect(Collectors.toSet());
        admin.deleteTopics(mine).all().get();
        admin.close();
        for (Path d : dirs) {
            if (Files.isDirectory(d)) {
                try (var walk = Files.walk(d)) {
                    walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            } else {
                Files.deleteIfExists(d);
            }
        }
    }
}
