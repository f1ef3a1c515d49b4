package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** vfab.md section 5.5 A: C' = 10 Gbps, eta = 0.95 (C_l = 9.5 Gbps), T = 24 us (C_l T = 28,500 B). */
class GuaranteeEquationsTest {
    static final double C = 9.5e9;
    static final double T = 24e-6;
    static final double BU = 100e6;

    @Test
    void targetCapacityAppliesEta() {
        assertEquals(C, LinkFeedback.targetCapacity(10e9, 0.95), 1e-3);
        assertEquals(28_500, Bdp.bytes(C, T), 1e-9);
    }

    @Test
    void equationThreeCases() {
        assertEquals(20_000, GuaranteeEquations.windowBytes(2, new LinkFeedback(C, 10, 100_000, 9.5e9, 0), T), 1e-6);
        assertEquals(10_000, GuaranteeEquations.windowBytes(2, new LinkFeedback(C, 10, 100_000, 9.5e9, 28_500), T), 1e-6);
        assertEquals(28_500, GuaranteeEquations.windowBytes(2, new LinkFeedback(C, 10, 100_000, 4.75e9, 0), T), 1e-6);
    }

    @Test
    void equationThreeOnAPathIsTheMinimumOverHops() {
        List<LinkFeedback> path = List.of(new LinkFeedback(C, 10, 100_000, 9.5e9, 0),
                new LinkFeedback(C, 10, 100_000, 9.5e9, 28_500), new LinkFeedback(C, 10, 100_000, 4.75e9, 0));
        assertEquals(10_000, GuaranteeEquations.windowBytes(2, path, T), 1e-6);
    }

    @Test
    void idleLinkAllowsAFullBdpAndEquationTwoFallsBackToCapacity() {
        assertEquals(28_500, GuaranteeEquations.windowBytes(2, new LinkFeedback(C, 10, 0, 0, 0), T), 1e-6);
        assertEquals(C, GuaranteeEquations.workConservingBoundBps(2, new LinkFeedback(C, 10, 0, 0, 0), 5e9), 1e-6);
        // phi/Phi * R_l * C/tx = 0.2 * 5e9 * 2 = 2e9
        assertEquals(2e9, GuaranteeEquations.workConservingBoundBps(2, new LinkFeedback(C, 10, 0, 4.75e9, 0), 5e9), 1);
    }

    @Test
    void fixedPointReachesWeightedFairnessInOneUpdate() {
        double[] phi = {1, 2, 5};
        double[][] starts = {{100, 200, 300}, {30_000, 1, 50_000}, {5_000, 5_000, 5_000}};
        for (double[] w : starts) {
            double sum = w[0] + w[1] + w[2];
            double cap = Bdp.bytes(C, T);
            double tx = Math.min(C, sum * 8 / T);
            double q = Math.max(0, sum - cap);
            LinkFeedback l = new LinkFeedback(C, 8, sum, tx, q);
            double total = 0;
            for (int i = 0; i < 3; i++) {
                double next = GuaranteeEquations.windowBytes(phi[i], l, T);
                assertEquals(phi[i] / 8 * cap, next, 1e-6);
                total += next;
            }
            assertEquals(28_500, total, 1e-6);
        }
    }

    @Test
    void equationOneAndQualification() {
        LinkFeedback l = new LinkFeedback(C, 90, 0, 0, 0);
        assertTrue(PathQualification.isQualified(5, BU, List.of(l), false));
        assertFalse(PathQualification.isQualified(6, BU, List.of(l), false));
        LinkFeedback joined = new LinkFeedback(C, 95, 0, 0, 0);
        assertEquals(0.5e9, GuaranteeEquations.guaranteedShareBps(5, joined), 1e-3);
        assertEquals(5 * BU, GuaranteeEquations.guaranteedShareBps(5, List.of(joined, l)), 1e-3);
        assertTrue(PathQualification.isQualified(5, BU, List.of(joined), true), "already counted: no double count");
        assertFalse(PathQualification.isQualified(5, BU, List.of(joined), false));
        assertTrue(PathQualification.isQualified(5, BU,
                List.of(new LinkFeedback(LinkFeedback.targetCapacity(10e9, 0.95), 90, 0, 0, 0)), false),
                "exact fit survives rounding of 0.95");
    }

    @Test
    void shareNeverExceedsTheLinkWhenPhiLagsBehind() {
        assertEquals(C, GuaranteeEquations.guaranteedShareBps(5, new LinkFeedback(C, 0, 0, 0, 0)), 1e-6);
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new LinkFeedback(0, 1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new LinkFeedback(C, -1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> GuaranteeEquations.windowBytes(0, new LinkFeedback(C, 1, 1, 1, 1), T));
        assertThrows(IllegalArgumentException.class, () -> GuaranteeEquations.windowBytes(1, List.of(), T));
        assertThrows(IllegalArgumentException.class, () -> LinkFeedback.targetCapacity(1e9, 1.5));
    }
}
