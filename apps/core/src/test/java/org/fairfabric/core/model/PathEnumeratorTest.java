package org.fairfabric.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PathEnumeratorTest {
    private static final long GBPS = 1_000_000_000L;

    private static List<Integer> ids(List<Path> paths) {
        List<Integer> out = new ArrayList<>();
        for (Path p : paths) {
            out.add(p.id());
        }
        return out;
    }

    @Test
    void fatTreeK4HasPromenadeSizes() {
        Topology t = FatTree.build(4, GBPS);
        assertEquals(16, t.hosts().size());
        assertEquals(20, t.devices().size());
        assertEquals(96, t.links().size(), "48 cables, two directed links each");
        assertEquals("10.4.1.2", t.device("c1").address());
        assertEquals("10.1.1.3", t.host("h7").ip());
        assertEquals(DeviceRole.CORE, t.device("c3").role());
    }

    @Test
    void fatTreeK4InterPodPairHasFourPathsOneThroughEachCore() {
        Topology t = FatTree.build(4, GBPS);
        List<Path> paths = new PathEnumerator(t).paths("h0", "h15");
        assertEquals(List.of(1, 2, 3, 4), ids(paths));
        Set<String> cores = new HashSet<>();
        for (Path p : paths) {
            assertEquals(6, p.links().size(), "host-edge-agg-core-agg-edge-host");
            cores.add(p.devices().get(2));
        }
        assertEquals(Set.of("c0", "c1", "c2", "c3"), cores);
        // id - 1 = a + i*(k/2): path 2 goes up through aggregation 1 and its first core (c2).
        assertEquals(List.of("p0e0", "p0a1", "c2", "p3a1", "p3e1"), paths.get(1).devices());
        assertEquals(List.of("p0e0", "p0a0", "c1", "p3a0", "p3e1"), paths.get(2).devices());
    }

    @Test
    void fatTreeK4IntraPodAndSameEdgePairs() {
        PathEnumerator e = new PathEnumerator(FatTree.build(4, GBPS));
        List<Path> intraPod = e.paths("h0", "h2");
        assertEquals(List.of(1, 2), ids(intraPod));
        assertEquals(List.of("p0e0", "p0a1", "p0e1"), intraPod.get(1).devices());
        List<Path> sameEdge = e.paths("h0", "h1");
        assertEquals(List.of(1), ids(sameEdge));
        assertEquals(List.of("p0e0"), sameEdge.get(0).devices());
    }

    @Test
    void pathIdsDecodeToTheUpwardPortEachSwitchTakes() {
        Topology t = FatTree.build(8, GBPS);
        PathEnumerator e = new PathEnumerator(t);
        int[] radices = e.radices();
        List<Path> paths = e.paths("h0", "h127");
        assertEquals(16, paths.size());
        for (Path p : paths) {
            for (int hop = 0; hop < 2; hop++) {
                Link up = p.links().get(hop + 1);
                List<Link> ups = t.upwardLinks(up.src().elementId());
                assertEquals(ups.indexOf(up), PathIds.upChoice(p.id(), hop, radices));
            }
        }
    }

    @Test
    void idsAreStableAcrossBuildsAndLinkFailures() {
        Topology a = FatTree.build(4, GBPS);
        Topology b = FatTree.build(4, GBPS);
        assertEquals(new PathEnumerator(a).paths("h3", "h9"), new PathEnumerator(b).paths("h3", "h9"));
        Link coreLink = new PathEnumerator(a).paths("h3", "h9").get(0).links().get(2);
        Topology failed = a.withLinkState(coreLink.id(), LinkState.DOWN);
        List<Path> after = new PathEnumerator(failed).paths("h3", "h9");
        assertEquals(List.of(1, 2, 3, 4), ids(after));
        assertFalse(after.get(0).isUpIn(failed));
        assertTrue(after.get(1).isUpIn(failed));
    }

    @Test
    void leafSpineHasOnePathPerSpine() {
        Topology t = LeafSpine.build(4, 4, 4, 40, 20);
        assertEquals(16, t.hosts().size());
        List<Path> paths = new PathEnumerator(t).paths("h0", "h15");
        assertEquals(List.of(1, 2, 3, 4), ids(paths));
        assertEquals(List.of("p0l0", "p0s2", "p0l3"), paths.get(2).devices());
        assertEquals(4, t.upwardLinks("p0l1").size());
    }

    @Test
    void pinnedUpPortTablesFollowThePathIds() {
        Topology t = FatTree.build(4, GBPS);
        PathEnumerator e = new PathEnumerator(t);
        assertEquals(4, e.pathIdCount());
        assertEquals(java.util.Map.of(1, 3, 2, 4, 3, 3, 4, 4), e.pinnedUpPorts("p0e0"));
        assertEquals(java.util.Map.of(1, 3, 2, 3, 3, 4, 4, 4), e.pinnedUpPorts("p2a1"));
        assertTrue(e.pinnedUpPorts("c0").isEmpty());
        for (Path p : e.paths("h0", "h15")) {
            for (int hop = 1; hop <= 2; hop++) {
                Link up = p.links().get(hop);
                assertEquals(up.src().port(), e.pinnedUpPorts(up.src().elementId()).get(p.id()));
            }
        }
        assertEquals(4, new PathEnumerator(LeafSpine.build(4, 4, 4, 40, 20)).pathIdCount());
    }

    @Test
    void vfabTwoPodTestbedHasTwoPathsBetweenPodsOnePerCore() {
        Topology t = ClosFabric.build(2, 2, 2, 1, 2, 10 * GBPS);
        assertEquals(8, t.hosts().size());
        assertEquals(10, t.devices().size(), "4 ToR, 4 Agg, 2 Core");
        List<Path> paths = new PathEnumerator(t).paths("h0", "h7");
        assertEquals(List.of(1, 2), ids(paths));
        assertEquals(List.of("p0e0", "p0a0", "c0", "p1a0", "p1e1"), paths.get(0).devices());
        assertEquals(List.of("p0e0", "p0a1", "c1", "p1a1", "p1e1"), paths.get(1).devices());
        assertEquals("10.2.2.1", t.device("c1").address());
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> FatTree.build(3, GBPS));
        assertThrows(IllegalArgumentException.class, () -> PathIds.check(4095));
        assertThrows(IllegalArgumentException.class, () -> PathIds.check(0));
        PathEnumerator e = new PathEnumerator(FatTree.build(4, GBPS));
        assertThrows(IllegalArgumentException.class, () -> e.paths("h0", "h0"));
        assertThrows(IllegalArgumentException.class, () -> e.paths("h0", "nope"));
        assertThrows(IllegalArgumentException.class, () -> LeafSpine.build(2, 5000, 1, 1, 1));
    }
}
