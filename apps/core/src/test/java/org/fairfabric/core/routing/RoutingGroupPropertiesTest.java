package org.fairfabric.core.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class RoutingGroupPropertiesTest {
    private static final List<Integer> PORTS = List.of(1, 2, 3, 4);

    /** Op codes: 0 = INCREASE, 1 = DECREASE, 2 = port down, 3 = port up. */
    @Provide
    Arbitrary<List<int[]>> operations() {
        return Arbitraries.integers().between(0, 3).tuple2()
                .map(t -> new int[] {t.get1(), PORTS.get(Math.floorMod(t.get2(), 4))})
                .list().ofMinSize(1).ofMaxSize(200);
    }

    @Property(tries = 300)
    void noLivePortIsEverInNoGroup(@ForAll("operations") List<int[]> ops, @ForAll @IntRange(min = 1, max = 6) int n) {
        RoutingGroupTable t = new RoutingGroupTable("d", Metric.QUEUE_DEPTH, n, PORTS);
        Map<Integer, Set<Integer>> dataPlane = new HashMap<>();
        apply(dataPlane, t.initialMembership(), t, new HashSet<>(PORTS));
        for (int[] op : ops) {
            List<GroupMembershipChange> writes;
            Set<Integer> exempt = new HashSet<>();
            if (op[0] == 0) {
                writes = t.onEvent(op[1], Trend.INCREASE);
            } else if (op[0] == 1) {
                writes = t.onEvent(op[1], Trend.DECREASE);
            } else if (op[0] == 2) {
                writes = t.portDown(op[1]);
                exempt.add(op[1]);
            } else {
                writes = t.portUp(op[1]);
                exempt.add(op[1]);
            }
            apply(dataPlane, writes, t, exempt);
            for (int p : PORTS) {
                Set<Integer> groups = dataPlane.getOrDefault(p, Set.of());
                if (t.isUp(p)) {
                    assertEquals(Set.of(t.groupOf(p).getAsInt()), groups, "data plane mirrors the model");
                    assertTrue(t.groupOf(p).getAsInt() >= 0 && t.groupOf(p).getAsInt() < n);
                } else {
                    assertTrue(groups.isEmpty());
                }
            }
        }
    }

    /** Applies writes one at a time and checks after each one that no live port left all groups. */
    private static void apply(Map<Integer, Set<Integer>> dataPlane, List<GroupMembershipChange> writes,
                              RoutingGroupTable t, Set<Integer> exempt) {
        for (GroupMembershipChange w : writes) {
            Set<Integer> groups = dataPlane.computeIfAbsent(w.port(), k -> new HashSet<>());
            if (w.kind() == GroupMembershipChange.Kind.ADD) {
                assertTrue(groups.add(w.groupId()), "no duplicate add");
            } else {
                assertTrue(groups.remove(w.groupId()), "remove only what is there");
            }
            for (int p : PORTS) {
                if (!exempt.contains(p) && t.isUp(p)) {
                    assertFalse(dataPlane.getOrDefault(p, Set.of()).isEmpty(), "port " + p + " in no group");
                }
            }
        }
    }

    @Property(tries = 200)
    void boundedMovesWriteNothing(@ForAll @Size(max = 50) List<@IntRange(min = 0, max = 1) Integer> trends) {
        RoutingGroupTable t = new RoutingGroupTable("d", Metric.DELAY, 3, PORTS);
        for (int tr : trends) {
            int before = t.groupOf(1).getAsInt();
            Trend trend = tr == 0 ? Trend.INCREASE : Trend.DECREASE;
            int writes = t.onEvent(1, trend).size();
            int after = t.groupOf(1).getAsInt();
            assertEquals(before == after ? 0 : 2, writes);
            assertEquals(1, Math.abs(after - before) + (before == after ? 1 : 0), "one step at most");
        }
    }
}
