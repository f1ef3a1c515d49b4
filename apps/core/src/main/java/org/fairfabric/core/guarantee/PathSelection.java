package org.fairfabric.core.guarantee;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import org.fairfabric.core.model.Checks;

/**
 * vFab path selection (section III-F). At join or migration a pair picks among qualified paths
 * "randomly with a preference for the path with minimum bandwidth subscription"; the paper does not
 * give the weighting, so fairfabric draws a path with probability proportional to its spare
 * guaranteed capacity min_l(C_l - (Phi_l + phi) B_u) (uniformly if every spare is zero). For the
 * work-conservation trigger only the qualified path with the largest rate counts; the probe carries
 * W_l but no R_l, so paths are ranked by their Eq. 3 window (rate = window / T).
 */
public final class PathSelection {
    private final double bandwidthPerTokenBps;
    private final DoubleSupplier uniform01;

    public PathSelection(double bandwidthPerTokenBps, DoubleSupplier uniform01) {
        this.bandwidthPerTokenBps = Checks.positive(bandwidthPerTokenBps, "bandwidth per token B_u");
        this.uniform01 = Checks.notNull(uniform01, "random source");
    }

    public List<CandidatePath> qualified(double phi, List<CandidatePath> candidates, int currentPathId) {
        List<CandidatePath> out = new ArrayList<>();
        for (CandidatePath c : candidates) {
            if (PathQualification.isQualified(phi, bandwidthPerTokenBps, c.links(), c.pathId() == currentPathId)) {
                out.add(c);
            }
        }
        return out;
    }

    /** A qualified path drawn with preference for spare capacity; empty if none qualifies. */
    public Optional<CandidatePath> choose(double phi, List<CandidatePath> candidates, int currentPathId) {
        List<CandidatePath> ok = qualified(phi, candidates, currentPathId);
        if (ok.isEmpty()) {
            return Optional.empty();
        }
        double[] spare = new double[ok.size()];
        double total = 0;
        for (int i = 0; i < ok.size(); i++) {
            CandidatePath c = ok.get(i);
            spare[i] = Math.max(0, PathQualification.spareBps(phi, bandwidthPerTokenBps, c.links(),
                    c.pathId() == currentPathId));
            total += spare[i];
        }
        double u = uniform01.getAsDouble();
        if (!(u >= 0 && u < 1)) {
            throw new IllegalStateException("random source returned " + u + ", expected [0, 1)");
        }
        if (total == 0) {
            return Optional.of(ok.get((int) (u * ok.size())));
        }
        double target = u * total;
        for (int i = 0; i < ok.size(); i++) {
            target -= spare[i];
            if (target < 0) {
                return Optional.of(ok.get(i));
            }
        }
        return Optional.of(ok.get(ok.size() - 1));
    }

    /** The qualified path with the largest Eq. 3 window (ties: lowest path id). */
    public Optional<CandidatePath> best(double phi, List<CandidatePath> candidates, int currentPathId,
                                        double baseRttSeconds) {
        CandidatePath best = null;
        double bestWindow = -1;
        for (CandidatePath c : qualified(phi, candidates, currentPathId)) {
            double w = GuaranteeEquations.windowBytes(phi, c.links(), baseRttSeconds);
            if (w > bestWindow || (w == bestWindow && c.pathId() < best.pathId())) {
                best = c;
                bestWindow = w;
            }
        }
        return Optional.ofNullable(best);
    }
}
