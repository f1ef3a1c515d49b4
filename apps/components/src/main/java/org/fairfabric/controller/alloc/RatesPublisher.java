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
    private long published;
    /** The allocation published last (null before the first). */
    private AllocationResult last;

    public RatesPublisher(RatesSink sink, LongSupplier clockMillis) {
        this(sink, clockMillis, true);
    }

    /** {@code pinned} false (ECMP routing): each session's total on one untagged path ({@link RatesTable#fromAllocation}). */
    public RatesPublisher(RatesSink sink, LongSupplier clockMillis, boolean pinned) {
        this.sink = sink;
        this.clockMillis = clockMillis;
        this.pinned = pinned;
    }

    /**
     * Publishes the tables of the shim hosts of {@code r} that differ from what was sent last. Only
     * the tables of senders whose sessions came, went or changed since the last allocation published
     * are built (all of them after a change of the topology or of the shim hosts).
     */
    public synchronized void publish(AllocationResult r) {
        Set<String> hosts = last == null || last.model().topology() != r.model().topology()
                || !last.model().shimHosts().equals(r.model().shimHosts()) ? r.model().shimHosts() : changedSenders(last, r);
        last = r;
        Map<String, String> out = new LinkedHashMap<>();
        for (RatesTable t : RatesTable.fromAllocation(r, hosts, pinned).values()) {
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
            sink.sendAll(out);
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

    /** Tables sent so far. */
    public synchronized long published() {
        return published;
    }
}
