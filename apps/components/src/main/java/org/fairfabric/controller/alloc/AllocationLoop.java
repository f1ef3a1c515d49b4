package org.fairfabric.controller.alloc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
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
 * problem ({@link ProblemAdapter}) and has it solved by {@link ExactAllocator} from the previous
 * solve's warm start, on the solver's thread, one solve at a time; the answer comes back to the
 * scheduler's thread and is handed on. The exact solve can take seconds to minutes on a large
 * fabric, so when only sessions came or went since the allocation in force, the round first hands
 * on an interim allocation computed from it ({@link ArrivalAllocation}: the others keep their
 * rates where they can, each newcomer gets its fair share of one path), and rounds go on while a
 * solve runs; the exact result replaces the interim one (with an interim allocation from it for
 * the sessions that came or went meanwhile, then their own solve). When the guarantees cannot be
 * met, the previous allocation stays in force and the listener hears which links are the
 * bottleneck.
 */
public final class AllocationLoop {
    private static final Logger LOG = LoggerFactory.getLogger(AllocationLoop.class);
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");
    /** The longest a round holds the exact solve back (one at k=16 with 10,000 sessions takes 10-120 ms). */
    static final long ROUND_HOLD_MS = 2000;

    private final Supplier<AllocationInputs> inputs;
    private final AllocationListener listener;
    private final Scheduler scheduler;
    private final ExactAllocator allocator;
    private final Executor solver;
    private final SolveGate gate;
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
    private long builtRound;
    /** Whether an exact solve is running (at most one at a time). */
    private boolean solving;
    private long rounds;
    private volatile long solves;
    private volatile AllocationResult current;
    /** Whether rounds after arrivals alone extend the previous model and allocation (false: tests compare with the general path). */
    boolean appendPath = true;
    /** Interim allocations computed from the previous one's arrays (sessions appended); for tests and the log. */
    private volatile long appendedInterims;

