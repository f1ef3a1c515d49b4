package org.fairfabric.core.guarantee;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import org.fairfabric.core.model.Checks;

/**
 * When a pair should move to another path (vFab section III-F). Failure migrates at once; a
 * guarantee violation must persist for {@code violationRtts} RTTs (5) and a better path for
 * {@code betterPathHoldSeconds} (30 s). After a host migrates one of its pairs, that host is frozen
 * for a random window uniform in [1, N] RTTs (N = 10): one migration per host per window. The paper
 * only says the freeze applies when the guarantee is violated; fairfabric applies it to both
 * non-failure triggers and never to FAILURE, because reachability must not wait. Times are seconds.
 */
public final class MigrationPolicy {
    private final double rttSeconds;
    private final int violationRtts;
    private final double betterPathHoldSeconds;
    private final int freezeMaxRtts;
    private final DoubleSupplier uniform01;
    private final Map<String, Double> violationSince = new HashMap<>();
    private final Map<String, Double> betterSince = new HashMap<>();
    private final Map<String, Double> hostFrozenUntil = new HashMap<>();

    public MigrationPolicy(double rttSeconds, int violationRtts, double betterPathHoldSeconds, int freezeMaxRtts,
                           DoubleSupplier uniform01) {
        this.rttSeconds = Checks.positive(rttSeconds, "RTT");
        this.violationRtts = (int) Checks.positive(violationRtts, "violation hold (RTTs)");
        this.betterPathHoldSeconds = Checks.positive(betterPathHoldSeconds, "better-path hold");
        this.freezeMaxRtts = (int) Checks.positive(freezeMaxRtts, "freeze window N (RTTs)");
        this.uniform01 = Checks.notNull(uniform01, "random source");
    }

    /** The paper's values: 5 RTTs, 30 s, freeze window [1, 10] RTTs. */
    public static MigrationPolicy withPaperDefaults(double rttSeconds, DoubleSupplier uniform01) {
        return new MigrationPolicy(rttSeconds, 5, 30.0, 10, uniform01);
    }

    /** Observe a pair's state at time {@code now}; returns the trigger that fires, if any. */
    public Optional<MigrationReason> evaluate(String pairId, String hostId, double now, boolean pathFailed,
                                              boolean guaranteeViolated, boolean betterPathAvailable) {
        Checks.nonEmpty(pairId, "pair id");
        Checks.nonEmpty(hostId, "host id");
        track(violationSince, pairId, now, guaranteeViolated);
        track(betterSince, pairId, now, betterPathAvailable);
        if (pathFailed) {
            return Optional.of(MigrationReason.FAILURE);
        }
        if (isFrozen(hostId, now)) {
            return Optional.empty();
        }
        Double v = violationSince.get(pairId);
        if (v != null && now - v >= violationRtts * rttSeconds) {
            return Optional.of(MigrationReason.GUARANTEE_VIOLATION);
        }
        Double b = betterSince.get(pairId);
        if (b != null && now - b >= betterPathHoldSeconds) {
            return Optional.of(MigrationReason.BETTER_PATH);
        }
        return Optional.empty();
    }

    /** Record that the pair moved: its timers restart and its host is frozen for [1, N] RTTs. */
    public double recordMigration(String pairId, String hostId, double now) {
        violationSince.remove(pairId);
        betterSince.remove(pairId);
        double u = uniform01.getAsDouble();
        if (!(u >= 0 && u < 1)) {
            throw new IllegalStateException("random source returned " + u + ", expected [0, 1)");
        }
        double until = now + (1 + u * (freezeMaxRtts - 1)) * rttSeconds;
        hostFrozenUntil.put(hostId, until);
        return until;
    }

    public boolean isFrozen(String hostId, double now) {
        Double until = hostFrozenUntil.get(hostId);
        return until != null && now < until;
    }

    /** Forget a pair that left (finished or removed). */
    public void forget(String pairId) {
        violationSince.remove(pairId);
        betterSince.remove(pairId);
    }

    private static void track(Map<String, Double> since, String pairId, double now, boolean condition) {
        if (condition) {
            since.putIfAbsent(pairId, now);
        } else {
            since.remove(pairId);
        }
    }
}
