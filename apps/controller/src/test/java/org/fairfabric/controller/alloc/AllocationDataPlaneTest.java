package org.fairfabric.controller.alloc;

import static org.fairfabric.controller.alloc.Fixtures.inputs;
import static org.fairfabric.controller.alloc.Fixtures.leafSpine;
import static org.fairfabric.controller.alloc.Fixtures.session;
import static org.fairfabric.controller.alloc.Fixtures.tenant;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.program.AllocationEntities;
import org.fairfabric.core.allocator.ExactAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import p4.config.v1.P4InfoOuterClass.Action;
import p4.config.v1.P4InfoOuterClass.MatchField;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Table;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/** The classifier, tag and AQ entries of an allocation, against the fabric pipeline's real P4Info. */
class AllocationDataPlaneTest {
    static P4Info info;
    static AllocationDataPlane plane;

    @BeforeAll
    static void p4info() throws Exception {
        info = P4InfoIndex.parseText(Files.readString(Path.of("../../pipeconfs/p4/p4info.txt")));
        P4InfoIndex p4 = new P4InfoIndex(info);
        assertTrue(AllocationEntities.supported(p4));
        plane = new AllocationDataPlane(new AllocationEntities(p4));
    }

    /** blue (weight 2) h1→h3 from a shim host; red (weight 1, 20 Mbit/s guaranteed) h2→h4 without shims. */
    static AllocationResult result(long redDemand) throws Exception {
        NetworkConfig cfg = leafSpine(2, 2, 2, 100, "h1", "h3");
        AllocationModel m = ProblemAdapter.build(inputs(cfg, List.of(tenant("blue", 2, null), tenant("red", 1, 20_000_000L)),
                List.of(session("s1", "blue", "h1", "h3", null), session("s2", "red", "h2", "h4", redDemand)), Set.of()));
        return AllocationResult.of(1, "t", m, new ExactAllocator(1e-8, 200).solve(m.problem()));
    }

    /** table name → entries, per device. */
    static Map<String, List<TableEntry>> byTable(List<Entity> entities) {
        Map<Integer, String> names = new HashMap<>();
        info.getTablesList().forEach(t -> names.put(t.getPreamble().getId(), t.getPreamble().getName()));
        Map<String, List<TableEntry>> out = new HashMap<>();
        for (Entity e : entities) {
            out.computeIfAbsent(names.get(e.getTableEntry().getTableId()), k -> new ArrayList<>()).add(e.getTableEntry());
        }
        return out;
    }

    /** Every entry names a table, match fields and an action (with all its parameters) of the P4Info, and every value fits its width. */
    static void checkAgainstP4Info(Entity e) {
        TableEntry t = e.getTableEntry();
        Table table = info.getTablesList().stream().filter(x -> x.getPreamble().getId() == t.getTableId()).findFirst().orElseThrow();
        boolean ternary = false;
        for (FieldMatch m : t.getMatchList()) {
            MatchField f = table.getMatchFieldsList().stream().filter(x -> x.getId() == m.getFieldId()).findFirst().orElseThrow();
            switch (m.getFieldMatchTypeCase()) {
                case EXACT -> {
                    assertEquals(MatchField.MatchType.EXACT, f.getMatchType(), f.getName());
                    fits(m.getExact().getValue().toByteArray(), f.getBitwidth(), f.getName());
                }
                case TERNARY -> {
                    ternary = true;
                    assertEquals(MatchField.MatchType.TERNARY, f.getMatchType(), f.getName());
                    fits(m.getTernary().getValue().toByteArray(), f.getBitwidth(), f.getName());
                    fits(m.getTernary().getMask().toByteArray(), f.getBitwidth(), f.getName());
                }
                default -> throw new AssertionError("unexpected match kind " + m.getFieldMatchTypeCase());
            }
        }
        assertEquals(ternary, t.getPriority() > 0, "ternary entries need a priority, exact ones none");
        int actionId = t.getAction().getAction().getActionId();
        assertTrue(table.getActionRefsList().stream().anyMatch(r -> r.getId() == actionId), "action not in " + table.getPreamble().getName());
        Action a = info.getActionsList().stream().filter(x -> x.getPreamble().getId() == actionId).findFirst().orElseThrow();
        assertEquals(a.getParamsCount(), t.getAction().getAction().getParamsCount(), a.getPreamble().getName());
        for (var p : t.getAction().getAction().getParamsList()) {
            Action.Param decl = a.getParamsList().stream().filter(x -> x.getId() == p.getParamId()).findFirst().orElseThrow();
            fits(p.getValue().toByteArray(), decl.getBitwidth(), decl.getName());
        }
    }

