package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.List;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.model.Path;

/**
 * One allocation round's answer, per session (problem sessions first, in problem order, then the
 * unroutable ones with rate 0), with the model it was computed on. A round after arrivals can
 * have two: an interim one ({@link ArrivalAllocation}, feasible but not optimal) put in force at
 * once, then the exact one.
 *
 * @param round       1, 2, … per controller run
 * @param computedAt  ISO-8601 instant
 * @param iterations  interior-point iterations (0 when there was nothing to solve, and for an interim allocation)
 * @param relativeGap the allocator's certified relative duality gap (0 when there was nothing to
 *                    solve; NaN for an interim allocation, which is not certified)
 * @param interim     whether this is an interim allocation that the round's exact one replaces
 */
public final class AllocationResult {
    private final long round;
    private final String computedAt;
    private final List<SessionAllocation> sessions;
    private final int iterations;
    private final double relativeGap;
    private final AllocationModel model;
    private final boolean interim;
    /**
     * Per path of the model's problem, its rate here (each session's {@link SessionAllocation}
     * holds exactly these); null when unknown. Not part of the result's equality; never modified.
     */
    private double[] pathRates;
    /**
     * Per session and per link of the model's problem, {@link ArrivalAllocation#totals} and
     * {@link ArrivalAllocation#loads} of {@link #pathRates}: computed when first needed, or handed
     * on by the interim allocation that made this result. Loop thread only; never modified.
     */
    private double[] totals;
    private double[] loads;
    private static final java.util.concurrent.atomic.AtomicLong SERIALS = new java.util.concurrent.atomic.AtomicLong();
    /** This result's number among all results of this JVM (for {@link #derivedFrom}). */
    private final long serial = SERIALS.incrementAndGet();
    /**
     * When this is an interim allocation for sessions appended to another result's
     * ({@link #interimAppended}): that result's {@link #serial}; 0 otherwise. Then {@link #changed}
     * lists the positions in {@link #sessions()} of every object that is not that result's (the
     * newcomers, routable or not, and the sessions whose rates changed), and the routable sessions
     * from position {@link #appendedFrom} on are the newcomers.
     */
    private long derivedFrom;
    private int[] changed;
    private int appendedFrom;

    public AllocationResult(long round, String computedAt, List<SessionAllocation> sessions, int iterations, double relativeGap, AllocationModel model) {
        this(round, computedAt, sessions, iterations, relativeGap, model, false);
    }

    private AllocationResult(long round, String computedAt, List<SessionAllocation> sessions, int iterations, double relativeGap, AllocationModel model,
                             boolean interim) {
        sessions = List.copyOf(sessions);
        this.round = round;
        this.computedAt = computedAt;
        this.sessions = sessions;
        this.iterations = iterations;
        this.relativeGap = relativeGap;
        this.model = model;
        this.interim = interim;
    }

    public long round() {
        return round;
    }

    public String computedAt() {
        return computedAt;
    }

    public List<SessionAllocation> sessions() {
        return sessions;
    }

    public int iterations() {
        return iterations;
    }

    public double relativeGap() {
        return relativeGap;
    }

    public AllocationModel model() {
        return model;
    }

    public boolean interim() {
        return interim;
    }

    /** {@link ArrivalAllocation#totals} of {@link #pathRates()} (which must be known); do not modify. */
    double[] totals() {
        if (totals == null) {
            totals = ArrivalAllocation.totals(model.problem(), pathRates);
        }
        return totals;
    }

    /** {@link ArrivalAllocation#loads} of {@link #pathRates()} (which must be known); do not modify. */
    double[] loads() {
        if (loads == null) {
            loads = ArrivalAllocation.loads(model.problem(), pathRates);
        }
        return loads;
    }

    /** Sets what {@link #totals()} and {@link #loads()} would compute (the caller guarantees it). */
    void knownSums(double[] sessionTotals, double[] linkLoads) {
        totals = sessionTotals;
        loads = linkLoads;
    }

    long serial() {
        return serial;
    }

    /** The {@link #serial()} of the result this one extends by appended sessions; 0 when none. */
    long derivedFrom() {
        return derivedFrom;
    }

    /** With {@link #derivedFrom()}: the positions of the session objects that are not the other result's; do not modify. */
    int[] changed() {
        return changed;
    }

    /** With {@link #derivedFrom()}: the position of the first appended routable session. */
    int appendedFrom() {
        return appendedFrom;
    }

    /** Per path of {@code model().problem()}, the rate this result gives it; null when not known. Do not modify. */
    double[] pathRates() {
        return pathRates;
    }

    /** Reads the allocator's answer back onto the model's sessions and paths, each session on its fewest paths ({@link FewestPaths}). */
    public static AllocationResult of(long round, String computedAt, AllocationModel model, Allocation allocation) {
        return of(round, computedAt, model, FewestPaths.of(allocation), allocation.sessionRates(), null, allocation.iterations(),
                allocation.relativeGap(), false);
    }

    /**
     * An interim allocation: {@code pathRates} indexed like the model's problem's paths.
     * {@code previous}: per session of the model, what it had in the allocation in force (null for
     * a newcomer); a session whose path rates are exactly those keeps that object (total included),
     * so that what did not change is neither copied nor, downstream, compared field by field.
     */
    static AllocationResult interim(long round, String computedAt, AllocationModel model, double[] pathRates, SessionAllocation[] previous) {
        double[] totals = new double[model.sessions().size()];
        for (int i = 0; i < totals.length; i++) {
            for (int q = model.problem().firstPath(i); q < model.problem().endPath(i); q++) {
                totals[i] += pathRates[q];
            }
        }
        return of(round, computedAt, model, pathRates, totals, previous, 0, Double.NaN, true);
    }

