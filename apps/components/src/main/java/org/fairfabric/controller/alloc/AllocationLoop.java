package org.fairfabric.controller.alloc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.ExactAllocator;
import org.fairfabric.core.allocator.InfeasibleProblemException;
import org.fairfabric.core.allocator.WarmStart;
import org.fairfabric.core.model.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The allocation loop: every change that matters (sessions, tenants' weights and guarantees, hosts,
 * link state, configuration) calls {@link #changed}, which only (re)arms a timer; the round runs
 * on the scheduler's thread. The first change of an idle loop (no round started within the last
 * {@code quietMillis}) runs at once; a change that follows a round closer than that waits until no
 * change has come for {@code quietMillis}, or at the latest {@code maxDelayMillis} after the first
 * change of its burst. So a lone change costs no waiting, a burst of REST calls costs at most two
 * solves, and no solve runs on a request thread. A round takes a snapshot of the inputs, builds the
 * problem ({@link ProblemAdapter}), solves it with {@link ExactAllocator} from the previous
 * round's warm start, and hands the result on. When only sessions came or went since the
 * allocation in force, the round first hands on an interim allocation computed from it
 * ({@link ArrivalAllocation}: the others keep their rates where they can, each newcomer gets its
 * fair share of one path), because the exact solve can take seconds on a large fabric;
 * the exact result follows and replaces it. When the guarantees cannot be met, the previous
 * allocation stays in force and the listener hears which links are the bottleneck.
 */
public final class AllocationLoop {
    private static final Logger LOG = LoggerFactory.getLogger(AllocationLoop.class);
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

    private final Supplier<AllocationInputs> inputs;
    private final AllocationListener listener;
    private final Scheduler scheduler;
    private final ExactAllocator allocator;
    private final long quietMillis;
    private final long maxDelayMillis;

    private Scheduler.Cancellable armed;
    /** Whether the armed round is an idle loop's immediate one (later changes join it). */
    private boolean armedAtOnce;
    private long burstStart = -1;
    /** Scheduler time at which the last round started. */
    private long lastRoundAt = Long.MIN_VALUE / 2;
    private boolean closed;

    // owned by the scheduler's thread
    private WarmStart warm;
    /** The inputs of the allocation in force. */
    private AllocationInputs inForce;
    /** The last model built, and its inputs: the next build reuses its paths. */
    private AllocationModel built;
    private AllocationInputs builtFrom;
    private long rounds;
    private volatile long solves;
    private volatile AllocationResult current;

    public AllocationLoop(Supplier<AllocationInputs> inputs, AllocationListener listener, Scheduler scheduler,
                          ExactAllocator allocator, long quietMillis, long maxDelayMillis) {
        if (quietMillis < 0 || maxDelayMillis < quietMillis) {
            throw new IllegalArgumentException("need 0 <= quiet <= max delay, got " + quietMillis + ", " + maxDelayMillis);
        }
        this.inputs = inputs;
        this.listener = listener;
        this.scheduler = scheduler;
        this.allocator = allocator;
        this.quietMillis = quietMillis;
        this.maxDelayMillis = maxDelayMillis;
    }

    /** Something the allocation depends on changed; cheap, callable from any thread. */
    public synchronized void changed(String why) {
        if (closed) {
            return;
        }
        LOG.debug("allocation input changed: {}", why);
        long now = scheduler.nowMillis();
        if (armed != null && armedAtOnce) {
            return; // the round about to run takes its snapshot after this change
        }
        if (burstStart < 0) {
            burstStart = now;
            if (armed == null && now - lastRoundAt >= quietMillis) {
                armedAtOnce = true;
                armed = scheduler.schedule(this::round, 0);
                return;
            }
        }
        armedAtOnce = false;
        long due = Math.min(now + quietMillis, burstStart + maxDelayMillis);
        if (armed != null) {
            armed.cancel();
        }
        armed = scheduler.schedule(this::round, Math.max(0, due - now));
    }

    /** The allocation in force (null before the first round). */
    public AllocationResult current() {
        return current;
    }

    /** Rounds that ran the allocator so far. */
    public long solves() {
        return solves;
    }

    public synchronized void close() {
        closed = true;
        if (armed != null) {
            armed.cancel();
        }
    }

