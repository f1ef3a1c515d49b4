package org.fairfabric.controller.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.FabricConfigs;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.routing.Metric;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * The P4TE loop recomputes only a switch's routing-group entities: the switch's entities without
 * groups followed by {@code upwardEntitiesOf} must be exactly what the full plan gives, for any
 * membership.
 */
class FabricPlanUpwardTest {
    static P4InfoIndex p4;

    @BeforeAll
    static void p4info() throws Exception {
        p4 = new P4InfoIndex(P4InfoIndex.parseText(Files.readString(Path.of("../../pipeconfs/p4/p4info.txt"))));
    }

    static Map<Metric, List<SortedSet<Integer>>> allInLevelZero(Topology t, String device) {
        List<Integer> ups = new ArrayList<>();
        t.upwardLinks(device).forEach(l -> ups.add(l.src().port()));
        Map<Metric, List<SortedSet<Integer>>> m = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.values()) {
            m.put(metric, List.of(new TreeSet<>(ups), new TreeSet<>(), new TreeSet<>()));
        }
        return m;
    }

    @Test
    void baseAndUpwardEntitiesAreTheFullPlanForEveryMembership() {
        Topology t = CoreTopology.build(new NetworkConfigParser().parse(FabricConfigs.leafSpine(4, 4, 4, "127.0.0.1", 50000, 10)), List.of());
        FabricPlan plan = new FabricPlan(p4, 255, 10);
        String leaf = "device:leaf2";
        List<Map<Metric, List<SortedSet<Integer>>>> memberships = List.of(
                allInLevelZero(t, leaf),
                // port 5 one level down in the queue table, port 6 two levels down in the utilisation table
                moved(allInLevelZero(t, leaf), Metric.QUEUE_DEPTH, 5, 1),
                moved(moved(allInLevelZero(t, leaf), Metric.LINK_UTILIZATION, 6, 2), Metric.DELAY, 8, 1));
        // no failure, and spine1's link to leaf3 reported failed (leaf2 then detours leaf3's hosts)
        for (Set<ConnectPoint> failed : List.of(Set.<ConnectPoint>of(), Set.of(new ConnectPoint("device:spine1", 3)))) {
            check(t, plan, leaf, memberships, failed);
        }
        assertNotEquals(plan.entitiesOf(t, leaf, d -> "02:aa:00:00:00:02", memberships.get(0), Set.of()),
                plan.entitiesOf(t, leaf, d -> "02:aa:00:00:00:02", memberships.get(0), Set.of(new ConnectPoint("device:spine1", 3))));
    }

    static void check(Topology t, FabricPlan plan, String leaf, List<Map<Metric, List<SortedSet<Integer>>>> memberships,
                      Set<ConnectPoint> failed) {
        List<Entity> first = null;
        for (Map<Metric, List<SortedSet<Integer>>> groups : memberships) {
            List<Entity> incremental = new ArrayList<>(plan.entitiesOf(t, leaf, d -> "02:aa:00:00:00:02", null));
            incremental.addAll(plan.upwardEntitiesOf(t, leaf, groups, failed));
            List<Entity> full = plan.entitiesOf(t, leaf, d -> "02:aa:00:00:00:02", groups, failed);
            assertEquals(full, incremental);
            if (first == null) {
                first = full;
            } else {
                assertNotEquals(first, full); // the memberships really differ on the switch
            }
        }
    }

    static Map<Metric, List<SortedSet<Integer>>> moved(Map<Metric, List<SortedSet<Integer>>> groups, Metric m, int port, int level) {
        Map<Metric, List<SortedSet<Integer>>> out = new EnumMap<>(Metric.class);
        groups.forEach((metric, levels) -> {
            List<SortedSet<Integer>> copy = new ArrayList<>();
            levels.forEach(l -> copy.add(new TreeSet<>(l)));
            out.put(metric, copy);
        });
        out.get(m).forEach(l -> l.remove(port));
        out.get(m).get(level).add(port);
        return out;
    }
}
