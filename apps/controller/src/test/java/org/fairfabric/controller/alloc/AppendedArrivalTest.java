package org.fairfabric.controller.alloc;

import static org.fairfabric.controller.alloc.Fixtures.host;
import static org.fairfabric.controller.alloc.Fixtures.leafSpine;
import static org.fairfabric.controller.alloc.Fixtures.tenant;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.stream.Stream;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.allocator.ExactAllocator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rounds after sessions were appended extend the previous model and allocation instead of
 * rebuilding them ({@link ProblemAdapter}'s append path, {@link AllocationLoop}'s appended interim
 * allocation with the link loads it keeps). On random sequences of steps — arrivals at the end of
 * the list (the append path), arrivals elsewhere, departures, idle sessions, a tenant's weight or
 * guarantee changed, exact solves landing — the extended model equals the model built from
 * scratch, and a loop on the append path hands on exactly the allocations (interim and exact) of a
 * loop without it, and its {@link RatesPublisher} (which then builds only the changed senders'
 * tables, from an index of senders) sends exactly the same rates tables.
 */
class AppendedArrivalTest {
    /**
     * One scenario: fabric size, whether tenants have guarantees, and per step the chance (in
     * percent, in this order) of an arrival at the end, an arrival elsewhere, a departure, an idle
     * toggle and a tenant change; otherwise the pending exact solve lands. {@code burst}: arrivals at
     * the end per arrival step, at most.
     */
    record Row(String name, long seed, int leaves, int spines, int hostsPerLeaf, boolean guarantees, int steps, int atEnd, int elsewhere,
               int departure, int idle, int tenant, int burst) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("arrivals at the end only, one by one", 1, 4, 2, 6, false, 100, 100, 0, 0, 0, 0, 1),
                new Row("arrivals at the end only, in bursts, guarantees", 2, 4, 2, 6, true, 80, 100, 0, 0, 0, 0, 3),
                new Row("mostly appended, solves landing between them", 3, 4, 3, 6, false, 150, 70, 0, 0, 0, 0, 2),
                new Row("appended, elsewhere, departures, idle, tenants", 4, 4, 3, 6, true, 200, 45, 10, 15, 5, 5, 2),
                new Row("a small fabric under many sessions, guarantees", 5, 2, 2, 8, true, 150, 60, 5, 10, 5, 5, 1),
                new Row("a larger fabric, departures often", 6, 6, 4, 4, false, 200, 40, 5, 25, 5, 5, 2));
    }

    /** The scenario's state: the inputs change in place, step by step. */
    static final class World {
        final Row row;
        final Random random;
        final NetworkConfig cfg;
        final List<TenantDto> tenants = new ArrayList<>();
        final List<HostDto> hosts = new ArrayList<>();
        final List<SessionDto> sessions = new ArrayList<>();
        final Set<String> idle = new HashSet<>();
        int next;

        World(Row row) {
            this.row = row;
            random = new Random(row.seed());
            int n = row.leaves() * row.hostsPerLeaf();
            String[] shims = new String[n - n / 4]; // a quarter of the hosts without the shim
            for (int h = 1; h <= shims.length; h++) {
                shims[h - 1] = "h" + h;
            }
            cfg = leafSpine(row.leaves(), row.spines(), row.hostsPerLeaf(), 100, shims);
            tenants.add(tenant("blue", 2, row.guarantees() ? 4_000_000L : null));
            tenants.add(tenant("red", 1, row.guarantees() ? 2_000_000L : null));
            tenants.add(tenant("green", 3, null));
            for (int h = 1; h <= n; h++) {
                hosts.add(host(cfg, "h" + h, tenants.get(h % 3).id));
            }
            for (int i = 0; i < n; i++) {
                arrive(sessions.size());
            }
        }

        AllocationInputs inputs() {
            return new AllocationInputs(cfg, tenants, hosts, sessions, Set.of(), idle);
        }

        /** Applies one random step; returns its kind: "end", "elsewhere", "departure", "idle", "tenant" or "solve". */
        String step() {
            int r = random.nextInt(100);
            if (r < row.atEnd()) {
                int n = 1 + random.nextInt(row.burst());
                for (int j = 0; j < n; j++) {
                    arrive(sessions.size());
                }
                return "end";
            }
            r -= row.atEnd();
            if (r < row.elsewhere()) {
                arrive(random.nextInt(sessions.size() + 1));
                return "elsewhere";
            }
            r -= row.elsewhere();
            if (r < row.departure() && sessions.size() > 3) {
                sessions.remove(random.nextInt(sessions.size()));
                return "departure";
            }
            r -= row.departure();
            if (r < row.idle()) {
                String id = sessions.get(random.nextInt(sessions.size())).id;
                if (!idle.remove(id)) {
                    idle.add(id);
                }
                return "idle";
            }
            r -= row.idle();
            if (r < row.tenant()) {
                int t = random.nextInt(tenants.size());
                TenantDto was = tenants.get(t);
                tenants.set(t, tenant(was.id, 0.5 + random.nextInt(6) / 2.0, was.minBandwidthBps));
                return "tenant";
            }
            return "solve";
        }

        private void arrive(int at) {
            for (int attempt = 0; attempt < 50; attempt++) {
                HostDto src = hosts.get(random.nextInt(hosts.size()));
                HostDto dst = hosts.get(random.nextInt(hosts.size()));
                if (src != dst && src.tenantId.equals(dst.tenantId)
                        && sessions.stream().noneMatch(s -> s.srcHost.equals(src.id) && s.dstHost.equals(dst.id))) {
                    sessions.add(at, new SessionDto("s" + next++, src.tenantId, src.id, dst.id,
                            random.nextInt(4) == 0 ? (long) (1 + random.nextInt(30)) * 1_000_000L : null, "api"));
                    return;
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void theAppendedModelIsTheModelBuiltFromScratch(Row row) {
        World w = new World(row);
        AllocationInputs before = w.inputs();
        AllocationModel built = ProblemAdapter.build(before);
        int appended = 0;
        for (int step = 0; step < row.steps(); step++) {
            String kind = w.step();
            AllocationInputs in = w.inputs();
            AllocationModel model = ProblemAdapter.build(in, before, built);
            AllocationModel scratch = ProblemAdapter.build(in);
            String where = "step " + step + " (" + kind + ")";
            assertEquals(scratch.problem(), model.problem(), where);
            assertEquals(scratch.sessions(), model.sessions(), where);
            assertEquals(scratch.paths(), model.paths(), where);
            assertEquals(scratch.unroutable(), model.unroutable(), where);
            assertEquals(scratch.guaranteedTenants(), model.guaranteedTenants(), where);
            assertEquals(scratch.shimHosts(), model.shimHosts(), where);
            if (kind.equals("end") || kind.equals("solve")) {
                if (model != built) { // built itself when nothing came
                    assertSame(built, model.appendedTo(), where + ": sessions appended extend the previous model");
                }
                assertSame(built.paths().get(0), model.paths().get(0), where);
                appended++;
            }
            before = in;
            built = model;
        }
        assertTrue(appended > row.steps() / 4, "append path taken " + appended + " times");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void aLoopOnTheAppendPathHandsOnWhatTheGeneralPathDoes(Row row) {
        Run general = new Run(new World(row), false);
        Run appended = new Run(new World(row), true);
        for (int step = 0; step < row.steps(); step++) {
            String kind = general.step();
            assertEquals(kind, appended.step());
            assertEquals(general.results.size(), appended.results.size(), "step " + step + " (" + kind + "): allocations handed on");
            assertEquals(general.tables, appended.tables, "step " + step + " (" + kind + "): rates tables sent");
            for (int r = 0; r < general.results.size(); r++) {
                AllocationResult a = general.results.get(r);
                AllocationResult b = appended.results.get(r);
                String where = "step " + step + " (" + kind + "), allocation " + r;
                assertEquals(a.round(), b.round(), where + ": round");
                assertEquals(a.interim(), b.interim(), where + ": interim");
                assertEquals(a.iterations(), b.iterations(), where + ": iterations");
                assertEquals(a.relativeGap(), b.relativeGap(), where + ": gap");
                assertEquals(a.computedAt(), b.computedAt(), where + ": computed at");
                assertEquals(a.model().problem(), b.model().problem(), where + ": problem");
                assertEquals(a.model().sessions(), b.model().sessions(), where + ": model sessions");
                assertEquals(a.model().unroutable(), b.model().unroutable(), where + ": unroutable");
                assertEquals(a.model().paths(), b.model().paths(), where + ": paths");
                assertEquals(a.model().shimHosts(), b.model().shimHosts(), where + ": shim hosts");
                assertEquals(a.model().guaranteedTenants(), b.model().guaranteedTenants(), where + ": guaranteed");
                assertEquals(a.sessions().size(), b.sessions().size(), where + ": sessions");
                for (int i = 0; i < a.sessions().size(); i++) {
                    assertEquals(a.sessions().get(i), b.sessions().get(i), where + ": session " + i);
                }
                // (each loop builds its own topology, which has no equality of its own: the rest is compared)
                if (b.pathRates() != null && b.interim()) {
                    assertArrayEquals(ArrivalAllocation.totals(b.model().problem(), b.pathRates()), b.totals(), "kept session totals");
                    assertArrayEquals(ArrivalAllocation.loads(b.model().problem(), b.pathRates()), b.loads(), "kept link loads");
                }
            }
        }
        assertEquals(0, general.loop.appendedInterims());
        assertTrue(appended.tables.size() > row.steps() / 10, "batches of rates tables sent: " + appended.tables.size());
        assertEquals(0, general.publisher.fromIndex());
        // (an interim allocation from an exact answer that was not itself put in force is not derived from the last one published)
        assertTrue(appended.publisher.fromIndex() > 0 && appended.publisher.fromIndex() <= appended.loop.appendedInterims(),
                "tables from the index of senders " + appended.publisher.fromIndex() + " times");
        assertTrue(appended.loop.appendedInterims() > row.steps() / 10, "appended interim allocations: " + appended.loop.appendedInterims());
        assertNotNull(appended.loop.current());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void anInterimAllocationKeepsTheSessionsItLeavesAlone(Row row) {
        Run run = new Run(new World(row), true);
        for (int step = 0; step < row.steps(); step++) {
            AllocationResult before = run.loop.current();
            String kind = run.step();
            AllocationResult after = run.loop.current();
            if (!kind.equals("end") || after == before || after == null || before == null || !after.interim()) {
                continue;
            }
            for (int i = 0; i < before.model().sessions().size() && i < after.model().sessions().size(); i++) {
                SessionAllocation was = before.sessions().get(i);
                SessionAllocation now = after.sessions().get(i);
                if (was.equals(now)) {
                    assertSame(was, now, "step " + step + ": session " + i + " kept its object");
                }
            }
        }
    }

    /** A loop over a world, solves queued until a "solve" step lets the pending one land. */
    static final class Run {
        final World world;
        final ManualScheduler scheduler = new ManualScheduler();
        final Queue<Runnable> solves = new ArrayDeque<>();
        final List<AllocationResult> results = new ArrayList<>();
        /** The rates tables sent, per allocation (none when no table changed). */
        final List<java.util.Map<String, String>> tables = new ArrayList<>();
        final RatesPublisher publisher = new RatesPublisher(new RatesSink() {
            @Override
            public void send(String host, String json) {
                sendAll(java.util.Map.of(host, json));
            }

            @Override
            public java.util.concurrent.CompletionStage<?> sendAll(java.util.Map<String, String> jsonByHost) {
                tables.add(new java.util.TreeMap<>(jsonByHost));
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            }
        }, () -> 0);
        final AllocationLoop loop;

        Run(World world, boolean appendPath) {
            this.world = world;
            Executor queued = solves::add;
            loop = new AllocationLoop(world::inputs, new AllocationListener() {
                @Override
                public void allocated(AllocationResult result) {
                    results.add(result);
                    publisher.publish(result);
                }

                @Override
                public void infeasible(long round, String message, List<String> bottlenecks) {
                }
            }, scheduler, new ExactAllocator(1e-6, ExactAllocator.DEFAULT_MAX_ITERATIONS), queued, new SolveGate(), 100, 1000);
            loop.appendPath = appendPath;
            loop.changed("start");
            scheduler.advance(0);
            land();
        }

        String step() {
            String kind = world.step();
            if (kind.equals("solve")) {
                land();
            } else {
                scheduler.advance(1000); // an idle loop: the change runs at once
                loop.changed(kind);
                scheduler.advance(0);
            }
            return kind;
        }

        /** Runs the pending solve; its answer comes back to the loop's thread. */
        void land() {
            Runnable s = solves.poll();
            if (s != null) {
                s.run();
                scheduler.advance(0);
            }
        }
    }
}