    static void fits(byte[] canonical, int bits, String what) {
        assertTrue(canonical.length >= 1 && (canonical.length == 1 || canonical[0] != 0), what + " is not canonical");
        assertTrue(new java.math.BigInteger(1, canonical).bitLength() <= bits, what + " exceeds " + bits + " bits");
    }

    static long param(TableEntry t, int index) {
        return new java.math.BigInteger(1, t.getAction().getAction().getParams(index).getValue().toByteArray()).longValue();
    }

    @Test
    void shimHostsKeepTheTagOthersArePinnedAtTheFirstHopAndGuaranteedTenantsGetAqs() throws Exception {
        AllocationResult r = result(30_000_000L);
        AqPlanner aqs = new AqPlanner(() -> 0L);
        List<AqPlanner.PlacedAq> placed = aqs.apply(r);
        Map<String, List<Entity>> entities = plane.entities(r, placed);
        entities.values().forEach(list -> list.forEach(AllocationDataPlaneTest::checkAgainstP4Info));

        Map<String, List<TableEntry>> leaf1 = byTable(entities.get("device:leaf1"));
        Map<String, List<TableEntry>> leaf2 = byTable(entities.get("device:leaf2"));
        // keep-tag: h1 on leaf1/1 and h3 on leaf2/1 run the shim
        assertEquals(1, leaf1.get("FabricEgress.rewrite.host_port_keep_tag").size());
        assertArrayEquals(new byte[] {1}, leaf1.get("FabricEgress.rewrite.host_port_keep_tag").get(0).getMatch(0).getExact().getValue().toByteArray());
        assertEquals(1, leaf2.get("FabricEgress.rewrite.host_port_keep_tag").size());

        // s2 from h2 (no shim): its whole rate fits one path (FewestPaths), so one entry pins all its traffic
        SessionAllocation s2 = r.sessions().get(1);
        List<TableEntry> cls = leaf1.get("FabricIngress.path_classifier.path_classifier");
        assertEquals(1, cls.size());
        assertEquals(0x0a000102L, new java.math.BigInteger(1, cls.get(0).getMatch(0).getTernary().getValue().toByteArray()).longValue());
        assertEquals(1, s2.paths().stream().filter(p -> p.rateBps() > 0).count());
        assertEquals(s2.paths().stream().filter(p -> p.rateBps() > 0).findFirst().orElseThrow().pathId(), param(cls.get(0), 0));
        assertTrue(!leaf2.containsKey("FabricIngress.path_classifier.path_classifier"), "h3 and h4 send nothing");

        // red: outbound AQ of h2 (ingress of leaf1) and inbound AQ of h4 (egress of leaf2) at s2's rate; blue has none
        List<TableEntry> out = leaf1.get("FabricIngress.aq_classify_outbound.aq_classify_outbound");
        List<TableEntry> aqIn = leaf1.get("FabricIngress.aq_ingress.aq_table");
        assertEquals(1, out.size());
        assertEquals(1, aqIn.size());
        assertEquals(param(out.get(0), 0), new java.math.BigInteger(1, aqIn.get(0).getMatch(0).getExact().getValue().toByteArray()).longValue());
        assertEquals(0, param(out.get(0), 1));
        long rateFp = param(aqIn.get(0), 1);
        assertEquals(s2.totalBps() * AllocationDataPlane.AQ_RATE_PER_ALLOCATED / 8 / 1e6 * 65536, rateFp, 1.0);
        assertEquals(30e6, s2.totalBps(), 1e-3 * 30e6);
        List<TableEntry> inbound = leaf2.get("FabricEgress.aq_classify_inbound.aq_classify_inbound");
        List<TableEntry> aqEg = leaf2.get("FabricEgress.aq_egress.aq_table");
        assertEquals(1, inbound.size());
        assertEquals(param(inbound.get(0), 0), new java.math.BigInteger(1, aqEg.get(0).getMatch(0).getExact().getValue().toByteArray()).longValue());
        assertTrue(!leaf2.containsKey("FabricIngress.aq_classify_outbound.aq_classify_outbound"));

        // what GET /aqs lists: the same two AQs, where they sit and at which rate
        assertEquals(2, placed.size());
        for (AqPlanner.PlacedAq a : placed) {
            org.fairfabric.api.dto.AqDto d = a.dto();
            assertEquals("red", d.tenantId);
            assertEquals(s2.totalBps(), d.rateBps, 1e-6);
            if (d.direction.equals("outbound")) {
                assertEquals(List.of("device:leaf1", "ingress", "h2", param(out.get(0), 0)), List.of(d.device, d.pipeline, d.host, d.aqId));
            } else {
                assertEquals(List.of("device:leaf2", "egress", "h4", param(inbound.get(0), 0)), List.of(d.device, d.pipeline, d.host, d.aqId));
            }
        }

        // a new rate replaces the AQs (new ids); the same rate keeps them
        long before = param(out.get(0), 0);
        Map<String, List<Entity>> same = plane.entities(r, aqs.apply(r));
        assertEquals(before, param(byTable(same.get("device:leaf1")).get("FabricIngress.aq_classify_outbound.aq_classify_outbound").get(0), 0));
        AllocationResult slower = result(25_000_000L);
        Map<String, List<Entity>> next = plane.entities(slower, aqs.apply(slower));
        List<TableEntry> out2 = byTable(next.get("device:leaf1")).get("FabricIngress.aq_classify_outbound.aq_classify_outbound");
        assertEquals(1, out2.size());
        assertNotEquals(before, param(out2.get(0), 0));
        assertEquals(1, byTable(next.get("device:leaf1")).get("FabricIngress.aq_ingress.aq_table").size());
    }

