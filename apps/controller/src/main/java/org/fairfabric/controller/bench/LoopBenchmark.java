package org.fairfabric.controller.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.alloc.AllocationComponent;
import org.fairfabric.controller.alloc.AllocationInputs;
import org.fairfabric.controller.alloc.AllocationListener;
import org.fairfabric.controller.alloc.AllocationLoop;
import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.controller.alloc.KafkaRatesSink;
import org.fairfabric.controller.alloc.RatesPublisher;
import org.fairfabric.controller.alloc.RatesSink;
import org.fairfabric.controller.alloc.Scheduler;
import org.fairfabric.controller.alloc.SessionAllocation;
import org.fairfabric.controller.alloc.SolveGate;
import org.fairfabric.controller.kafka.KafkaClients;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.core.allocator.ExactAllocator;

/**
 * {@code ./fairfabric bench loop} (in-process half): the controller's allocation loop as it runs
 * in the controller — {@link AllocationLoop} with the controller's quiet period, maximum delay and
 * tolerance, {@link org.fairfabric.controller.alloc.ProblemAdapter} over a k-ary fat-tree network
 * configuration (every host runs a shim), {@link RatesPublisher} and the Kafka rates sink — with
 * {@code sessions} sessions in force. Then {@code arrivals} sessions arrive one at a time; each
 * arrival's latency is the time from the change to the moment a Kafka consumer (the shims' side of
 * the topic) holds every rates table of the first allocation with it in force (the interim one,
 * when the loop makes one: the newcomer's table and every other that changed). The exact solves
 * run meanwhile; after the last arrival the run waits for an exact allocation with it, and prints
 * how long after each arrival the first exact allocation with it was in force. Baseline in the same
 * run: a table-sized record produced and consumed on the same topic by the same clients (Kafka
 * alone).
 *
 * <p>usage: LoopBenchmark --kafka BOOTSTRAP [--k 16] [--sessions 10000] [--arrivals 20] [--seed 1] [--tolerance T] [--exact-wait S]
 * ({@code --tolerance}: another certified gap than the controller's, to compare settings;
 * {@code --exact-wait}: seconds to wait for the last arrival's exact allocation, 0 to end after the arrivals)
 */
public final class LoopBenchmark {
    private static final String TOPIC_PREFIX = KafkaRatesSink.TOPIC + ".bench-loop-";
    /** How long to wait after the last arrival for an exact allocation with it, unless {@code --exact-wait} says otherwise. */
    private static final double EXACT_WAIT_S = 900;

