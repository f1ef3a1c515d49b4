package org.fairfabric.controller.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Topology;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/** Which uplinks a failed downward link dead-ends, and the per-destination groups the plan gives for it. */
class DownlinkDetoursTest {
    static final Topology LEAF_SPINE = FabricPlanTest.topo(FabricConfigs.leafSpine(4, 4, 4, "127.0.0.1", 50001, 100));
    static final Topology FAT_TREE = FabricPlanTest.topo(FabricConfigs.fatTree(4, "127.0.0.1", 50001, 100));

    @BeforeAll
    static void p4info() throws Exception {
        FabricPlanTest.p4info();
    }

    static Map<String, Map<String, SortedSet<Integer>>> avoid(Topology t, ConnectPoint... failed) {
        DownlinkDetours d = new DownlinkDetours(t, Set.of(failed));
        Map<String, Map<String, SortedSet<Integer>>> out = new TreeMap<>();
        for (String dev : t.devices().keySet()) {
            Map<String, SortedSet<Integer>> a = d.avoid(dev);
            if (!a.isEmpty()) {
                out.put(dev, a);
            }
        }
        return out;
    }

    static SortedSet<Integer> ports(Integer... p) {
        return new TreeSet<>(List.of(p));
    }

    @Test
    void nothingFailedNothingAvoided() {
        assertEquals(Map.of(), avoid(LEAF_SPINE));
        assertEquals(Map.of(), avoid(FAT_TREE));
    }

    @Test
    void leafSpineOtherLeavesAvoidTheSpineThatLostTheLeaf() {
        // leaf1 port 6 <-> spine2 port 1, reported by either end: spine2 can no longer reach leaf1
        for (ConnectPoint reporter : List.of(new ConnectPoint("device:leaf1", 6), new ConnectPoint("device:spine2", 1))) {
            Map<String, Map<String, SortedSet<Integer>>> expected = new TreeMap<>();
            for (String leaf : List.of("device:leaf2", "device:leaf3", "device:leaf4")) {
                expected.put(leaf, Map.of("device:leaf1", ports(6)));
            }
            assertEquals(expected, avoid(LEAF_SPINE, reporter), reporter.toString());
        }
    }

    @Test
    void fatTreeAggregationToEdgeFailure() {
        // agg00 port 1 <-> edge00 port 3: agg00 and the cores above it (core1, core2) lose edge00
        Map<String, Map<String, SortedSet<Integer>>> a = avoid(FAT_TREE, new ConnectPoint("device:agg00", 1));
        Map<String, Map<String, SortedSet<Integer>>> expected = new TreeMap<>();
        expected.put("device:edge01", Map.of("device:edge00", ports(3))); // its uplink to agg00
        for (int pod = 1; pod < 4; pod++) {
            for (int e = 0; e < 2; e++) {
                expected.put("device:edge" + pod + e, Map.of("device:edge00", ports(3))); // to agg<pod>0, whose cores lead to agg00
            }
        }
        // agg<pod>0 of the other pods: both its cores are dead ends, so nothing is gained there
        assertEquals(expected, a);
    }

    @Test
    void fatTreeCoreToAggregationFailure() {
        // agg00 port 3 <-> core1 port 1: core1 loses pod 0; the other pods' agg<pod>0 avoid core1 (their port 3)
        Map<String, Map<String, SortedSet<Integer>>> a = avoid(FAT_TREE, new ConnectPoint("device:core1", 1));
        Map<String, Map<String, SortedSet<Integer>>> expected = new TreeMap<>();
        for (int pod = 1; pod < 4; pod++) {
            expected.put("device:agg" + pod + "0", Map.of("device:edge00", ports(3), "device:edge01", ports(3)));
        }
        assertEquals(expected, a);
    }

    @Test
    void planGivesTheCutLeafsHostsGroupsWithoutTheDeadEndedUplink() {
        Topology t = LEAF_SPINE;
        FabricPlan plan = new FabricPlan(FabricPlanTest.p4, 255, 10);
        Map<String, List<Entity>> healthy = FabricPlanTest.plan(t);
        Map<String, List<Entity>> cut = plan.entities(t, d -> "02:aa:00:00:00:01", d -> FabricPlanTest.allInLevelZero(t, d),
                Set.of(new ConnectPoint("device:leaf1", 6)));
        assertEquals(healthy.get("device:leaf1"), cut.get("device:leaf1"), "leaf1 itself: its groups come from the routing-group service");
        assertEquals(healthy.get("device:spine2"), cut.get("device:spine2"));

        List<Entity> leaf2 = cut.get("device:leaf2");
        List<Entity> extra = new ArrayList<>(leaf2);
        extra.removeAll(healthy.get("device:leaf2"));
        // per metric: one group (id 4: set 1, level 0) without port 6, and a /32 per host of leaf1 at priority 6
        Map<Integer, List<Integer>> groups = new TreeMap<>();
        List<TableEntry> entries = new ArrayList<>();
        for (Entity e : extra) {
            if (e.hasActionProfileGroup()) {
                ActionProfileGroup g = e.getActionProfileGroup();
                List<Integer> members = new ArrayList<>();
                g.getMembersList().forEach(m -> members.add(m.getMemberId()));
                assertEquals(List.of(5, 7, 8), members);
                groups.merge(g.getGroupId(), members, (x, y) -> x);
            } else {
                entries.add(e.getTableEntry());
            }
        }
        assertEquals(Set.of(4), groups.keySet());
        assertEquals(3 * 4, entries.size(), "3 metrics x 4 hosts of leaf1");
        Set<String> hosts = new TreeSet<>();
        for (TableEntry e : entries) {
            assertEquals(6, e.getPriority(), "above every DCN entry (priorities 1-3)");
            assertEquals(4, e.getAction().getActionProfileGroupId());
            assertEquals(4, e.getMatch(0).getTernary().getMask().size(), "a /32 mask");
            byte[] v = e.getMatch(0).getTernary().getValue().toByteArray();
            hosts.add(String.format("%d.%d.%d.%d", v[v.length - 4] & 255, v[v.length - 3] & 255, v[v.length - 2] & 255, v[v.length - 1] & 255));
        }
        assertEquals(Set.of("10.0.1.1", "10.0.1.2", "10.0.1.3", "10.0.1.4"), hosts);
        assertTrue(leaf2.containsAll(healthy.get("device:leaf2")), "the DCN groups stay");

        // recovery: no failed port, the plan is the healthy one again (the detours are deleted)
        assertEquals(healthy, plan.entities(t, d -> "02:aa:00:00:00:01", d -> FabricPlanTest.allInLevelZero(t, d), Set.of()));
    }
}