    /**
     * @param solver where the exact solves run, one at a time, so that rounds (and interim
     *               allocations) go on meanwhile; {@code Runnable::run} solves within the round
     * @param gate   held during every round (at most {@link #ROUND_HOLD_MS}): an {@code allocator}
     *               that has it as its checkpoint gives way to rounds
     */
    public AllocationLoop(Supplier<AllocationInputs> inputs, AllocationListener listener, Scheduler scheduler,
                          ExactAllocator allocator, Executor solver, SolveGate gate, long quietMillis, long maxDelayMillis) {
        if (quietMillis < 0 || maxDelayMillis < quietMillis) {
            throw new IllegalArgumentException("need 0 <= quiet <= max delay, got " + quietMillis + ", " + maxDelayMillis);
        }
        this.inputs = inputs;
        this.listener = listener;
        this.scheduler = scheduler;
        this.allocator = allocator;
        this.solver = solver;
        this.gate = gate;
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

    /** Interim allocations so far that extended the one in force by appended sessions alone. */
    long appendedInterims() {
        return appendedInterims;
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
        try (SolveGate.Hold roundInProgress = gate.hold(ROUND_HOLD_MS)) {
            AllocationInputs in = inputs.get();
            if (in == null) {
                return; // no network configuration yet
            }
            long round = ++rounds;
            long started = System.nanoTime();
            AllocationModel model = ProblemAdapter.build(in, builtFrom, built, appendPath);
            built = model;
            builtFrom = in;
            builtRound = round;
            if (model.problem() == null) {
                putInForce(AllocationResult.empty(round, now(), model), in);
                return;
            }
            AllocationResult interim = interim(round, in, model, current, inForce, started);
            if (interim != null) {
                putInForce(interim, in);
            }
            if (!solving) {
                solve(round, in, model);
            }
        } catch (RuntimeException e) {
            LOG.error("allocation round {} failed; the previous allocation stays in force", rounds, e);
        }
    }

    /** Starts the exact solve of {@code model} on the solver; its answer comes back to the scheduler's thread ({@link #solved}). */
    private void solve(long round, AllocationInputs in, AllocationModel model) {
        solving = true;
        solves++;
        WarmStart from = warm;
        solver.execute(() -> {
            long t0 = System.nanoTime();
            Allocation a = null;
            InfeasibleProblemException infeasible = null;
            try {
                a = allocator.solve(model.problem(), from);
            } catch (InfeasibleProblemException e) {
                infeasible = e;
            } catch (RuntimeException e) {
                LOG.error("allocation round {}: the exact solve failed; the allocation in force stays", round, e);
            }
            Allocation answer = a;
            InfeasibleProblemException refused = infeasible;
            double ms = (System.nanoTime() - t0) / 1e6;
            try {
                scheduler.schedule(() -> solved(round, in, model, answer, refused, from != null, ms), 0);
            } catch (RejectedExecutionException closing) {
                // the loop's thread has stopped: nobody is left to put it in force
            }
        });
    }

    /**
     * An exact solve's answer, on the scheduler's thread. When the inputs are still those it solved,
     * it goes in force. When sessions alone came or went since, it goes in force with them, as an
     * interim allocation again ({@link ArrivalAllocation} from it); after any other change it is only
     * a warm start. Either way, changed inputs are solved next.
     */
    private void solved(long round, AllocationInputs in, AllocationModel model, Allocation a, InfeasibleProblemException infeasible,
                        boolean warmStarted, double ms) {
        solving = false;
        if (isClosed()) {
            return;
        }
        try {
            boolean latest = builtFrom.equals(in);
            if (infeasible != null) {
                LOG.warn("allocation round {}: {}; the previous allocation stays in force", round, infeasible.getMessage());
                if (latest) {
                    listener.infeasible(round, infeasible.getMessage(), bottlenecks(infeasible.getMessage()));
                }
            } else if (a != null) {
                warm = a.warmStart();
                LOG.info("allocation round {}: {} sessions, {} paths, {} links solved in {} ms ({} iterations, {}, gap {})",
                        round, model.problem().sessionCount(), model.problem().pathCount(), model.problem().linkCount(),
                        String.format("%.1f", ms), a.iterations(), warmStarted ? "warm start" : "cold start",
                        String.format("%.1e", a.relativeGap()));
                if (!a.converged()) {
                    LOG.warn("allocation round {}: not converged (relative gap {}); using the best iterate", round, a.relativeGap());
                }
                AllocationResult exact = AllocationResult.of(round, now(), model, a);
                if (latest) {
                    putInForce(exact, in);
                } else if (built.problem() != null) {
                    AllocationResult interim = interim(builtRound, builtFrom, built, exact, in, System.nanoTime());
                    if (interim != null) {
                        putInForce(interim, builtFrom);
                    }
                }
            }
            if (!latest && built.problem() != null) {
                solve(builtRound, builtFrom, built);
            }
        } catch (RuntimeException e) {
            LOG.error("allocation round {} failed; the previous allocation stays in force", round, e);
        }
    }

    private void putInForce(AllocationResult result, AllocationInputs in) {
        current = result;
        inForce = in;
        listener.allocated(result);
    }

    private String now() {
        return Instant.ofEpochMilli(scheduler.nowMillis()).toString();
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    /**
     * The interim allocation of {@code model} (built from {@code in}) for the sessions that came and
     * went since {@code before} (computed from {@code beforeIn}), when nothing else changed and
     * {@link ArrivalAllocation} finds one; null otherwise. {@code started}: when the work for it
     * began ({@link System#nanoTime}), for the log.
     */
    private AllocationResult interim(long round, AllocationInputs in, AllocationModel model, AllocationResult before, AllocationInputs beforeIn,
                                     long started) {
        if (before == null || beforeIn == null) {
            return null;
        }
        if (model.appendedTo() == before.model() && before.pathRates() != null) {
            return appendedInterim(round, in, model, before, beforeIn, started);
        }
        if (!sameBesidesSessions(beforeIn, in)) {
            return null;
        }
        // before holds every session of beforeIn (its unroutable ones at rate 0), each as it was there
        Map<String, SessionAllocation> was = new HashMap<>(before.sessions().size() * 4 / 3 + 1);
        before.sessions().forEach(s -> was.put(s.session().id, s));
        int stayed = 0;
        for (SessionDto s : in.sessions()) {
            SessionAllocation w = was.get(s.id);
            if (w != null) {
                if (!w.session().equals(s)) {
                    return null; // a session changed: not only arrivals and departures
                }
                stayed++;
            }
        }
        long left = beforeIn.sessions().size() - stayed;
        if (left == 0 && stayed == in.sessions().size()) {
            return null; // nothing came or went
        }
        AllocationProblem p = model.problem();
        SessionAllocation[] kept = new SessionAllocation[model.sessions().size()];
        double[] inForceRates = new double[p.pathCount()];
        List<Integer> newcomers = new ArrayList<>();
        for (int i = 0; i < kept.length; i++) {
            kept[i] = was.get(model.sessions().get(i).id);
            if (kept[i] == null) {
                newcomers.add(i);
                continue;
            }
            List<Path> paths = model.paths().get(i);
            for (int j = 0; j < paths.size(); j++) {
                inForceRates[p.firstPath(i) + j] = rateOn(kept[i], j, paths.get(j).id());
            }
        }
        double[] interim = ArrivalAllocation.of(p, inForceRates, newcomers.stream().mapToInt(Integer::intValue).toArray());
        if (interim == null) {
            LOG.info("allocation round {}: {} arrival(s), {} departure(s), no interim allocation keeps every guarantee; the exact solve decides",
                    round, newcomers.size(), left);
            return null;
        }
        AllocationResult result = AllocationResult.interim(round, now(), model, interim, kept);
        LOG.info("allocation round {}: interim allocation for {} arrival(s), {} departure(s) in {} ms (model build included); the exact solve follows",
                round, newcomers.size(), left, String.format("%.1f", (System.nanoTime() - started) / 1e6));
        return result;
    }

    /**
     * {@link #interim} when {@code model} is {@code before}'s model with sessions appended (so
     * {@code in} is {@code beforeIn} with sessions appended, nothing else changed, and every path
     * of {@code before}'s problem keeps its index): the rates in force are {@code before}'s path rates
     * as they are, the newcomers the appended sessions, and a kept session's object is found by
     * comparing rate arrays ({@link AllocationResult#interimAppended}) — no pass over the sessions'
     * objects. The same result as {@link #interim}'s general case.
     */
    private AllocationResult appendedInterim(long round, AllocationInputs in, AllocationModel model, AllocationResult before, AllocationInputs beforeIn,
                                             long started) {
        AllocationProblem p = model.problem();
        int kept = before.model().sessions().size();
        if (in.sessions().size() == beforeIn.sessions().size()) {
            return null; // nothing came or went
        }
        int[] newcomers = new int[p.sessionCount() - kept];
        for (int n = 0; n < newcomers.length; n++) {
            newcomers[n] = kept + n;
        }
        double[] inForceRates = Arrays.copyOf(before.pathRates(), p.pathCount());
        AppendIndex index = model.appendIndex;
        double[] total = null;
        double[] load = null;
        List<Integer> touched = new ArrayList<>();
        double[] interim;
        if (index == null) {
            interim = ArrivalAllocation.of(p, inForceRates, newcomers, null);
        } else {
            // the sums at the rates in force: before's, the newcomers' paths at 0 adding nothing
            total = Arrays.copyOf(before.totals(), p.sessionCount());
            load = Arrays.copyOf(before.loads(), p.linkCount());
            interim = ArrivalAllocation.of(p, inForceRates, newcomers, index.linkPaths, total, load, touched);
        }
        if (interim == null) {
            LOG.info("allocation round {}: {} arrival(s), {} departure(s), no interim allocation keeps every guarantee; the exact solve decides",
                    round, newcomers.length, 0);
            return null;
        }
        AllocationResult result = AllocationResult.interimAppended(round, now(), model, interim, before);
        appendedInterims++;
        if (index != null) {
            ArrivalAllocation.refresh(p, interim, touched, index.linkPaths, total, load);
            result.knownSums(total, load);
        }
        LOG.info("allocation round {}: interim allocation for {} arrival(s), {} departure(s) in {} ms (model build included); the exact solve follows",
                round, newcomers.length, 0, String.format("%.1f", (System.nanoTime() - started) / 1e6));
        return result;
    }

    /**
     * {@code s}'s rate on path {@code pathId}, its {@code j}-th path in the model: looked up there
     * first (a session keeps its model's path order), by id otherwise.
     */
    private static double rateOn(SessionAllocation s, int j, int pathId) {
        if (j < s.paths().size() && s.paths().get(j).pathId() == pathId) {
            return s.paths().get(j).rateBps();
        }
        return s.rateBps(pathId);
    }

    /** Whether {@code after} has the inputs of {@code before} but for its sessions (checked by {@link #interim}: each new, gone or as it was). */
    static boolean sameBesidesSessions(AllocationInputs before, AllocationInputs after) {
        return before.config() == after.config() && before.tenants().equals(after.tenants()) && before.hosts().equals(after.hosts())
                && before.downLinks().equals(after.downLinks()) && before.idleSessions().equals(after.idleSessions());
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
