package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WeightedAlphaFairTest {
    /** Two links of capacity 10; f1 on L1 (w 1), f2 on L1+L2 (w 1), f3 on L2 (w 2). */
    private static WeightedAlphaFair example(double alpha) {
        boolean[][] a = {{true, true, false}, {false, true, true}};
        return new WeightedAlphaFair(a, new double[] {10, 10}, new double[] {1, 1, 2}, alpha);
    }

    @Test
    void weightedMaxMinRecursionConvergesWithinTenIterations() {
        List<double[]> traj = example(Double.POSITIVE_INFINITY).trajectory(new double[] {1, 1}, 10);
        double[] first = traj.get(1);
        assertEquals(5.0, first[0], 1e-12, "R = (5, 10/3) after one step");
        assertEquals(10.0 / 3, first[1], 1e-12);
        double[] x = traj.get(9);
        assertEquals(20.0 / 3, x[0], 1e-3);
        assertEquals(10.0 / 3, x[1], 1e-3);
        assertEquals(20.0 / 3, x[2], 1e-3);
    }

    @Test
    void alphaOneOnOneLinkIsProportionalToWeights() {
        boolean[][] a = {{true, true, true}};
        WeightedAlphaFair pf = new WeightedAlphaFair(a, new double[] {12}, new double[] {1, 2, 3}, 1);
        double[] x = pf.trajectory(new double[] {1}, 3).get(3);
        assertEquals(2, x[0], 1e-9);
        assertEquals(4, x[1], 1e-9);
        assertEquals(6, x[2], 1e-9);
    }

    @Test
    void largeAlphaApproachesMaxMin() {
        double[] x = example(50).trajectory(new double[] {1, 1}, 200).get(200);
        assertTrue(Math.abs(x[1] - 10.0 / 3) < 0.2, "alpha 50 near max-min: " + x[1]);
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> new WeightedAlphaFair(new boolean[][] {{false}}, new double[] {1}, new double[] {1}, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new WeightedAlphaFair(new boolean[][] {{true}}, new double[] {1}, new double[] {1}, 0));
        assertThrows(IllegalArgumentException.class, () -> example(1).trajectory(new double[] {1}, 1));
    }
}
