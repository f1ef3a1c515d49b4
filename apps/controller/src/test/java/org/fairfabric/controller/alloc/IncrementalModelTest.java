package org.fairfabric.controller.alloc;

import static org.fairfabric.controller.alloc.Fixtures.host;
import static org.fairfabric.controller.alloc.Fixtures.leafSpine;
import static org.fairfabric.controller.alloc.Fixtures.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.allocator.AllocationProblem;
import org.junit.jupiter.api.Test;

/**
 * {@link ProblemAdapter#build(AllocationInputs, AllocationInputs, AllocationModel)} from the
 * previous model gives exactly the model a build from scratch gives (bitwise equal weights,
 * guarantees, demands, capacities; the same sessions, paths and link numbering), over a random
 * sequence of arrivals (anywhere in the list), departures, tenant weight and guarantee changes,
 * per-session weights, demands, idle sessions, a session moved to other hosts, a tenant deleted and
 * re-created, and links going down and up — and that it does reuse the kept sessions' paths.
 */
class IncrementalModelTest {
    private static final int STEPS = 400;

    @Test
    void anIncrementalBuildIsTheBuildFromScratch() {
        NetworkConfig cfg = leafSpine(4, 3, 4, 100); // h1..h16, 3 paths per inter-leaf pair
        Random random = new Random(16);
        List<TenantDto> tenants = new ArrayList<>(List.of(tenant("blue", 2, null), tenant("red", 1, 20_000_000L), tenant("green", 3, null)));
        List<HostDto> hosts = new ArrayList<>();
        for (int h = 1; h <= 16; h++) {
            hosts.add(host(cfg, "h" + h, tenants.get(h % 3).id));
        }
        List<SessionDto> sessions = new ArrayList<>();
        Set<String> idle = new HashSet<>();
        Set<String> down = new HashSet<>();
        int next = 0;
        for (; next < 20; next++) {
            arrive(sessions, hosts, random, next, sessions.size());
        }
        AllocationInputs before = new AllocationInputs(cfg, tenants, hosts, sessions, down, idle);
        AllocationModel built = ProblemAdapter.build(before);
        int reused = 0;
        for (int step = 0; step < STEPS; step++) {
            int op = random.nextInt(12);
            if (op <= 3 || sessions.size() < 3) {
                arrive(sessions, hosts, random, next++, random.nextInt(sessions.size() + 1));
            } else if (op <= 5) {
                sessions.remove(random.nextInt(sessions.size()));
            } else if (op == 6) {
                int t = random.nextInt(tenants.size());
                TenantDto was = tenants.get(t);
                Long guarantee = random.nextBoolean() ? null : (long) (1 + random.nextInt(30)) * 1_000_000L;
                tenants.set(t, new TenantDto(was.id, was.name, 0.5 + random.nextInt(8) / 2.0, guarantee));
            } else if (op == 7) {
                int i = random.nextInt(sessions.size());
                SessionDto s = sessions.get(i);
                Long demand = random.nextBoolean() ? null : (long) (1 + random.nextInt(50)) * 1_000_000L;
                sessions.set(i, new SessionDto(s.id, s.tenantId, s.srcHost, s.dstHost, demand, s.source,
                        random.nextBoolean() ? null : 0.25 + random.nextInt(8)));
            } else if (op == 8) {
                String id = sessions.get(random.nextInt(sessions.size())).id;
                if (!idle.remove(id)) {
                    idle.add(id);
                }
            } else if (op == 9) {
                int i = random.nextInt(sessions.size());
                SessionDto s = sessions.get(i);
                SessionDto other = pair(sessions, hosts, random, s.id);
                if (other != null) {
                    sessions.set(i, other); // the same id between other hosts
                }
            } else if (op == 10) {
                // a tenant deleted (its sessions become unroutable) or re-created
                if (tenants.size() == 3) {
                    tenants.remove(random.nextInt(3));
                } else {
                    for (String id : List.of("blue", "red", "green")) {
                        if (tenants.stream().noneMatch(t -> t.id.equals(id))) {
                            tenants.add(tenant(id, 1, null));
                        }
                    }
                }
            } else {
                int leaf = 1 + random.nextInt(4);
                int spine = 1 + random.nextInt(3);
                String link = "device:leaf" + leaf + "/" + (4 + spine) + "->device:spine" + spine + "/" + leaf;
                if (!down.remove(link)) {
                    down.add(link);
                }
            }
            AllocationInputs in = new AllocationInputs(cfg, tenants, hosts, sessions, down, idle);
            AllocationModel incremental = ProblemAdapter.build(in, before, built);
            AllocationModel scratch = ProblemAdapter.build(in);
            String where = "step " + step + " (op " + op + ")";
            assertEquals(scratch.problem(), incremental.problem(), () -> where + ": " + difference(scratch.problem(), incremental.problem()));
            assertEquals(scratch.sessions(), incremental.sessions(), where);
            assertEquals(scratch.paths(), incremental.paths(), where);
            assertEquals(scratch.unroutable(), incremental.unroutable(), where);
            assertEquals(scratch.shimHosts(), incremental.shimHosts(), where);
            assertEquals(scratch.guaranteedTenants(), incremental.guaranteedTenants(), where);
            if (before.downLinks().equals(in.downLinks()) && built.problem() != null) {
                for (int i = 0; i < incremental.sessions().size(); i++) {
                    int j = built.sessions().indexOf(incremental.sessions().get(i));
                    if (j >= 0) {
                        assertSame(built.paths().get(j), incremental.paths().get(i), where + ": a kept session's paths are reused");
                        reused++;
                    }
                }
            }
            before = in;
            built = incremental;
        }
        assertTrue(reused > STEPS * 10, "kept sessions reused their paths " + reused + " times");
        assertNotNull(built.problem());
    }

