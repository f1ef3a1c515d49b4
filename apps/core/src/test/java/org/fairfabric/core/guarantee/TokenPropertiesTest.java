package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;

class TokenPropertiesTest {
    /** Encodes "unlimited" as any value above 10 so jqwik can generate it. */
    private static double orInfinite(double v) {
        return v > 10 ? Double.POSITIVE_INFINITY : v;
    }

    @Property(tries = 500)
    void senderHandsOutExactlyItsTokensUnlessEveryPairIsBounded(
            @ForAll @DoubleRange(min = 0.1, max = 10) double phiAlpha,
            @ForAll @Size(min = 1, max = 12) List<@DoubleRange(min = 0, max = 12) Double> demands,
            @ForAll @Size(min = 12, max = 12) List<@DoubleRange(min = 0, max = 12) Double> admitted) {
        List<SenderPair> pairs = new ArrayList<>();
        for (int i = 0; i < demands.size(); i++) {
            pairs.add(new SenderPair("p" + i, orInfinite(demands.get(i)), orInfinite(admitted.get(i))));
        }
        Map<String, TokenShare> out = TokenAssignment.assign(phiAlpha, pairs, 1);
        double sum = 0;
        boolean someoneUnbounded = false;
        for (SenderPair p : pairs) {
            TokenShare s = out.get(p.pairId());
            sum += s.advertised();
            assertTrue(s.advertised() >= 0);
            assertTrue(s.local() >= s.advertised());
            assertTrue(s.advertised() <= p.txBps() + 1e-9 || s.advertised() <= p.receiverTokens() + 1e-9
                    || s.advertised() >= phiAlpha / pairs.size() - 1e-9);
            if (s.advertised() < p.txBps() && s.advertised() < p.receiverTokens()) {
                someoneUnbounded = true;
            }
        }
        assertTrue(sum <= phiAlpha * (1 + 1e-9) + 1e-12, "never more than phi^alpha: " + sum);
        if (someoneUnbounded) {
            assertEquals(phiAlpha, sum, 1e-9 * Math.max(1, phiAlpha), "tokens conserved");
        }
    }

    @Property(tries = 500)
    void receiverAdmitsAtMostItsTokens(
            @ForAll @DoubleRange(min = 0.1, max = 10) double phiAlpha,
            @ForAll @Size(min = 1, max = 12) List<@DoubleRange(min = 0, max = 10) Double> asks) {
        Map<String, Double> in = new LinkedHashMap<>();
        for (int i = 0; i < asks.size(); i++) {
            in.put("p" + i, asks.get(i));
        }
        Map<String, Double> out = TokenAdmission.admit(phiAlpha, in);
        double used = 0;
        boolean anyBounded = false;
        for (Map.Entry<String, Double> e : out.entrySet()) {
            if (e.getValue() == TokenAdmission.UNBOUND) {
                used += in.get(e.getKey());
            } else {
                used += e.getValue();
                anyBounded = true;
                assertTrue(e.getValue() <= in.get(e.getKey()) + 1e-9, "a bounded pair never gets more than it asked");
            }
        }
        assertTrue(used <= phiAlpha * (1 + 1e-9));
        if (anyBounded) {
            assertEquals(phiAlpha, used, 1e-9 * Math.max(1, phiAlpha), "tokens conserved");
        }
    }

    @Property(tries = 500)
    void multipathSplitGivesEveryPathItsEvenShareAndAtMostDouble(
            @ForAll @DoubleRange(min = 0.1, max = 100) double phi,
            @ForAll @Size(min = 1, max = 8) List<@DoubleRange(min = 0, max = 120) Double> demands) {
        List<PathDemand> paths = new ArrayList<>();
        for (int i = 0; i < demands.size(); i++) {
            paths.add(new PathDemand(i + 1, demands.get(i) > 100 ? Double.POSITIVE_INFINITY : demands.get(i)));
        }
        Map<Integer, Double> out = MultipathSplit.split(phi, paths, 1);
        double sum = 0;
        double even = phi / paths.size();
        for (double v : out.values()) {
            assertTrue(v >= even - 1e-9);
            sum += v;
        }
        assertTrue(sum >= phi - 1e-9 && sum <= 2 * phi + 1e-9, "total in [phi, 2 phi]: " + sum);
    }
}
