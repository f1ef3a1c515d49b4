package org.fairfabric.controller.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.routing.Metric;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/** The entities of the k=4 fat-tree (Al-Fares addressing) and the 4x4 leaf-spine, against the real fabric P4Info. */
class FabricPlanTest {
    static P4InfoIndex p4;

    @BeforeAll
    static void p4info() throws Exception {
        p4 = new P4InfoIndex(P4InfoIndex.parseText(Files.readString(Path.of("../../pipeconfs/p4/p4info.txt"))));
    }

    static Topology topo(String json) {
        return CoreTopology.build(new NetworkConfigParser().parse(json), List.of());
    }

    /** Every switch with uplinks: all of them in level 0 of each metric, levels 1 and 2 empty. */
    static Map<Metric, List<SortedSet<Integer>>> allInLevelZero(Topology t, String device) {
        List<Integer> ups = new ArrayList<>();
        t.upwardLinks(device).forEach(l -> ups.add(l.src().port()));
        if (ups.isEmpty()) {
            return null;
        }
        Map<Metric, List<SortedSet<Integer>>> m = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.values()) {
            m.put(metric, List.of(new TreeSet<>(ups), new TreeSet<>(), new TreeSet<>()));
        }
        return m;
    }

    static Map<String, List<Entity>> plan(Topology t) {
        return new FabricPlan(p4, 255, 10).entities(t, d -> "02:aa:00:00:00:01", d -> allInLevelZero(t, d));
    }

    /** table name → entries of that table on the device. */
    static Map<String, List<TableEntry>> byTable(List<Entity> entities) {
        Map<Integer, String> names = new HashMap<>();
        p4.p4info().getTablesList().forEach(tb -> names.put(tb.getPreamble().getId(), tb.getPreamble().getName()));
        Map<String, List<TableEntry>> out = new HashMap<>();
        for (Entity e : entities) {
            if (e.hasTableEntry()) {
                out.computeIfAbsent(names.get(e.getTableEntry().getTableId()), k -> new ArrayList<>()).add(e.getTableEntry());
            }
        }
        return out;
    }

    static Map<String, Integer> routes(List<TableEntry> entries) {
        Map<String, Integer> out = new HashMap<>();
        for (TableEntry e : entries) {
            byte[] v = e.getMatch(0).getLpm().getValue().toByteArray();
            long ip = 0;
            for (byte b : v) {
                ip = (ip << 8) | (b & 0xff);
            }
            String dotted = (ip >> 24 & 255) + "." + (ip >> 16 & 255) + "." + (ip >> 8 & 255) + "." + (ip & 255);
            assertEquals(32, e.getMatch(0).getLpm().getPrefixLen());
            byte[] port = e.getAction().getAction().getParams(0).getValue().toByteArray();
            out.put(dotted, port[port.length - 1] & 0xff);
        }
        return out;
    }

    @Test
    void fatTreeRoutesDownByAlFaresAddressesAndUpByGroups() {
        Topology t = topo(FabricConfigs.fatTree(4, "127.0.0.1", 50001, 100));
        Map<String, List<Entity>> plan = plan(t);
        assertEquals(20, plan.size());

        Map<String, List<TableEntry>> edge = byTable(plan.get("device:edge00"));
        Map<String, Integer> down = routes(edge.get(FabricEntities.ROUTING_DOWN));
        assertEquals(Map.of("10.0.0.2", 1, "10.0.0.3", 2), down, "an edge routes down only to its own hosts");
        assertEquals(16, edge.get(FabricEntities.ARP_TABLE).size(), "proxy ARP for every host");
        assertEquals(4, edge.get(FabricEntities.PINNED_PATH).size(), "4 path ids in a k=4 fat-tree");
        for (FabricEntities.UpwardTable ut : FabricEntities.UpwardTable.values()) {
            assertEquals(1, edge.get(ut.table).size(), "one entry: the one non-empty level");
            assertEquals(3, edge.get(ut.table).get(0).getPriority(), "level 0 of 3 has the highest priority");
        }
        long members = plan.get("device:edge00").stream().filter(Entity::hasActionProfileMember).count();
        assertEquals(6, members, "two uplinks in each of three selectors");

        Map<String, Integer> agg = routes(byTable(plan.get("device:agg00")).get(FabricEntities.ROUTING_DOWN));
        assertEquals(4, agg.size(), "aggregation routes down to its pod's four hosts");
        assertEquals(1, agg.get("10.0.0.2"));
        assertEquals(2, agg.get("10.0.1.3"));

        Map<String, List<TableEntry>> core = byTable(plan.get("device:core1"));
        Map<String, Integer> coreRoutes = routes(core.get(FabricEntities.ROUTING_DOWN));
        assertEquals(16, coreRoutes.size(), "a core reaches every host");
        assertEquals(4, coreRoutes.get("10.3.1.2"), "pod 3 on core port 4");
        assertTrue(core.get(FabricEntities.UpwardTable.QUEUE_DEPTH.table) == null, "cores have no uplinks");
        assertTrue(core.get(FabricEntities.ARP_TABLE) == null, "cores have no hosts");
        assertEquals(4, core.get(FabricEntities.PORT_MACS).size());
    }

    @Test
    void leafSpineLeavesHaveFourUplinksInOneGroup() {
        Topology t = topo(FabricConfigs.leafSpine(4, 4, 4, "127.0.0.1", 50001, 100));
        Map<String, List<Entity>> plan = plan(t);
        Entity group = plan.get("device:leaf1").stream().filter(Entity::hasActionProfileGroup).findFirst().orElseThrow();
        assertEquals(4, group.getActionProfileGroup().getMembersCount());
        assertEquals(Map.of("10.0.1.1", 1, "10.0.1.2", 2, "10.0.1.3", 3, "10.0.1.4", 4),
                routes(byTable(plan.get("device:leaf1")).get(FabricEntities.ROUTING_DOWN)));
        Map<String, Integer> spine = routes(byTable(plan.get("device:spine2")).get(FabricEntities.ROUTING_DOWN));
        assertEquals(16, spine.size());
        assertEquals(3, spine.get("10.0.3.4"), "leaf 3 on spine port 3");
        Map<String, List<TableEntry>> leaf = byTable(plan.get("device:leaf1"));
        assertEquals(4, leaf.get(FabricEntities.QUEUE_SENSING).size(), "queue depth sensed on the four uplinks");
    }

    @Test
    void emptyLevelsHaveNeitherGroupNorEntry() {
        Topology t = topo(FabricConfigs.leafSpine(2, 2, 1, "127.0.0.1", 50001, 100));
        Map<Metric, List<SortedSet<Integer>>> moved = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            moved.put(m, List.of(new TreeSet<>(List.of(3)), new TreeSet<>(), new TreeSet<>(List.of(2))));
        }
        List<Entity> leaf = new FabricPlan(p4, 255, 0).entities(t, d -> "02:aa:00:00:00:01",
                d -> d.equals("device:leaf1") ? moved : null).get("device:leaf1");
        List<TableEntry> queue = byTable(leaf).get(FabricEntities.UpwardTable.QUEUE_DEPTH.table);
        assertEquals(2, queue.size());
        assertEquals(List.of(3, 1), List.of(queue.get(0).getPriority(), queue.get(1).getPriority()));
        assertEquals(List.of(1, 3), List.of(queue.get(0).getAction().getActionProfileGroupId(),
                queue.get(1).getAction().getActionProfileGroupId()), "group id = level + 1");
        assertTrue(byTable(leaf).get(FabricEntities.QUEUE_SENSING) == null, "delta 0: no queue sensing");
    }
}
