package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class InflightBoundTest {
    @Test
    void threeBdpAtTenGigAndTwentyFourMicroseconds() {
        assertEquals(85_500, InflightBound.limitBytes(9.5e9, 24e-6), 1e-6);
        assertEquals(4 * 24e-6, InflightBound.latencyBoundSeconds(24e-6, 24e-6), 1e-12);
    }

    @Property(tries = 300)
    void worstCaseInflightNeverExceedsThreeBdp(
            @ForAll @Size(min = 1, max = 30) List<@DoubleRange(min = 0.01, max = 100) Double> tokens,
            @ForAll @DoubleRange(min = 0, max = 1) double txFraction,
            @ForAll @IntRange(min = 1, max = 100) int rttPercentSeed) {
        double c = 9.5e9;
        double tMax = 24e-6;
        List<InflightBound.PairOnLink> pairs = new ArrayList<>();
        int i = 0;
        for (double phi : tokens) {
            double t = tMax * (1 + (rttPercentSeed * (i++ + 7)) % 100) / 100.0;
            pairs.add(new InflightBound.PairOnLink(phi, t));
        }
        double lhs = InflightBound.worstCaseInflightBytes(pairs, c, txFraction * c, tMax);
        assertTrue(lhs <= InflightBound.limitBytes(c, tMax) * (1 + 1e-12), lhs + " > 3 BDP");
    }
}