    private LoopBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String kafka = null;
        int k = 16;
        int sessions = 10_000;
        int arrivals = 20;
        long seed = 1;
        double tolerance = AllocationComponent.TOLERANCE;
        double exactWait = EXACT_WAIT_S;
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--kafka" -> kafka = v;
                case "--k" -> k = Integer.parseInt(v);
                case "--sessions" -> sessions = Integer.parseInt(v);
                case "--arrivals" -> arrivals = Integer.parseInt(v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--tolerance" -> tolerance = Double.parseDouble(v);
                case "--exact-wait" -> exactWait = Double.parseDouble(v);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (usage: LoopBenchmark --kafka BOOTSTRAP [--k 16] [--sessions 10000] [--arrivals 20] [--seed 1] [--tolerance T]"
                        + " [--exact-wait S])");
            }
            i++;
        }
        if (kafka == null) {
            throw new IllegalArgumentException("--kafka BOOTSTRAP is required");
        }
        new Run(kafka, k, sessions, arrivals, seed, tolerance, exactWait).run();
    }

    private static final class Run {
        final String kafka;
        final int k;
        final int sessionCount;
        final int arrivals;
        final double tolerance;
        final double exactWait;
        final Random random;
        final String topic = TOPIC_PREFIX + ProcessHandle.current().pid() + "-" + System.currentTimeMillis();
        final NetworkConfig config;
        final List<TenantDto> tenants = new ArrayList<>();
        final List<HostDto> hosts = new ArrayList<>();
        final Map<String, List<HostDto>> hostsByTenant = new ConcurrentHashMap<>();
        final List<SessionDto> sessions = Collections.synchronizedList(new ArrayList<>());
        /** Values sent and not yet consumed. */
        final Set<String> inFlight = ConcurrentHashMap.newKeySet();
        final Set<String> pairs = new java.util.HashSet<>();
        final AtomicLong roundsDone = new AtomicLong();
        /** Tables the allocation being published sent. */
        final Set<String> publishing = ConcurrentHashMap.newKeySet();
        /** Per arrival: when it was made, the tables of the first allocation with it, ms to the first exact allocation with it. */
        final Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
        final Map<String, Set<String>> firstTables = new ConcurrentHashMap<>();
        final Map<String, Double> exactAfter = new ConcurrentHashMap<>();
        final Map<String, Double> publishMs = new ConcurrentHashMap<>();
        final AtomicLong interims = new AtomicLong();
        volatile long lastConsumedNanos;
        /** The allocation loop's thread, and per counted arrival its CPU time from the change to every table consumed. */
        volatile Thread allocationThread;
        final List<Double> allocationCpuMs = new ArrayList<>();

        Run(String kafka, int k, int sessionCount, int arrivals, long seed, double tolerance, double exactWait) throws Exception {
            this.kafka = kafka;
            this.tolerance = tolerance;
            this.exactWait = exactWait;
            this.k = k;
            this.sessionCount = sessionCount;
            this.arrivals = arrivals;
            this.random = new Random(seed);
            ObjectNode root = (ObjectNode) Json.MAPPER.readTree(FabricConfigs.fatTree(k, "127.0.0.1", 50001, 10_000));
            root.get("hosts").fields().forEachRemaining(e -> ((ObjectNode) e.getValue()).putObject("fairfabric").put("shim", true));
            config = new NetworkConfigParser().parse(Json.MAPPER.writeValueAsString(root));
            int tenantCount = Math.max(1, config.hosts.size() / 32); // k=16: 32 tenants of 32 hosts, 31,744 ordered pairs
            for (int t = 0; t < tenantCount; t++) {
                tenants.add(new TenantDto("t" + t, "Tenant " + t, 1 + random.nextInt(4), null));
            }
            for (int i = 0; i < config.hosts.size(); i++) {
                NetworkConfig.Host h = config.hosts.get(i);
                String tenant = "t" + (i % tenantCount);
                HostDto dto = new HostDto(h.name, tenant, h.ips.get(0), h.mac, new LocationDto(h.location.device, h.location.port));
                hosts.add(dto);
                hostsByTenant.computeIfAbsent(tenant, x -> new ArrayList<>()).add(dto);
            }
            for (int i = 0; i < sessionCount; i++) {
                sessions.add(randomSession("s" + i));
            }
        }

        /** A session between two hosts of a random tenant, one per ordered pair (the controller refuses a second). */
        SessionDto randomSession(String id) {
            while (true) {
                List<HostDto> own = hostsByTenant.get(tenants.get(random.nextInt(tenants.size())).id);
                HostDto src = own.get(random.nextInt(own.size()));
                HostDto dst = own.get(random.nextInt(own.size()));
                if (dst != src && pairs.add(src.id + ">" + dst.id)) {
                    return new SessionDto(id, src.tenantId, src.id, dst.id, null, "api");
                }
            }
        }

        AllocationInputs inputs() {
            synchronized (sessions) {
                return new AllocationInputs(config, tenants, hosts, new ArrayList<>(sessions), Set.of());
            }
        }

        void run() throws Exception {
            System.out.printf(Locale.ROOT, "bench loop (in-process): k=%d fat-tree, %d hosts with shims, %d tenants, %d sessions;"
                    + " quiet period %d ms (an idle loop's first change at once), max delay %d ms, tolerance %.0e; Kafka %s topic %s; load %s%n",
                    k, hosts.size(), tenants.size(), sessionCount, AllocationComponent.QUIET_MS, AllocationComponent.MAX_DELAY_MS,
                    tolerance, kafka, topic, load());
            KafkaRatesSink kafkaSink = new KafkaRatesSink(kafka, topic);
            RatesSink sink = new RatesSink() {
                @Override
                public void send(String host, String json) {
                    sendAll(Map.of(host, json));
                }

                @Override
                public CompletionStage<?> sendAll(Map<String, String> jsonByHost) {
                    inFlight.addAll(jsonByHost.values());
                    publishing.addAll(jsonByHost.values());
                    return kafkaSink.sendAll(jsonByHost);
                }
            };
            SolveGate gate = new SolveGate(); // as the controller's allocation component wires it
            RatesPublisher publisher = new RatesPublisher(sink, System::currentTimeMillis, true, gate);
            ScheduledExecutorService executor = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "allocation");
                t.setDaemon(true);
                t.setPriority(AllocationComponent.LOOP_PRIORITY); // as the controller's allocation component
                allocationThread = t;
                return t;
            });
            ExecutorService solver = AllocationComponent.newSolver();
            AllocationListener listener = new AllocationListener() {
                @Override
                public void allocated(AllocationResult r) {
                    publishing.clear();
                    long t0 = System.nanoTime();
                    publisher.publish(r);
                    long now = System.nanoTime();
                    for (SessionAllocation s : r.sessions()) {
                        Long at = arrivedAt.get(s.session().id);
                        if (at != null && !firstTables.containsKey(s.session().id)) {
                            publishMs.put(s.session().id, (now - t0) / 1e6);
                            firstTables.put(s.session().id, Set.copyOf(publishing));
                        }
                        if (at != null && !r.interim() && !exactAfter.containsKey(s.session().id)) {
                            exactAfter.put(s.session().id, (now - at) / 1e6);
                        }
                    }
                    if (r.interim()) {
                        interims.incrementAndGet();
                    } else {
                        System.out.printf(Locale.ROOT, "exact round %d in force: %d sessions, %d tables changed%n", r.round(), r.sessions().size(),
                                publishing.size());
                    }
                    roundsDone.incrementAndGet();
                }

                @Override
                public void infeasible(long round, String message, List<String> bottlenecks) {
                    roundsDone.incrementAndGet();
                }
            };
            AllocationLoop loop = new AllocationLoop(this::inputs, listener, Scheduler.singleThread(executor),
                    new ExactAllocator(tolerance, ExactAllocator.DEFAULT_MAX_ITERATIONS, gate), solver, gate,
                    AllocationComponent.QUIET_MS, AllocationComponent.MAX_DELAY_MS);
            KafkaConsumer<String, String> consumer = consumer();
            Thread reader = new Thread(() -> {
                try {
                    while (true) {
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(5))) {
                            if (inFlight.remove(r.value())) {
                                lastConsumedNanos = System.nanoTime();
                            }
                        }
                    }
                } catch (org.apache.kafka.common.errors.WakeupException stopping) {
                    // wakeup() below: the consumer closes on its own thread, uninterrupted
                } finally {
                    consumer.close();
                }
            }, "bench-loop-consumer");
            reader.start();
            try {
                awaitAssignment(consumer);
                long t0 = System.nanoTime();
                loop.changed("start");
                awaitRound(1, 300);
                awaitConsumed(300);
                System.out.printf(Locale.ROOT, "first round with %d sessions: %.0f ms to every table consumed (%d tables)%n",
                        sessionCount, (System.nanoTime() - t0) / 1e6, publisher.published());
                // warm-up arrivals (JIT), not counted
                for (int i = 0; i < 5; i++) {
                    arrival(loop, "w" + i);
                }
                long interimsBefore = interims.get();
                long[] gcBefore = gc();
                long[] gaveWayBefore = gate.waits();
                List<Double> loopMs = new ArrayList<>();
                List<Double> kafkaMs = new ArrayList<>();
                KafkaProducer<String, String> raw = KafkaClients.reliableProducer(kafka, "bench-loop-baseline", 0);
                allocationCpuMs.clear();
                for (int i = 0; i < arrivals; i++) {
                    loopMs.add(arrival(loop, "a" + i));
                    kafkaMs.add(baseline(raw, i));
                }
                raw.close(Duration.ofSeconds(10));
                long interimCount = interims.get() - interimsBefore;
                long[] gcAfter = gc();
                long[] gaveWayAfter = gate.waits();
                System.out.printf(Locale.ROOT, "session arrival -> every changed rates table consumed from Kafka, %d arrivals: p50 %.1f ms, p99 %.1f ms, max %.1f ms (target p99 <= 100 ms); interim allocations: %d%n",
                        arrivals, pct(loopMs, 50), pct(loopMs, 99), pct(loopMs, 100), interimCount);
                System.out.printf(Locale.ROOT, "baseline (same run): one table-sized record produced and consumed on the same topic: p50 %.1f ms, p99 %.1f ms%n",
                        pct(kafkaMs, 50), pct(kafkaMs, 99));
                System.out.printf(Locale.ROOT, "CPU time of the allocation loop's thread per arrival (its round and tables, not the solver's): p50 %.1f ms, max %.1f ms%n",
                        pct(allocationCpuMs, 50), pct(allocationCpuMs, 100));
                System.out.printf(Locale.ROOT, "arrivals %d ms apart (more than the quiet period of %d ms): each starts an idle loop's round at once, exact solves run meanwhile;"
                        + " the exact solve gave way %d times (%d ms); %d garbage collections (%d ms) during them; load %s%n",
                        AllocationComponent.QUIET_MS * 3, AllocationComponent.QUIET_MS, gaveWayAfter[0] - gaveWayBefore[0], gaveWayAfter[1] - gaveWayBefore[1],
                        gcAfter[0] - gcBefore[0], gcAfter[1] - gcBefore[1], load());
                if (exactWait <= 0) {
                    return;
                }
                String last = "a" + (arrivals - 1);
                long deadline = System.nanoTime() + (long) (exactWait * 1e9);
                while (!exactAfter.containsKey(last) && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                List<Double> exactMs = new ArrayList<>();
                for (int i = 0; i < arrivals; i++) {
                    Double ms = exactAfter.get("a" + i);
                    if (ms != null) {
                        exactMs.add(ms);
                    }
                }
                if (exactMs.isEmpty()) {
                    System.out.printf(Locale.ROOT, "session arrival -> an exact allocation with it in force: none within %.0f s of the last arrival%n", exactWait);
                } else {
                    System.out.printf(Locale.ROOT, "session arrival -> an exact allocation with it in force, %d of %d arrivals: p50 %.0f ms, max %.0f ms; load %s%n",
                            exactMs.size(), arrivals, pct(exactMs, 50), pct(exactMs, 100), load());
                }
            } finally {
                consumer.wakeup();
                reader.join(10_000);
                loop.close();
                solver.shutdownNow();
                executor.shutdownNow();
                kafkaSink.close();
                deleteTopic();
            }
        }

        /**
         * One session arrives; returns ms from the change to every table of the first allocation
         * with it in force consumed.
         */
        double arrival(AllocationLoop loop, String id) throws InterruptedException {
            sessions.add(randomSession(id));
            long cpu0 = allocationCpuNanos();
            long t0 = System.nanoTime();
            arrivedAt.put(id, t0);
            loop.changed("arrival " + id);
            long deadline = System.nanoTime() + 300_000_000_000L;
            while (!firstTables.containsKey(id)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no allocation with " + id + " within 300 s");
                }
                Thread.sleep(1);
            }
            Set<String> tables = firstTables.get(id);
            while (tables.stream().anyMatch(inFlight::contains)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the tables of the allocation with " + id + " not consumed within 300 s");
                }
                Thread.sleep(1);
            }
            double ms = (Math.max(lastConsumedNanos, t0) - t0) / 1e6;
            allocationCpuMs.add((allocationCpuNanos() - cpu0) / 1e6);
            System.out.printf(Locale.ROOT, "arrival %s: %d tables consumed after %.1f ms (%.1f ms of it building and publishing the tables)%n",
                    id, tables.size(), ms, publishMs.get(id));
            Thread.sleep(AllocationComponent.QUIET_MS * 3);
            return ms;
        }

        long allocationCpuNanos() {
            Thread t = allocationThread;
            return t == null ? 0 : Math.max(0, java.lang.management.ManagementFactory.getThreadMXBean().getThreadCpuTime(t.getId()));
        }

        double baseline(KafkaProducer<String, String> producer, int i) throws InterruptedException {
            String value = "{\"baseline\":" + i + ",\"pad\":\"" + "x".repeat(400) + "\"}";
            inFlight.add(value);
            long t0 = System.nanoTime();
            producer.send(new ProducerRecord<>(topic, "baseline", value));
            awaitConsumed(60);
            return (lastConsumedNanos - t0) / 1e6;
        }

        void awaitRound(long n, double timeoutS) throws InterruptedException {
            long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
            while (roundsDone.get() < n) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no allocation round within " + timeoutS + " s");
                }
                Thread.sleep(1);
            }
        }

        void awaitConsumed(double timeoutS) throws InterruptedException {
            long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
            while (!inFlight.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(inFlight.size() + " records not consumed within " + timeoutS + " s");
                }
                Thread.sleep(1);
            }
        }

        KafkaConsumer<String, String> consumer() {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
            p.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-loop-" + ProcessHandle.current().pid());
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
            KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
            c.subscribe(List.of(topic));
            return c;
        }

        void awaitAssignment(KafkaConsumer<String, String> c) throws InterruptedException {
            // the reader thread polls; wait until the group has assigned the partition
            long deadline = System.nanoTime() + 60_000_000_000L;
            String probe = "{\"probe\":true}";
            try (KafkaProducer<String, String> p = KafkaClients.reliableProducer(kafka, "bench-loop-probe", 0)) {
                while (true) {
                    inFlight.add(probe);
                    p.send(new ProducerRecord<>(topic, "probe", probe));
                    p.flush();
                    long until = System.nanoTime() + 2_000_000_000L;
                    while (inFlight.contains(probe) && System.nanoTime() < until) {
                        Thread.sleep(10);
                    }
                    if (!inFlight.contains(probe)) {
                        return;
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the consumer got no partition of " + topic + " within 60 s");
                    }
                }
            }
        }

        void deleteTopic() {
            Properties a = new Properties();
            a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
            try (Admin admin = Admin.create(a)) {
                admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("bench loop: topic " + topic + " not deleted: " + e);
            }
        }
    }

    static double pct(List<Double> values, double p) {
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        int i = (int) Math.ceil(p / 100 * s.size()) - 1;
        return s.get(Math.max(0, Math.min(s.size() - 1, i)));
    }

    /** Garbage collections so far and their total time in ms, over every collector. */
    static long[] gc() {
        long[] out = new long[2];
        for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            out[0] += Math.max(0, b.getCollectionCount());
            out[1] += Math.max(0, b.getCollectionTime());
        }
        return out;
    }

    static String load() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
