package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The warm split: classes whose rate moved take up the overloads they cause; the rest stay as they were. */
class PathSplitBalancerTest {
    /**
     * Host links h1, h2 (the relaxation's), fabric links f1, f2. Session a: h1 then f1 or f2;
     * session b: h2 then f1. Before: a = 6 (2 over f1, 4 over f2), b = 2, so f1 is full.
     */
    private static AllocationProblem fabric(double f1) {
        return new AllocationProblemBuilder().addLink("h1", 10).addLink("h2", 10).addLink("f1", f1)
                .addLink("f2", 100)
                .addSession("a", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("h1,f1", "h1,f2"))
                .addSession("b", 1, AllocationProblem.NO_DEMAND, 0, Problems.paths("h2,f1"))
                .build();
    }

    private static final boolean[] HOSTS = {true, true, false, false};

    /** Splits the new class rates {@code a}, {@code b} warm from the state above. */
    private static PathSplitBalancer warmSplit(AllocationProblem pb, double a, double b, double[] rates) {
        PathClasses before = new PathClasses(pb, HOSTS);
        PathClasses now = new PathClasses(pb, HOSTS, before, new int[] {0, 1});
        double[] baseLoads = new double[pb.linkCount()];
        Duality.linkLoads(pb.pathLinkStartArray(), pb.pathLinksArray(), rates, baseLoads);
        PathSplitBalancer balancer = new PathSplitBalancer(now);
        balancer.warmSplit(new double[] {a, b}, rates, new double[] {6, 2}, baseLoads, rates);
        return balancer;
    }

    @Test
    void aMovedClassTakesUpTheOverloadItCausedAndTheOthersKeepTheirRates() {
        AllocationProblem pb = fabric(4);
        double[] rates = {2, 4, 2};
        PathSplitBalancer balancer = warmSplit(pb, 6, 3, rates);
        assertEquals(5, balancer.load[2], 1e-12, "b's growth overloads f1");
        assertTrue(balancer.absorbOverloads(rates));
        assertEquals(2, rates[0]);
        assertEquals(4, rates[1]);
        assertEquals(2, rates[2], 1e-12, "b scaled back to what fits");
        assertEquals(4, balancer.load[2], 1e-12);

        balancer.undoAbsorb(rates);
        assertArrayEquals(new double[] {2, 4, 3}, rates);
        assertEquals(5, balancer.load[2], 1e-12);
    }

    @Test
    void aGrownClassMovesRateOffAnOverloadedLinkAndTheOthersKeepTheirRates() {
        AllocationProblem pb = fabric(4);
        double[] rates = {2, 4, 2};
        PathSplitBalancer balancer = warmSplit(pb, 7, 2, rates);
        assertEquals(2 + 7.0 / 3, balancer.load[2], 1e-12, "a's growth overloads f1");
        assertTrue(balancer.balanceGrown(rates));
        assertEquals(2, rates[2], "b did not grow: its rate is untouched");
        assertEquals(7, rates[0] + rates[1], 1e-12, "a keeps its class rate");
        assertTrue(rates[0] < 7.0 / 3, "a moved rate from f1 to f2");
        assertEquals(rates[0] + rates[2], balancer.load[2], 1e-12);
        assertEquals(rates[1], balancer.load[3], 1e-12);
        // Whatever is still over f1 is a's to take up.
        balancer.absorbOverloads(rates);
        assertEquals(2, rates[2]);
        assertTrue(balancer.load[2] <= 4 * (1 + Certificate.ROUNDING));
    }

    @Test
    void onlyGrownClassesThroughAnOverloadedLinkAreBalanced() {
        AllocationProblem pb = fabric(100);
        double[] rates = {2, 4, 2};
        PathSplitBalancer balancer = warmSplit(pb, 7, 2, rates);
        assertFalse(balancer.balanceGrown(rates), "nothing overloaded");
        assertArrayEquals(new double[] {7.0 / 3, 14.0 / 3, 2}, rates, 1e-12);
    }

    @Test
    void anOverloadLargerThanWhatMovedIsLeftToTheFullRepair() {
        // f1's capacity fell below what the kept rates put on it.
        AllocationProblem pb = fabric(1.5);
        double[] rates = {2, 4, 2};
        PathSplitBalancer balancer = warmSplit(pb, 6, 3, rates);
        assertFalse(balancer.absorbOverloads(rates));
        assertArrayEquals(new double[] {2, 4, 3}, rates);
    }

    @Test
    void aClassWhoseRateMovedKeepsItsSplitProportions() {
        AllocationProblem pb = fabric(100);
        double[] rates = {2, 4, 2};
        PathSplitBalancer balancer = warmSplit(pb, 3, 2, rates);
        assertArrayEquals(new double[] {1, 2, 2}, rates);
        assertEquals(1 + 2, balancer.load[2], 1e-12);
        assertEquals(3, balancer.load[0], 1e-12);
        assertFalse(balancer.absorbOverloads(rates), "nothing overloaded");
    }
}
