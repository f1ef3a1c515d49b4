package org.fairfabric.monitor.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.fairfabric.monitor.Monitor;
import org.fairfabric.monitor.MonitorOptions;
import org.fairfabric.monitor.Topics;

/**
 * {@code ./fairfabric bench monitor}: end-to-end lag (report produced → session view record
 * readable, read_committed) of one monitor instance at several input rates, beside a plain
 * KafkaConsumer→KafkaProducer pass-through of the same records measured in the same run.
 * Every record is a sender's session report that flips its session's state, so each one makes
 * exactly one view record.
 *
 * <p>{@code --variant LABEL=OPTIONS} (repeatable) measures the monitor with extra command-line
 * options too (e.g. {@code p1=--partitions 1}); each rate runs every variant one after the other,
 * so the variants share the machine's load of that moment. The default is the monitor's defaults only.
 */
public final class MonitorBench {
    private static final int PAIRS = 1000;
    private static final int WARM_UP_RUNS = 2;

    public static void main(String[] args) throws Exception {
        String bootstrap = System.getenv().getOrDefault("FAIRFABRIC_KAFKA", "127.0.0.1:9092");
        int seconds = 8;
        List<Integer> rates = List.of(1000, 10000, 50000);
        Map<String, List<String>> variants = new java.util.LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--kafka" -> bootstrap = args[i + 1];
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--rates" -> rates = List.of(args[i + 1].split(",")).stream().map(Integer::parseInt).toList();
                case "--variant" -> {
                    String v = args[i + 1];
                    int eq = v.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--variant LABEL=OPTIONS, not '" + v + "'");
                    }
                    List<String> opts = v.substring(eq + 1).isBlank() ? List.of() : List.of(v.substring(eq + 1).trim().split("\\s+"));
                    MonitorOptions.parse(opts.toArray(String[]::new), Map.of("FAIRFABRIC_KAFKA", bootstrap)); // fails early on a bad option
                    variants.put(v.substring(0, eq), opts);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (variants.isEmpty()) {
            variants.put("default", List.of());
        }
        System.out.printf("monitor bench: %d s per rate, %d sessions, broker %s, load average %s%n", seconds, PAIRS,
                bootstrap, Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.printf("%-10s %8s %10s | %-22s | %-22s | %s%n", "variant", "rate/s", "achieved/s", "monitor p50/p99 ms",
                "pass-through p50/p99 ms", "view records, memory");
        // two runs of the first variant at 10k records/s (or the highest rate below), not counted: the
        // first two runs of any variant were slower by one to two orders of magnitude than the runs
        // after them, whichever variant ran first (broker and JIT warm-up; docs/monitor.md)
        Map.Entry<String, List<String>> first = variants.entrySet().iterator().next();
        int warmRate = rates.stream().filter(r -> r <= 10000).max(Integer::compare).orElse(rates.get(0));
        for (int i = 0; i < WARM_UP_RUNS; i++) {
            Result w = run(bootstrap, warmRate, seconds, first.getValue());
            System.out.printf("%-10s %8d %10.0f | %8.1f / %-11.1f | %8.1f / %-11.1f | warm-up, not counted%n", "(" + first.getKey() + ")",
                    warmRate, w.achieved, w.monitor[0], w.monitor[1], w.passThrough[0], w.passThrough[1]);
        }
        Map<String, Integer> sustained = new java.util.LinkedHashMap<>();
        for (int rate : rates) {
            for (Map.Entry<String, List<String>> v : variants.entrySet()) {
                Result r = run(bootstrap, rate, seconds, v.getValue());
                System.out.printf("%-10s %8d %10.0f | %8.1f / %-11.1f | %8.1f / %-11.1f | %d/%d in time, heap %d MB, rss %d MB, load %s%n",
                        v.getKey(), rate, r.achieved, r.monitor[0], r.monitor[1], r.passThrough[0], r.passThrough[1],
                        r.outputs, r.inputs, r.heapMb, r.rssMb, Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0]);
                sustained.putIfAbsent(v.getKey(), 0);
                if (r.outputs == r.inputs && r.achieved >= 0.95 * rate) {
                    sustained.put(v.getKey(), rate);
                }
            }
        }
        System.out.printf("highest sustained rate (every view record within 10 s of the end, input rate reached), records/s: %s; load average %s%n",
                sustained, Files.readString(Path.of("/proc/loadavg")).trim());
        System.exit(0);
    }

