package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FatTreeGeneratorTest {
    @Test
    void sizesFollowTheFatTree() {
        for (int k : new int[] {4, 8, 16}) {
            AllocationProblem pb = new FatTreeGenerator(k, 50, 8, 1).generate();
            // k³/4 hosts, k²/2 edge and k²/2 aggregation switches, k²/4 cores; every link both ways.
            assertEquals(2 * 3 * k * k * k / 4, pb.linkCount());
            for (int i = 0; i < pb.sessionCount(); i++) {
                int paths = pb.endPath(i) - pb.firstPath(i);
                int length = pb.pathLength(pb.firstPath(i));
                int expected = length == 6 ? Math.min(8, k * k / 4) : length == 4 ? Math.min(8, k / 2) : 1;
                assertEquals(expected, paths, "session " + i);
                assertTrue(pb.weight(i) >= 1 && pb.weight(i) <= 4);
                assertTrue(pb.minRate(i) <= pb.demand(i));
            }
        }
    }

    @Test
    void sameSeedSameProblemOtherSeedOtherProblem() {
        AllocationProblem a = new FatTreeGenerator(8, 100, 4, 42).generate();
        AllocationProblem b = new FatTreeGenerator(8, 100, 4, 42).generate();
        AllocationProblem c = new FatTreeGenerator(8, 100, 4, 43).generate();
        assertArrayEquals(a.pathLinksArray(), b.pathLinksArray());
        assertArrayEquals(a.weightArray(), b.weightArray());
        assertArrayEquals(a.demandArray(), b.demandArray());
        assertNotEquals(java.util.Arrays.toString(a.pathLinksArray()), java.util.Arrays.toString(c.pathLinksArray()));
    }

    @Test
    void pathsAreDistinctAndConnectTheSameHosts() {
        AllocationProblem pb = new FatTreeGenerator(4, 30, 4, 5).generate();
        for (int i = 0; i < pb.sessionCount(); i++) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int p = pb.firstPath(i); p < pb.endPath(i); p++) {
                StringBuilder key = new StringBuilder();
                for (int k = 0; k < pb.pathLength(p); k++) {
                    key.append(pb.linkId(pb.pathLink(p, k))).append(' ');
                }
                assertTrue(seen.add(key.toString()), "duplicate path " + key);
                String first = pb.linkId(pb.pathLink(p, 0));
                String last = pb.linkId(pb.pathLink(p, pb.pathLength(p) - 1));
                assertEquals(pb.linkId(pb.pathLink(pb.firstPath(i), 0)), first);
                assertEquals(pb.linkId(pb.pathLink(pb.firstPath(i), pb.pathLength(pb.firstPath(i)) - 1)), last);
                assertTrue(first.startsWith("h") && last.contains(">h"));
            }
        }
    }
}
