package org.fairfabric.core.guarantee;

import java.util.List;
import org.fairfabric.core.model.Checks;

/**
 * vFab two-stage traffic admission (section III-D) for one pair on one path. A pair joining a path
 * starts at phi*B_u*T (Scenario 1); a pair whose demand fell below its guarantee restarts at r*T
 * (Scenario 2). Once per RTT the window grows by min_l(phi/Phi_l * C_l*T) (the per-link step, taken
 * over the path like every per-link quantity) until it exceeds the Eq. 3 window; from then on it
 * follows Eq. 3.
 */
public final class TwoStageWindow {
    /** Which stage the window is in. */
    public enum Stage {
        ADDITIVE_INCREASE, EQUATION_3
    }

    private final double phi;
    private final double baseRttSeconds;
    private double windowBytes;
    private Stage stage;

    private TwoStageWindow(double phi, double baseRttSeconds, double windowBytes) {
        this.phi = Checks.positive(phi, "pair tokens phi");
        this.baseRttSeconds = Checks.positive(baseRttSeconds, "base RTT");
        this.windowBytes = windowBytes;
        this.stage = Stage.ADDITIVE_INCREASE;
    }

    /** Scenario 1: a pair joins a path with the bootstrap window phi * B_u * T. */
    public static TwoStageWindow joining(double phi, double bandwidthPerTokenBps, double baseRttSeconds) {
        Checks.positive(bandwidthPerTokenBps, "bandwidth per token B_u");
        return new TwoStageWindow(phi, baseRttSeconds, Bdp.bytes(phi * bandwidthPerTokenBps, baseRttSeconds));
    }

    /** Scenario 2: a pair whose demand fell below its guarantee r restarts from r * T. */
    public static TwoStageWindow belowGuarantee(double phi, double guaranteedShareBps, double baseRttSeconds) {
        Checks.positive(guaranteedShareBps, "guaranteed share r");
        return new TwoStageWindow(phi, baseRttSeconds, Bdp.bytes(guaranteedShareBps, baseRttSeconds));
    }

    /** The additive-increase step on a path: min over links of phi/Phi_l * C_l * T bytes. */
    public double stepBytes(List<LinkFeedback> path) {
        double step = Double.POSITIVE_INFINITY;
        for (LinkFeedback l : path) {
            step = Math.min(step, phi / Math.max(l.totalTokens(), phi)
                    * Bdp.bytes(l.targetCapacityBps(), baseRttSeconds));
        }
        return step;
    }

    /** One RTT of feedback: grow (stage 1) or follow Eq. 3 (stage 2). Returns the new window. */
    public double onRtt(List<LinkFeedback> path) {
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("a path needs at least one link");
        }
        double eq3 = GuaranteeEquations.windowBytes(phi, path, baseRttSeconds);
        if (stage == Stage.ADDITIVE_INCREASE) {
            double grown = windowBytes + stepBytes(path);
            if (grown > eq3) {
                stage = Stage.EQUATION_3;
                windowBytes = eq3;
            } else {
                windowBytes = grown;
            }
        } else {
            windowBytes = eq3;
        }
        return windowBytes;
    }

    public double windowBytes() {
        return windowBytes;
    }

    public Stage stage() {
        return stage;
    }
}
