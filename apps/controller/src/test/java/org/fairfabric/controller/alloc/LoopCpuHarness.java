package org.fairfabric.controller.alloc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.core.allocator.ExactAllocator;

/**
 * Not a test: a timing harness for the allocation loop's thread on {@code bench loop}'s instance
 * (k=16, 10,000 sessions, 32 tenants), without Kafka or a running solve. One rough exact solve (a few
 * iterations) puts an allocation in force; then sessions arrive (and, with {@code --departures},
 * every third step one leaves), each an idle loop's round: interim allocation and rates tables (to a
 * sink that only counts). Prints the per-arrival time of the round and of the tables. Run with
 * {@code -XX:StartFlightRecording} for a profile.
 *
 * <p>usage: LoopCpuHarness [--k 16] [--sessions 10000] [--arrivals 300] [--seed 1] [--departures]
 */
public final class LoopCpuHarness {
    private LoopCpuHarness() {
    }

    public static void main(String[] args) throws Exception {
        int k = 16;
        int sessionCount = 10_000;
        int arrivals = 300;
        long seed = 1;
        boolean departures = false;
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "--k" -> k = Integer.parseInt(args[++a]);
                case "--sessions" -> sessionCount = Integer.parseInt(args[++a]);
                case "--arrivals" -> arrivals = Integer.parseInt(args[++a]);
                case "--seed" -> seed = Long.parseLong(args[++a]);
                case "--departures" -> departures = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[a]);
            }
        }
        Random random = new Random(seed);
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(FabricConfigs.fatTree(k, "127.0.0.1", 50001, 10_000));
        root.get("hosts").fields().forEachRemaining(e -> ((ObjectNode) e.getValue()).putObject("fairfabric").put("shim", true));
        NetworkConfig config = new NetworkConfigParser().parse(Json.MAPPER.writeValueAsString(root));
        int tenantCount = Math.max(1, config.hosts.size() / 32);
        List<TenantDto> tenants = new ArrayList<>();
        for (int t = 0; t < tenantCount; t++) {
            tenants.add(new TenantDto("t" + t, "Tenant " + t, 1 + random.nextInt(4), null));
        }
        List<HostDto> hosts = new ArrayList<>();
        List<List<HostDto>> byTenant = new ArrayList<>();
        for (int t = 0; t < tenantCount; t++) {
            byTenant.add(new ArrayList<>());
        }
        for (int i = 0; i < config.hosts.size(); i++) {
            NetworkConfig.Host h = config.hosts.get(i);
            HostDto dto = new HostDto(h.name, "t" + (i % tenantCount), h.ips.get(0), h.mac, new LocationDto(h.location.device, h.location.port));
            hosts.add(dto);
            byTenant.get(i % tenantCount).add(dto);
        }
        Set<String> pairs = new HashSet<>();
        List<SessionDto> sessions = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < sessionCount; i++) {
            sessions.add(random(random, byTenant, pairs, "s" + i));
        }
        AtomicInteger tables = new AtomicInteger();
        RatesPublisher publisher = new RatesPublisher(new RatesSink() {
            @Override
            public void send(String host, String json) {
                tables.incrementAndGet();
            }

            @Override
            public java.util.concurrent.CompletionStage<?> sendAll(Map<String, String> jsonByHost) {
                tables.addAndGet(jsonByHost.size());
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            }
        }, System::currentTimeMillis);
        long[] publishNanos = new long[1];
        AllocationListener listener = new AllocationListener() {
            @Override
            public void allocated(AllocationResult r) {
                long t0 = System.nanoTime();
                publisher.publish(r);
                publishNanos[0] += System.nanoTime() - t0;
            }

            @Override
            public void infeasible(long round, String message, List<String> bottlenecks) {
                throw new IllegalStateException(message);
            }
        };
        int[] solves = new int[1];
        Executor firstSolveOnly = task -> {
            if (solves[0]++ == 0) {
                task.run();
            }
        };
        ManualScheduler scheduler = new ManualScheduler();
        AllocationLoop loop = new AllocationLoop(() -> new AllocationInputs(config, tenants, hosts, new ArrayList<>(sessions), Set.of()), listener,
                scheduler, new ExactAllocator(1e-2, 8), firstSolveOnly, new SolveGate(), 100, 1000);
        long t0 = System.nanoTime();
        loop.changed("start");
        scheduler.advance(0);
        scheduler.advance(0);
        System.out.printf(Locale.ROOT, "first round (rough solve, %d tables) %.0f ms%n", tables.get(), (System.nanoTime() - t0) / 1e6);
        List<Double> round = new ArrayList<>();
        List<Double> publish = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        int interims = 0;
        for (int a = 0; a < arrivals; a++) {
            if (departures && a % 3 == 2) {
                sessions.remove(random.nextInt(sessions.size()));
            } else {
                sessions.add(random(random, byTenant, pairs, "a" + a));
            }
            scheduler.advance(1000);
            AllocationResult before = loop.current();
            publishNanos[0] = 0;
            long c = threads.getCurrentThreadCpuTime();
            long s = System.nanoTime();
            loop.changed("arrival");
            scheduler.advance(0);
            double ms = (System.nanoTime() - s) / 1e6;
            double cpuMs = (threads.getCurrentThreadCpuTime() - c) / 1e6;
            if (loop.current() != before && loop.current().interim()) {
                interims++;
            }
            if (a >= arrivals / 5) {
                round.add(ms);
                publish.add(publishNanos[0] / 1e6);
                cpu.add(cpuMs);
            }
        }
        System.out.printf(Locale.ROOT, "%d steps (%s), %d interim: round incl. tables p50 %.2f ms, p90 %.2f ms (CPU p50 %.2f ms, p90 %.2f ms);"
                        + " of it the tables p50 %.2f ms; tables sent %d%n",
                arrivals, departures ? "every third a departure" : "arrivals", interims, pct(round, 50), pct(round, 90), pct(cpu, 50), pct(cpu, 90),
                pct(publish, 50), tables.get());
        loop.close();
    }

    static SessionDto random(Random random, List<List<HostDto>> byTenant, Set<String> pairs, String id) {
        while (true) {
            List<HostDto> own = byTenant.get(random.nextInt(byTenant.size()));
            HostDto src = own.get(random.nextInt(own.size()));
            HostDto dst = own.get(random.nextInt(own.size()));
            if (dst != src && pairs.add(src.id + ">" + dst.id)) {
                return new SessionDto(id, src.tenantId, src.id, dst.id, null, "api");
            }
        }
    }

    static double pct(List<Double> values, double p) {
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        return s.get(Math.max(0, Math.min(s.size() - 1, (int) Math.ceil(p / 100 * s.size()) - 1)));
    }
}