    @Test
    void aSessionNoPathCarriesWholeIsPinnedByFlowBucketsInProportionToItsPathRates() throws Exception {
        // three senders without shims on leaf1 share its two uplinks: 66.7 Mbit/s each; two go whole on
        // one uplink each, the third takes what both leave (33.3 + 33.3) and is split by the L4 source port
        NetworkConfig cfg = leafSpine(2, 2, 3, 100);
        AllocationModel m = ProblemAdapter.build(inputs(cfg, List.of(tenant("red", 1, null)), List.of(
                session("s1", "red", "h1", "h4", null), session("s2", "red", "h2", "h5", null), session("s3", "red", "h3", "h6", null)), Set.of()));
        AllocationResult r = AllocationResult.of(1, "t", m, new ExactAllocator(1e-8, 200).solve(m.problem()));
        Map<Long, List<TableEntry>> bySource = new HashMap<>();
        for (TableEntry t : byTable(plane.entities(r, List.of()).get("device:leaf1")).get("FabricIngress.path_classifier.path_classifier")) {
            bySource.computeIfAbsent(new java.math.BigInteger(1, t.getMatch(0).getTernary().getValue().toByteArray()).longValue(),
                    k -> new ArrayList<>()).add(t);
        }
        assertEquals(1, bySource.get(0x0a000101L).size());
        assertEquals(1, bySource.get(0x0a000102L).size());
        List<TableEntry> split = bySource.get(0x0a000103L);
        assertEquals(1 << AllocationDataPlane.BUCKET_BITS, split.size());
        Set<Long> buckets = new HashSet<>();
        Map<Long, Integer> perPath = new HashMap<>();
        for (TableEntry t : split) {
            buckets.add(new java.math.BigInteger(1, t.getMatch(2).getTernary().getValue().toByteArray()).longValue());
            perPath.merge(param(t, 0), 1, Integer::sum);
        }
        assertEquals(16, buckets.size());
        SessionAllocation s3 = r.sessions().get(2);
        int[] expected = AllocationDataPlane.buckets(s3.paths());
        assertArrayEquals(new int[] {8, 8}, expected);
        for (int j = 0; j < s3.paths().size(); j++) {
            assertEquals(expected[j], perPath.getOrDefault((long) s3.paths().get(j).pathId(), 0));
        }
    }

    @Test
    void bucketsFollowTheRatesAndAOnePathSessionIsOneEntry() {
        assertArrayEquals(new int[] {12, 4}, AllocationDataPlane.buckets(List.of(
                new PathAllocation(1, List.of(), 75e6), new PathAllocation(2, List.of(), 25e6))));
        assertArrayEquals(new int[] {6, 5, 5}, AllocationDataPlane.buckets(List.of(
                new PathAllocation(1, List.of(), 1), new PathAllocation(2, List.of(), 1), new PathAllocation(3, List.of(), 1))));
        assertArrayEquals(new int[] {0, 16}, AllocationDataPlane.buckets(List.of(
                new PathAllocation(1, List.of(), 1e-9), new PathAllocation(2, List.of(), 5e6))));
    }
}