    private static AllocationResult of(long round, String computedAt, AllocationModel model, double[] pathRates, double[] totals,
                                       SessionAllocation[] previous, int iterations, double relativeGap, boolean interim) {
        List<SessionAllocation> out = new ArrayList<>();
        for (int i = 0; i < model.sessions().size(); i++) {
            List<Path> paths = model.paths().get(i);
            int first = model.problem().firstPath(i);
            if (previous != null && previous[i] != null && unchanged(previous[i], model.sessions().get(i), paths, pathRates, first)) {
                out.add(previous[i]);
                continue;
            }
            List<PathAllocation> rates = new ArrayList<>();
            for (int j = 0; j < paths.size(); j++) {
                Path p = paths.get(j);
                rates.add(new PathAllocation(p.id(), p.devices(), pathRates[first + j]));
            }
            out.add(new SessionAllocation(model.sessions().get(i), totals[i], rates));
        }
        model.unroutable().forEach(s -> out.add(new SessionAllocation(s, 0, List.of())));
        AllocationResult r = new AllocationResult(round, computedAt, out, iterations, relativeGap, model, interim);
        r.pathRates = pathRates;
        return r;
    }

    /**
     * {@link #interim} when {@code model} is {@code before}'s model with sessions appended
     * ({@link AllocationModel#appendedTo()}) and {@code before} knows its path rates: a kept session
     * whose rates {@code pathRates} leaves as they were keeps its object, found by comparing the two
     * rate arrays rather than the sessions' objects; the same result as {@link #interim} with
     * {@code before}'s sessions as {@code previous}.
     */
    static AllocationResult interimAppended(long round, String computedAt, AllocationModel model, double[] pathRates, AllocationResult before) {
        AllocationProblem p = model.problem();
        double[] was = before.pathRates;
        int kept = before.model().sessions().size();
        List<SessionAllocation> out = new ArrayList<>(model.sessions().size() + model.unroutable().size());
        int[] changed = new int[16];
        int changes = 0;
        for (int i = 0; i < model.sessions().size(); i++) {
            int first = p.firstPath(i);
            int end = p.endPath(i);
            boolean same = i < kept;
            for (int q = first; same && q < end; q++) {
                same = Double.compare(was[q], pathRates[q]) == 0;
            }
            if (same) {
                out.add(before.sessions.get(i));
                continue;
            }
            if (changes == changed.length) {
                changed = java.util.Arrays.copyOf(changed, 2 * changes);
            }
            changed[changes++] = i;
            double total = 0;
            for (int q = first; q < end; q++) {
                total += pathRates[q];
            }
            List<Path> paths = model.paths().get(i);
            // a kept session's paths are the same objects, in the same order: their device lists are reused
            List<PathAllocation> had = i < kept ? before.sessions.get(i).paths() : null;
            List<PathAllocation> rates = new ArrayList<>(paths.size());
            for (int j = 0; j < paths.size(); j++) {
                List<String> devices = had != null && had.size() == paths.size() && had.get(j).pathId() == paths.get(j).id()
                        ? had.get(j).devices() : paths.get(j).devices();
                rates.add(new PathAllocation(paths.get(j).id(), devices, pathRates[first + j]));
            }
            out.add(new SessionAllocation(model.sessions().get(i), total, rates));
        }
        int unroutableBefore = before.model().unroutable().size();
        for (int u = 0; u < model.unroutable().size(); u++) {
            if (u >= unroutableBefore) {
                if (changes == changed.length) {
                    changed = java.util.Arrays.copyOf(changed, 2 * changes);
                }
                changed[changes++] = out.size();
            }
            out.add(new SessionAllocation(model.unroutable().get(u), 0, List.of()));
        }
        AllocationResult r = new AllocationResult(round, computedAt, out, 0, Double.NaN, model, true);
        r.pathRates = pathRates;
        r.derivedFrom = before.serial;
        r.changed = java.util.Arrays.copyOf(changed, changes);
        r.appendedFrom = kept;
        return r;
    }

    /** Whether {@code was} is {@code session} with exactly the rates {@code pathRates[first..]} on {@code paths}, in order. */
    private static boolean unchanged(SessionAllocation was, SessionDto session, List<Path> paths, double[] pathRates, int first) {
        if (!was.session().equals(session) || was.paths().size() != paths.size()) {
            return false;
        }
        for (int j = 0; j < paths.size(); j++) {
            PathAllocation p = was.paths().get(j);
            if (p.pathId() != paths.get(j).id() || Double.compare(p.rateBps(), pathRates[first + j]) != 0) {
                return false;
            }
        }
        return true;
    }

    /** A round with no routable session: every session (if any) unroutable at rate 0. */
    public static AllocationResult empty(long round, String computedAt, AllocationModel model) {
        List<SessionAllocation> out = new ArrayList<>();
        model.unroutable().forEach(s -> out.add(new SessionAllocation(s, 0, List.of())));
        return new AllocationResult(round, computedAt, out, 0, 0, model);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AllocationResult)) {
            return false;
        }
        AllocationResult other = (AllocationResult) o;
        return round == other.round
                && java.util.Objects.equals(computedAt, other.computedAt)
                && java.util.Objects.equals(sessions, other.sessions)
                && iterations == other.iterations
                && Double.compare(relativeGap, other.relativeGap) == 0
                && java.util.Objects.equals(model, other.model)
                && interim == other.interim;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(round, computedAt, sessions, iterations, relativeGap, model, interim);
    }

    @Override
    public String toString() {
        return "AllocationResult[round=" + round + ", computedAt=" + computedAt + ", sessions=" + sessions + ", iterations=" + iterations + ", relativeGap=" + relativeGap + ", model=" + model + ", interim=" + interim + "]";
    }
}
