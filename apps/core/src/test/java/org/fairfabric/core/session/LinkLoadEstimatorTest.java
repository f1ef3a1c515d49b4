package org.fairfabric.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fairfabric.core.model.FatTree;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.SessionKey;
import org.fairfabric.core.model.Topology;
import org.junit.jupiter.api.Test;

class LinkLoadEstimatorTest {
    static final Topology FAT_TREE = FatTree.build(4, 1_000_000L);
    static final SessionKey S1 = new SessionKey("h0", "h15");
    static final SessionKey S2 = new SessionKey("h1", "h14");

    @Test
    void bytesOverAPeriodBecomeRatesAndNormalisedLinkLoads() {
        PathByteCounter rx15 = new PathByteCounter();
        PathByteCounter rx14 = new PathByteCounter();
        for (int i = 0; i < 125; i++) {
            rx15.onPacket(S1, 1, 1000);   // 125 kB on path 1 in 2 s = 500 kbit/s
            rx15.onPacket(S1, 2, 500);    // 250 kbit/s on path 2
            rx14.onPacket(S2, 1, 1000);   // 500 kbit/s on path 1 of h1 -> h14
        }
        EnumeratedPaths lookup = new EnumeratedPaths(FAT_TREE);
        LinkLoads loads = new LinkLoadEstimator(lookup).estimate(List.of(rx15.drain(), rx14.drain()), 2.0);
        assertEquals(500_000, loads.pathRatesBps().get(new SessionPath(S1, 1)), 1e-9);
        assertEquals(250_000, loads.pathRatesBps().get(new SessionPath(S1, 2)), 1e-9);
        Path p1 = lookup.find(new SessionPath(S1, 1)).get();
        Link hostLink = p1.links().get(0);
        assertEquals(0.75, loads.load(hostLink.id()), 1e-12, "h0's uplink carries both paths of S1");
        Link shared = p1.links().get(1);   // p0e0 -> p0a0, also on path 1 of h1 -> h14
        assertEquals(1.0, loads.load(shared.id()), 1e-12);
        Link core = p1.links().get(2);
        assertEquals(1.0, loads.load(core.id()), 1e-12, "both sessions' path 1 cross the same core link");
        assertEquals(0.0, loads.load("nowhere"));
        assertEquals(Map.of(), rx15.drain(), "the table is reset every period");
    }

    @Test
    void candidatePathsSkipFailedLinksButKeepTheirIds() {
        EnumeratedPaths lookup = new EnumeratedPaths(FAT_TREE);
        Link core = lookup.find(new SessionPath(S1, 3)).get().links().get(3);
        Topology failed = FAT_TREE.withLinkState(core.id(), org.fairfabric.core.model.LinkState.DOWN);
        List<Integer> ids = new java.util.ArrayList<>();
        for (Path p : lookup.upPaths(S1, failed)) {
            ids.add(p.id());
        }
        assertEquals(List.of(1, 2, 4), ids);
    }

    @Test
    void unknownSessionsAndPathsAreListedNotCharged() {
        LinkLoadEstimator e = new LinkLoadEstimator(new EnumeratedPaths(FAT_TREE));
        SessionPath sameEdgePath2 = new SessionPath(new SessionKey("h0", "h1"), 2);
        SessionPath unknownHost = new SessionPath(new SessionKey("h0", "zz"), 1);
        LinkLoads loads = e.estimate(List.of(Map.of(sameEdgePath2, 100L, unknownHost, 5L)), 1);
        assertEquals(Set.of(sameEdgePath2, unknownHost), loads.unattributed());
        assertEquals(Map.of(), loads.linkLoads());
        assertThrows(IllegalArgumentException.class, () -> e.estimate(List.of(), 0));
        assertThrows(IllegalArgumentException.class, () -> new PathByteCounter().onPacket(S1, 1, 0));
    }
}
