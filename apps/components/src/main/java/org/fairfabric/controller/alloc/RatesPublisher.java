package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.core.model.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the rates table of every host that runs the shim, after each allocation round, when
 * its sessions or rates changed (and once for every such host after the controller starts, so a
 * shim never keeps a previous run's rates). Versions: one per host, strictly increasing, at least
 * the current time in milliseconds, so that a restarted controller still outranks the tables of
 * its previous run. Every table is checked against the shim's rules first; one that fails is
 * logged and not sent (the host keeps its previous rates). An allocation's tables go to the sink
 * together ({@link RatesSink#sendAll}), so that Kafka carries them in one request where it can.
 */
public final class RatesPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(RatesPublisher.class);

    private final RatesSink sink;
    private final LongSupplier clockMillis;
    private final Map<String, Long> versions = new HashMap<>();
    private final Map<String, RatesTable> sent = new HashMap<>();
    private final boolean pinned;
    private final SolveGate gate;
    private long published;
    /** Allocations whose tables came from the index of senders ({@link #appended}); for tests. */
    private long fromIndex;
    /** The allocation published last (null before the first). */
    private AllocationResult last;
    /**
     * Per shim host, the positions in {@link #last}'s sessions of the routable sessions it sends;
     * null until an allocation derived from {@link #last} by appended sessions needs it.
     */
    private Map<String, List<Integer>> bySender;

    public RatesPublisher(RatesSink sink, LongSupplier clockMillis) {
        this(sink, clockMillis, true);
    }

    /** {@code pinned} false (ECMP routing): each session's total on one untagged path ({@link RatesTable#fromAllocation}). */
    public RatesPublisher(RatesSink sink, LongSupplier clockMillis, boolean pinned) {
        this(sink, clockMillis, pinned, new SolveGate());
    }

    /** {@code gate}: held while the sink delivers an allocation's tables (at most {@link #DELIVERY_HOLD_MS}), so that the exact solve gives way. */
    public RatesPublisher(RatesSink sink, LongSupplier clockMillis, boolean pinned, SolveGate gate) {
        this.sink = sink;
        this.clockMillis = clockMillis;
        this.pinned = pinned;
        this.gate = gate;
    }

    /** The longest the exact solve waits for an allocation's tables to reach the sink's far end. */
    static final long DELIVERY_HOLD_MS = 250;

    /**
     * Publishes the tables of the shim hosts of {@code r} that differ from what was sent last. Only
     * the tables of senders whose sessions came, went or changed since the last allocation published
     * are built (all of them after a change of the topology or of the shim hosts).
     */
    public synchronized void publish(AllocationResult r) {
        boolean sameHosts = last != null && last.model().topology() == r.model().topology() && last.model().shimHosts().equals(r.model().shimHosts());
        Map<String, RatesTable> tables;
        if (sameHosts && r.derivedFrom() == last.serial()) {
            tables = appended(r);
            fromIndex++;
        } else {
            Set<String> hosts = sameHosts ? changedSenders(last, r) : r.model().shimHosts();
            bySender = null;
            tables = RatesTable.fromAllocation(r, hosts, pinned);
        }
        last = r;
        Map<String, String> out = new LinkedHashMap<>();
        for (RatesTable t : tables.values()) {
            RatesTable before = sent.get(t.host());
            if (before != null && before.sessions().equals(t.sessions())) {
                continue;
            }
            long version = Math.max(versions.getOrDefault(t.host(), 0L) + 1, clockMillis.getAsLong());
            RatesTable v = t.withVersion(version);
            try {
                RatesTableJson.check(t.host(), v);
            } catch (IllegalArgumentException e) {
                LOG.error("rates table of {} not published, the shim would reject it: {}: {}", t.host(), e.getMessage(), RatesTableJson.write(v));
                continue;
            }
            out.put(t.host(), RatesTableJson.write(v));
            versions.put(t.host(), version);
            sent.put(t.host(), t);
            published++;
        }
        if (!out.isEmpty()) {
            SolveGate.Hold delivering = gate.hold(DELIVERY_HOLD_MS);
            try {
                sink.sendAll(out).whenComplete((done, failed) -> delivering.close());
            } catch (RuntimeException e) {
                delivering.close();
                throw e;
            }
        }
    }

    /**
     * The tables to compare with what was sent when {@code r} is {@link #last} with sessions
     * appended ({@link AllocationResult#derivedFrom()}): those of the shim hosts that send a session
     * whose object is not {@link #last}'s ({@link AllocationResult#changed()}: the same hosts
     * {@link #changedSenders} finds), each from the sessions an index of senders lists, kept up to
     * date by the appended positions — the same tables as {@link RatesTable#fromAllocation}, with
     * work for the changed sessions and their senders' sessions only.
     */
    private Map<String, RatesTable> appended(AllocationResult r) {
        Topology topo = r.model().topology();
        Set<String> shims = r.model().shimHosts();
        if (bySender == null) {
            bySender = new HashMap<>();
            for (int i = 0; i < last.model().sessions().size(); i++) {
                index(topo, shims, last.sessions().get(i).session(), i);
            }
        }
        for (int i = r.appendedFrom(); i < r.model().sessions().size(); i++) {
            index(topo, shims, r.sessions().get(i).session(), i);
        }
        Map<String, List<SessionAllocation>> bySrc = new HashMap<>();
        for (int i : r.changed()) {
            String host = RatesTable.sender(topo, r.sessions().get(i).session());
            if (host != null && shims.contains(host) && !bySrc.containsKey(host)) {
                List<SessionAllocation> sessions = new ArrayList<>();
                for (int j : bySender.getOrDefault(host, List.of())) {
                    sessions.add(r.sessions().get(j));
                }
                bySrc.put(host, sessions);
            }
        }
        return RatesTable.fromSessions(topo, bySrc, pinned);
    }

    private void index(Topology topo, Set<String> shims, SessionDto s, int position) {
        String host = RatesTable.sender(topo, s);
        if (host != null && shims.contains(host)) {
            bySender.computeIfAbsent(host, h -> new ArrayList<>()).add(position);
        }
    }

    /**
     * The shim hosts that send a session of {@code r} or {@code before} that is not in the other
     * one as it was (an interim allocation keeps the objects of the sessions it left alone).
     */
    static Set<String> changedSenders(AllocationResult before, AllocationResult r) {
        Map<String, SessionAllocation> was = new HashMap<>();
        before.sessions().forEach(s -> was.put(s.session().id, s));
        List<SessionDto> changed = new ArrayList<>();
        for (SessionAllocation s : r.sessions()) {
            SessionAllocation w = was.remove(s.session().id);
            if (w != s && !s.equals(w)) {
                changed.add(s.session());
                if (w != null) {
                    changed.add(w.session());
                }
            }
        }
        was.values().forEach(w -> changed.add(w.session()));
        Set<String> out = new HashSet<>();
        for (SessionDto s : changed) {
            String host = RatesTable.sender(r.model().topology(), s);
            if (host != null && r.model().shimHosts().contains(host)) {
                out.add(host);
            }
        }
        return out;
    }

    /** Allocations so far whose changed tables were found from the index of senders (sessions appended to the last one). */
    synchronized long fromIndex() {
        return fromIndex;
    }

    /** Tables sent so far. */
    public synchronized long published() {
        return published;
    }
}
