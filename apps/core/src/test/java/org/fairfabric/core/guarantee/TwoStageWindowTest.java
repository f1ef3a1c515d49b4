package org.fairfabric.core.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TwoStageWindowTest {
    static final double C = 9.5e9;
    static final double T = 24e-6;
    static final double BU = 100e6;

    @Test
    void bootstrapAndAdditiveIncreaseSteps() {
        TwoStageWindow w = TwoStageWindow.joining(5, BU, T);
        assertEquals(1_500, w.windowBytes(), 1e-9);
        assertEquals(1_500, w.stepBytes(List.of(new LinkFeedback(C, 95, 0, 0, 0))), 1e-9);
        assertEquals(2_850, w.stepBytes(List.of(new LinkFeedback(C, 50, 0, 0, 0))), 1e-9);
    }

    @Test
    void switchesToEquationThreeExactlyWhenTheIncreasedWindowExceedsIt() {
        // Eq. 3 window here: 5/95 * 57,000 * 28,500/28,500 = 3,000 B.
        List<LinkFeedback> path = List.of(new LinkFeedback(C, 95, 57_000, 9.5e9, 0));
        TwoStageWindow w = TwoStageWindow.joining(5, BU, T);
        assertEquals(3_000, w.onRtt(path), 1e-9, "1500 + 1500 = 3000 does not exceed 3000");
        assertEquals(TwoStageWindow.Stage.ADDITIVE_INCREASE, w.stage());
        assertEquals(3_000, w.onRtt(path), 1e-9, "4500 > 3000: Eq. 3 from now on");
        assertEquals(TwoStageWindow.Stage.EQUATION_3, w.stage());
        List<LinkFeedback> congested = List.of(new LinkFeedback(C, 95, 57_000, 9.5e9, 28_500));
        assertEquals(1_500, w.onRtt(congested), 1e-9);
    }

    @Test
    void scenarioTwoRestartsFromTheGuarantee() {
        TwoStageWindow w = TwoStageWindow.belowGuarantee(5, 0.5e9, T);
        assertEquals(1_500, w.windowBytes(), 1e-9);
    }
}