    private void round() {
        synchronized (this) {
            armed = null;
            armedAtOnce = false;
            burstStart = -1;
            lastRoundAt = scheduler.nowMillis();
            if (closed) {
                return;
            }
        }
        try {
            AllocationInputs in = inputs.get();
            if (in == null) {
                return; // no network configuration yet
            }
            long round = ++rounds;
            AllocationModel model = ProblemAdapter.build(in, builtFrom, built);
            built = model;
            builtFrom = in;
            String now = Instant.ofEpochMilli(scheduler.nowMillis()).toString();
            AllocationResult result;
            if (model.problem() == null) {
                result = AllocationResult.empty(round, now, model);
            } else {
                AllocationResult interim = interim(round, now, in, model);
                if (interim != null) {
                    current = interim;
                    inForce = in;
                    listener.allocated(interim);
                }
                solves++;
                Allocation a;
                long t0 = System.nanoTime();
                boolean warmStarted = warm != null;
                try {
                    a = allocator.solve(model.problem(), warm);
                } catch (InfeasibleProblemException e) {
                    List<String> links = bottlenecks(e.getMessage());
                    LOG.warn("allocation round {}: {}; the previous allocation stays in force", round, e.getMessage());
                    listener.infeasible(round, e.getMessage(), links);
                    return;
                }
                warm = a.warmStart();
                LOG.info("allocation round {}: {} sessions, {} paths, {} links solved in {} ms ({} iterations, {}, gap {})",
                        round, model.problem().sessionCount(), model.problem().pathCount(), model.problem().linkCount(),
                        String.format("%.1f", (System.nanoTime() - t0) / 1e6), a.iterations(), warmStarted ? "warm start" : "cold start",
                        String.format("%.1e", a.relativeGap()));
                if (!a.converged()) {
                    LOG.warn("allocation round {}: not converged (relative gap {}); using the best iterate", round, a.relativeGap());
                }
                result = AllocationResult.of(round, now, model, a);
            }
            current = result;
            inForce = in;
            listener.allocated(result);
        } catch (RuntimeException e) {
            LOG.error("allocation round {} failed; the previous allocation stays in force", rounds, e);
        }
    }

    /**
     * The interim allocation for the sessions that came and went since the allocation in force,
     * when nothing else changed and {@link ArrivalAllocation} finds one; null otherwise.
     */
    private AllocationResult interim(long round, String now, AllocationInputs in, AllocationModel model) {
        AllocationResult before = current;
        if (before == null || inForce == null || !onlySessionsChanged(inForce, in)) {
            return null;
        }
        Set<String> ids = new HashSet<>();
        in.sessions().forEach(s -> ids.add(s.id));
        long left = inForce.sessions().stream().filter(s -> !ids.contains(s.id)).count();
        if (left == 0 && ids.size() == inForce.sessions().size()) {
            return null; // nothing came or went
        }
        long t0 = System.nanoTime();
        Map<String, Map<Integer, Double>> rates = new HashMap<>();
        for (SessionAllocation s : before.sessions()) {
            Map<Integer, Double> byPath = new HashMap<>();
            s.paths().forEach(p -> byPath.put(p.pathId(), p.rateBps()));
            rates.put(s.session().id, byPath);
        }
        AllocationProblem p = model.problem();
        double[] inForceRates = new double[p.pathCount()];
        List<Integer> newcomers = new ArrayList<>();
        for (int i = 0; i < model.sessions().size(); i++) {
            Map<Integer, Double> byPath = rates.get(model.sessions().get(i).id);
            if (byPath == null) {
                newcomers.add(i);
                continue;
            }
            List<Path> paths = model.paths().get(i);
            for (int j = 0; j < paths.size(); j++) {
                inForceRates[p.firstPath(i) + j] = byPath.getOrDefault(paths.get(j).id(), 0.0);
            }
        }
        double[] interim = ArrivalAllocation.of(p, inForceRates, newcomers.stream().mapToInt(Integer::intValue).toArray());
        if (interim == null) {
            LOG.info("allocation round {}: {} arrival(s), {} departure(s), no interim allocation keeps every guarantee; the exact solve decides",
                    round, newcomers.size(), left);
            return null;
        }
        AllocationResult result = AllocationResult.interim(round, now, model, interim);
        LOG.info("allocation round {}: interim allocation for {} arrival(s), {} departure(s) in {} ms; the exact solve follows",
                round, newcomers.size(), left, String.format("%.1f", (System.nanoTime() - t0) / 1e6));
        return result;
    }

    /** Whether {@code after} differs from {@code before} in its sessions alone, each either new, gone or as it was. */
    static boolean onlySessionsChanged(AllocationInputs before, AllocationInputs after) {
        if (before.config() != after.config() || !before.tenants().equals(after.tenants()) || !before.hosts().equals(after.hosts())
                || !before.downLinks().equals(after.downLinks()) || !before.idleSessions().equals(after.idleSessions())) {
            return false;
        }
        Map<String, SessionDto> was = new HashMap<>();
        before.sessions().forEach(s -> was.put(s.id, s));
        for (SessionDto s : after.sessions()) {
            SessionDto old = was.get(s.id);
            if (old != null && !old.equals(s)) {
                return false;
            }
        }
        return true;
    }

    /** The link ids an {@link InfeasibleProblemException}'s message names ("bottleneck links include "a", "b""). */
    static List<String> bottlenecks(String message) {
        List<String> out = new ArrayList<>();
        int at = message == null ? -1 : message.indexOf("bottleneck links");
        if (at < 0) {
            return out;
        }
        Matcher m = QUOTED.matcher(message.substring(at));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
