package org.fairfabric.controller.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.AllocationProblemBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ArrivalAllocationTest {
    static final double NONE = AllocationProblem.NO_DEMAND;

    /**
     * One row: links "id:capacity", sessions "id weight demand minimum path[,path…]" with paths as
     * link ids joined by '+', the rates in force per path ("id" → rates, the newcomers' absent),
     * the newcomers, and the first newcomer's expected rate (NaN: only the generic checks; null: no
     * interim allocation) and other sessions' expected totals.
     */
    record Row(String name, String links, List<String> sessions, Map<String, double[]> inForce, List<String> newcomers, Double expected,
               Map<String, Double> totals) {
        Row(String name, String links, List<String> sessions, Map<String, double[]> inForce, List<String> newcomers, Double expected) {
            this(name, links, sessions, inForce, newcomers, expected, Map.of());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("a free link: the newcomer takes its demand, nobody is cut", "L:100",
                        List.of("s1 1 40 0 L", "n 1 30 0 L"), Map.of("s1", new double[] {40}), List.of("n"), 30.0),
                new Row("a full link of two at 2:1: the newcomer of weight 1 gets its PF share, 1/4", "L:100",
                        List.of("s1 2 inf 0 L", "s2 1 inf 0 L", "n 1 inf 0 L"),
                        Map.of("s1", new double[] {200.0 / 3}, "s2", new double[] {100.0 / 3}), List.of("n"), 25.0, Map.of("s1", 50.0, "s2", 25.0)),
                new Row("a session held back elsewhere keeps its rate on the shared link", "L:100,M:10",
                        List.of("s1 1 inf 0 L+M", "s2 1 inf 0 L", "n 1 inf 0 L"),
                        Map.of("s1", new double[] {10}, "s2", new double[] {90}), List.of("n"), 45.0, Map.of("s1", 10.0, "s2", 45.0)),
                new Row("the others stop at their guarantees: the newcomer gets what is above them", "L:100",
                        List.of("s1 1 inf 45 L", "s2 1 inf 45 L", "n 1 inf 5 L"),
                        Map.of("s1", new double[] {50}, "s2", new double[] {50}), List.of("n"), 10.0, Map.of("s1", 45.0, "s2", 45.0)),
                new Row("the path with the larger share, the other path's session untouched", "C:1000,A:100,B:100,D:1000",
                        List.of("s1 1 inf 0 A", "s2 1 inf 0 D+B", "s3 1 inf 0 B", "n 1 inf 0 C+A,C+B"),
                        Map.of("s1", new double[] {100}, "s2", new double[] {50}, "s3", new double[] {50}), List.of("n"), 50.0),
                new Row("a split session is cut on the full link's path only, and keeps its guarantee", "A:100,B:100",
                        List.of("s1 1 inf 60 A,B", "s2 1 inf 0 A", "n 1 inf 0 A"),
                        Map.of("s1", new double[] {50, 50}, "s2", new double[] {50}), List.of("n"), 100.0 / 3,
                        Map.of("s1", 50 + 100.0 / 3, "s2", 100.0 / 3)),
                new Row("two newcomers, one after the other", "L:90",
                        List.of("s1 1 inf 0 L", "n1 1 inf 0 L", "n2 1 inf 0 L"),
                        Map.of("s1", new double[] {90}), List.of("n1", "n2"), 30.0, Map.of("s1", 30.0, "n2", 30.0)),
                new Row("a departure alone: the others keep their rates", "L:100",
                        List.of("s1 1 inf 0 L"), Map.of("s1", new double[] {50}), List.of(), Double.NaN),
                new Row("no room for the newcomer's guarantee: no interim allocation", "L:100",
                        List.of("s1 1 inf 50 L", "s2 1 inf 50 L", "n 1 inf 10 L"),
                        Map.of("s1", new double[] {50}, "s2", new double[] {50}), List.of("n"), null),
                new Row("every other session at its guarantee: nothing for the newcomer, no interim allocation", "L:100",
                        List.of("s1 1 inf 100 L", "n 1 inf 0 L"), Map.of("s1", new double[] {100}), List.of("n"), null),
                new Row("a kept session below its new minimum (a departure raised its share): none", "L:100",
                        List.of("s1 1 inf 60 L"), Map.of("s1", new double[] {50}), List.of(), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void interimAllocation(Row row) {
        AllocationProblem p = problem(row);
        double[] inForce = new double[p.pathCount()];
        row.inForce().forEach((id, rates) -> {
            int i = p.sessionIndex(id);
            System.arraycopy(rates, 0, inForce, p.firstPath(i), rates.length);
        });
        int[] newcomers = row.newcomers().stream().mapToInt(p::sessionIndex).toArray();
        double[] before = inForce.clone();
        double[] rates = ArrivalAllocation.of(p, inForce, newcomers);
        assertTrue(Arrays.equals(before, inForce), "the rates in force are not modified");
        if (row.expected() == null) {
            assertNull(rates);
            return;
        }
        assertNotNull(rates);
        // capacities, by an independent sum over every path of every link
        for (int e = 0; e < p.linkCount(); e++) {
            double load = 0;
            for (int q = 0; q < p.pathCount(); q++) {
                for (int k = 0; k < p.pathLength(q); k++) {
                    load += p.pathLink(q, k) == e ? rates[q] : 0;
                }
            }
            assertTrue(load <= p.capacity(e) * (1 + 1e-9), p.linkId(e) + " carries " + load);
        }
        List<Integer> touchedLinks = new ArrayList<>();
        for (int n : newcomers) {
            int used = 0;
            for (int q = p.firstPath(n); q < p.endPath(n); q++) {
                if (rates[q] > 0) {
                    used++;
                    for (int k = 0; k < p.pathLength(q); k++) {
                        touchedLinks.add(p.pathLink(q, k));
                    }
                }
            }
            assertEquals(1, used, "newcomer " + p.sessionId(n) + " on one path");
            double total = total(p, rates, n);
            assertTrue(total > 0 && total <= p.demand(n) * (1 + 1e-9), "newcomer " + p.sessionId(n) + " at " + total);
        }
        if (!row.expected().isNaN()) {
            assertEquals(row.expected(), total(p, rates, newcomers[0]), 1e-9 * 100, "the newcomer when placed");
        }
        row.totals().forEach((id, total) -> assertEquals(total, total(p, rates, p.sessionIndex(id)), 1e-9 * 100, id));
        for (int i = 0; i < p.sessionCount(); i++) {
            assertTrue(total(p, rates, i) >= p.minRate(i) * (1 - 1e-9), p.sessionId(i) + " below its guarantee");
            if (row.newcomers().contains(p.sessionId(i))) {
                continue;
            }
            boolean shares = false;
            for (int q = p.firstPath(i); q < p.endPath(i); q++) {
                assertTrue(rates[q] <= inForce[q] * (1 + 1e-12), "no kept path grows");
                for (int k = 0; k < p.pathLength(q); k++) {
                    shares |= inForce[q] > 0 && touchedLinks.contains(p.pathLink(q, k));
                }
            }
            if (!shares) {
                for (int q = p.firstPath(i); q < p.endPath(i); q++) {
                    assertEquals(inForce[q], rates[q], "session " + p.sessionId(i) + " shares no link with a newcomer: untouched");
                }
            }
        }
    }

    static double total(AllocationProblem p, double[] rates, int i) {
        double sum = 0;
        for (int q = p.firstPath(i); q < p.endPath(i); q++) {
            sum += rates[q];
        }
        return sum;
    }

    static AllocationProblem problem(Row row) {
        AllocationProblemBuilder b = new AllocationProblemBuilder();
        Map<String, Double> caps = new HashMap<>();
        for (String l : row.links().split(",")) {
            String[] f = l.split(":");
            caps.put(f[0], Double.parseDouble(f[1]));
            b.addLink(f[0], Double.parseDouble(f[1]));
        }
        for (String s : row.sessions()) {
            String[] f = s.split(" ");
            List<List<String>> paths = new ArrayList<>();
            for (String path : f[4].split(",")) {
                paths.add(List.of(path.split("\\+")));
            }
            double demand = f[2].equals("inf") ? NONE : Double.parseDouble(f[2]);
            b.addSession(f[0], Double.parseDouble(f[1]), demand, Double.parseDouble(f[3]), paths);
        }
        return b.build();
    }
}
