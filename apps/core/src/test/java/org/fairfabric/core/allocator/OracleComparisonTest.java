package org.fairfabric.core.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exact mode against the independent cvxpy/Clarabel oracle on random fat-trees with unequal
 * weights, demand caps and guarantees (digest §10 T2), plus the KKT conditions (§1.5).
 * Per-path rates are not unique, so only session rates are compared.
 */
class OracleComparisonTest {
    private static final double RATE_TOLERANCE = 1e-4;

    private static final String[] GOLDENS = {
        "fattree-k_4-sessions_6-paths_4-seed_1.json",
        "fattree-k_4-sessions_12-paths_4-seed_2.json",
        "fattree-k_4-sessions_16-paths_2-seed_3.json",
        "fattree-k_8-sessions_60-paths_4-seed_4.json",
        "fattree-k_8-sessions_200-paths_8-seed_5.json",
    };

    static String[] goldens() {
        return GOLDENS;
    }

    @ParameterizedTest
    @MethodSource("goldens")
    void sessionRatesMatchTheOracleAndKktHolds(String golden) throws Exception {
        OracleGolden oracle = OracleGolden.load(golden);
        AllocationProblem pb = oracle.generate();
        // Rates converge like the square root of the objective gap where the optimum is flat,
        // so 1e-4 on rates needs a gap near 1e-10: ask for more, the solver stops at its rounding floor.
        assertMatchesOracle(oracle, pb, new ExactAllocator(1e-12, 200).solve(pb));
    }

    /** Each method on its own, so that the fallback cannot hide a failure of the fast one. */
    @ParameterizedTest
    @MethodSource("goldens")
    void fastAndClassicMethodsEachMatchTheOracle(String golden) throws Exception {
        OracleGolden oracle = OracleGolden.load(golden);
        AllocationProblem pb = oracle.generate();
        assertMatchesOracle(oracle, pb, new InteriorPointSolver(pb, 1e-12, 200, true).solve(null));
        assertMatchesOracle(oracle, pb, new InteriorPointSolver(pb, 1e-12, 200, false).solve(null));
    }

    private static void assertMatchesOracle(OracleGolden oracle, AllocationProblem pb, Allocation a) {
        assertEquals(pb.sessionCount(), oracle.rates.size(), "golden covers every session");
        assertTrue(a.relativeGap() <= 1e-9, "certified gap " + a.relativeGap());
        double worst = 0;
        String worstId = null;
        for (int i = 0; i < pb.sessionCount(); i++) {
            double expected = oracle.rates.get(pb.sessionId(i));
            double err = Math.abs(a.sessionRate(i) - expected) / expected;
            if (err > worst) {
                worst = err;
                worstId = pb.sessionId(i);
            }
        }
        assertTrue(worst <= RATE_TOLERANCE, "worst relative error " + worst + " at " + worstId);
        assertTrue(AllocationChecks.maxRelativeOverload(a) <= 1e-9, "no link overloaded");
        assertTrue(AllocationChecks.maxSessionBoundViolation(a) <= 1e-9, "caps and guarantees hold");
        assertTrue(AllocationChecks.stationarityResidual(a) <= 1e-3,
                "x_i = clamp(w_i / l_i^min): " + AllocationChecks.stationarityResidual(a));
        assertTrue(AllocationChecks.pathPriceResidual(a, 0.01) <= 1e-3,
                "only cheapest paths carry traffic: " + AllocationChecks.pathPriceResidual(a, 0.01));
        assertTrue(AllocationChecks.slacknessResidual(a) <= 1e-6,
                "priced links are full: " + AllocationChecks.slacknessResidual(a));
    }

    /** The oracle itself against the closed forms (digest §10 T1), and exact mode against both. */
    @ParameterizedTest
    @CsvSource({
        "single-link-weights.json, 2 4 6",
        "parking-lot.json, 0.25 0.75 0.75 0.75",
        "two-paths-one-shared.json, 1 1",
        "weighted-parking-lot.json, 0.4 0.6 0.6 0.6",
    })
    void oracleAgreesWithClosedForms(String golden, String closedForm) throws Exception {
        OracleGolden oracle = OracleGolden.load(golden);
        AllocationProblem pb;
        switch (golden) {
            case "single-link-weights.json": pb = Problems.singleLink(12, 1, 2, 3); break;
            case "parking-lot.json": pb = Problems.parkingLot(3, 1, 1); break;
            case "two-paths-one-shared.json": pb = Problems.twoPathsOneShared(1); break;
            default: pb = Problems.parkingLot(3, 1, 2); break;
        }
        Allocation a = new ExactAllocator(1e-9, 200).solve(pb);
        // The JSON problems list their sessions in the same order as the Java ones.
        Double[] oracleRates = oracle.rates.values().toArray(new Double[0]);
        String[] expected = closedForm.split(" ");
        assertEquals(expected.length, oracleRates.length);
        for (int i = 0; i < expected.length; i++) {
            double x = Double.parseDouble(expected[i]);
            assertEquals(x, oracleRates[i], x * RATE_TOLERANCE, "oracle, session " + i);
            assertEquals(x, a.sessionRate(i), x * RATE_TOLERANCE, "exact mode, session " + i);
        }
    }
}