    /** Where two problems first differ, for the failure message. */
    private static String difference(AllocationProblem a, AllocationProblem b) {
        if (a == null || b == null) {
            return a + " vs " + b;
        }
        for (int e = 0; e < Math.min(a.linkCount(), b.linkCount()); e++) {
            if (!a.linkId(e).equals(b.linkId(e)) || a.capacity(e) != b.capacity(e)) {
                return "link " + e + ": " + a.linkId(e) + " " + a.capacity(e) + " vs " + b.linkId(e) + " " + b.capacity(e);
            }
        }
        for (int i = 0; i < Math.min(a.sessionCount(), b.sessionCount()); i++) {
            String x = a.sessionId(i) + " w=" + a.weight(i) + " d=" + a.demand(i) + " g=" + a.minRate(i) + " paths=" + rows(a, i);
            String y = b.sessionId(i) + " w=" + b.weight(i) + " d=" + b.demand(i) + " g=" + b.minRate(i) + " paths=" + rows(b, i);
            if (!x.equals(y)) {
                return "session " + i + ": " + x + " vs " + y;
            }
        }
        return a.linkCount() + " links, " + a.sessionCount() + " sessions vs " + b.linkCount() + ", " + b.sessionCount();
    }

    private static List<List<Integer>> rows(AllocationProblem p, int i) {
        List<List<Integer>> out = new ArrayList<>();
        for (int q = p.firstPath(i); q < p.endPath(i); q++) {
            List<Integer> row = new ArrayList<>();
            for (int k = 0; k < p.pathLength(q); k++) {
                row.add(p.pathLink(q, k));
            }
            out.add(row);
        }
        return out;
    }

    private static void arrive(List<SessionDto> sessions, List<HostDto> hosts, Random random, int n, int at) {
        SessionDto s = pair(sessions, hosts, random, "s" + n);
        if (s != null) {
            sessions.add(at, s);
        }
    }

    /** A session between two hosts of one tenant that no session joins yet, or null. */
    private static SessionDto pair(List<SessionDto> sessions, List<HostDto> hosts, Random random, String id) {
        for (int attempt = 0; attempt < 50; attempt++) {
            HostDto src = hosts.get(random.nextInt(hosts.size()));
            HostDto dst = hosts.get(random.nextInt(hosts.size()));
            if (src != dst && src.tenantId.equals(dst.tenantId)
                    && sessions.stream().noneMatch(s -> s.srcHost.equals(src.id) && s.dstHost.equals(dst.id))) {
                return new SessionDto(id, src.tenantId, src.id, dst.id, null, "api");
            }
        }
        return null;
    }
}