    record Result(double achieved, double[] monitor, double[] passThrough, long outputs, long inputs, long heapMb, long rssMb) {
    }

    static Result run(String bootstrap, int rate, int seconds, List<String> extraOptions) throws Exception {
        String suffix = ".bench-" + UUID.randomUUID().toString().substring(0, 8);
        Topics topics = new Topics(suffix);
        String passOut = "ff.bench.passthrough" + suffix;
        Path state = Files.createTempDirectory("monitor-bench");
        Properties ap = new Properties();
        ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(ap)) {
            admin.createTopics(List.of(new NewTopic(passOut, 1, (short) 1))).all().get();
            List<String> args = new ArrayList<>(List.of("--kafka", bootstrap, "--topic-suffix", suffix,
                    "--state-dir", state.toString()));
            args.addAll(extraOptions);
            MonitorOptions o = MonitorOptions.parse(args.toArray(String[]::new), Map.of());
            KafkaStreams streams = Monitor.start(o);
            AtomicBoolean running = new AtomicBoolean(true);
            Thread pass = new Thread(() -> passThrough(bootstrap, topics.shimSessions, passOut, running));
            pass.start();
            List<Long> monLags = Collections.synchronizedList(new ArrayList<>());
            List<Long> passLags = Collections.synchronizedList(new ArrayList<>());
            Thread m1 = new Thread(() -> measure(bootstrap, topics.sessions, "last_report_ms", monLags, running));
            Thread m2 = new Thread(() -> measure(bootstrap, passOut, "ts_ms", passLags, running));
            m1.start();
            m2.start();
            while (streams.state() != KafkaStreams.State.RUNNING) {
                Thread.sleep(100);
            }
            Thread.sleep(3000); // consumers assigned
            Properties pp = new Properties();
            pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            pp.put(ProducerConfig.LINGER_MS_CONFIG, 2);
            pp.put(ProducerConfig.ACKS_CONFIG, "all");
            long[] seq = new long[PAIRS];
            long n = 0;
            long start;
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
                // Warm-up: one report per session, measured from when both paths have delivered all of
                // them, so that start-up (task assignment, state stores, first transactions) is not counted.
                for (int p = 0; p < PAIRS; p++) {
                    producer.send(report(topics, p, ++seq[p]));
                }
                producer.flush();
                long warm = System.nanoTime() + 60_000_000_000L;
                while (System.nanoTime() < warm && (monLags.size() < PAIRS || passLags.size() < PAIRS)) {
                    Thread.sleep(100);
                }
                monLags.clear();
                passLags.clear();
                start = System.nanoTime();
                long end = start + seconds * 1_000_000_000L;
                while (System.nanoTime() < end) {
                    long due = (System.nanoTime() - start) * rate / 1_000_000_000L;
                    while (n < due) {
                        int p = (int) (n % PAIRS);
                        producer.send(report(topics, p, ++seq[p]));
                        n++;
                    }
                    Thread.sleep(1);
                }
            }
            double achieved = n / ((System.nanoTime() - start) / 1e9);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline && (monLags.size() < n || passLags.size() < n)) {
                Thread.sleep(200);
            }
            running.set(false);
            m1.join();
            m2.join();
            pass.join();
            long heap = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20;
            System.out.println("    stream threads: " + threadTimes(streams));
            long rss = rssMb();
            streams.close(Duration.ofSeconds(30));
            streams.cleanUp();
            Set<String> mine = admin.listTopics().names().get().stream()
                    .filter(t -> t.endsWith(suffix) || t.startsWith("fairfabric-monitor" + suffix + "-"))
                    .collect(Collectors.toSet());
            admin.deleteTopics(mine).all().get();
            return new Result(achieved, percentiles(monLags), percentiles(passLags), monLags.size(), n, heap, rss);
        }
    }

    /** A sender's session report that flips session {@code p}'s state, so each one makes exactly one view record. */
    static ProducerRecord<String, String> report(Topics topics, int p, long seq) {
        String host = "b" + (p / 250);
        String session = "s" + p;
        String value = "{\"schema\":1,\"host\":\"" + host + "\",\"seq\":" + seq + ",\"ts_ms\":"
                + System.currentTimeMillis() + ",\"session\":\"" + session + "\",\"tenant\":\"tb\",\"src\":\"10.1."
                + (p / 250) + "." + (p % 250) + "\",\"dst\":\"10.2.0.1\",\"state\":\""
                + (seq % 2 == 1 ? "active" : "inactive") + "\",\"reason\":\"transition\"}";
        return new ProducerRecord<>(topics.shimSessions, host + "/" + session, value);
    }

    static void passThrough(String bootstrap, String in, String out, AtomicBoolean running) {
        Properties c = consumerProps(bootstrap, "read_uncommitted");
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 2);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
             KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            consumer.subscribe(List.of(in));
            while (running.get()) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                    producer.send(new ProducerRecord<>(out, r.key(), r.value()));
                }
            }
        }
    }

    static void measure(String bootstrap, String topic, String field, List<Long> lags, AtomicBoolean running) {
        String needle = "\"" + field + "\":";
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps(bootstrap, "read_committed"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            while (running.get()) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.currentTimeMillis();
                    int i = r.value() == null ? -1 : r.value().indexOf(needle);
                    if (i >= 0) {
                        int j = i + needle.length();
                        int k = j;
                        while (k < r.value().length() && Character.isDigit(r.value().charAt(k))) {
                            k++;
                        }
                        if (k > j) {
                            lags.add(now - Long.parseLong(r.value().substring(j, k)));
                        }
                    }
                }
            }
        }
    }

    /**
     * Where each stream thread's time went during the run (Kafka Streams' thread metrics): the share
     * of its time in poll, process, commit and punctuate, the commit rate and mean commit latency.
     */
    static String threadTimes(KafkaStreams streams) {
        Map<String, Map<String, Object>> byThread = new java.util.TreeMap<>();
        streams.metrics().forEach((name, metric) -> {
            if (name.group().equals("stream-thread-metrics") && Set.of("poll-ratio", "process-ratio", "commit-ratio",
                    "punctuate-ratio", "commit-rate", "commit-latency-avg", "process-rate").contains(name.name())) {
                String thread = name.tags().getOrDefault("thread-id", "?");
                byThread.computeIfAbsent(thread.substring(thread.lastIndexOf('-') + 1), t -> new java.util.TreeMap<>())
                        .put(name.name(), metric.metricValue());
            }
        });
        StringBuilder b = new StringBuilder();
        byThread.forEach((t, m) -> b.append(String.format("[%s poll %.2f process %.2f commit %.2f punctuate %.2f; %.1f commits/s of %.1f ms, %.0f records/s] ",
                t, num(m.get("poll-ratio")), num(m.get("process-ratio")), num(m.get("commit-ratio")), num(m.get("punctuate-ratio")),
                num(m.get("commit-rate")), num(m.get("commit-latency-avg")), num(m.get("process-rate")))));
        return b.toString().trim();
    }

    private static double num(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    static Properties consumerProps(String bootstrap, String isolation) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20); // as the monitor's own consumers
        return c;
    }

    static double[] percentiles(List<Long> lags) {
        if (lags.isEmpty()) {
            return new double[] {Double.NaN, Double.NaN};
        }
        List<Long> s = new ArrayList<>(lags);
        Collections.sort(s);
        return new double[] {s.get(s.size() / 2), s.get(Math.min(s.size() - 1, (int) Math.ceil(s.size() * 0.99) - 1))};
    }

    static long rssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (Exception e) {
            // below
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
    }

    private MonitorBench() {
    }
}
