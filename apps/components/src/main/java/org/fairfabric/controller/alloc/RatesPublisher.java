package org.fairfabric.controller.alloc;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the rates table of every host that runs the shim, after each allocation round, when
 * its sessions or rates changed (and once for every such host after the controller starts, so a
 * shim never keeps a previous run's rates). Versions: one per host, strictly increasing, at least
 * the current time in milliseconds, so that a restarted controller still outranks the tables of
 * its previous run. Every table is checked against the shim's rules first; one that fails is
 * logged and not sent (the host keeps its previous rates).
 */
public final class RatesPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(RatesPublisher.class);

    private final RatesSink sink;
    private final LongSupplier clockMillis;
    private final Map<String, Long> versions = new HashMap<>();
    private final Map<String, RatesTable> sent = new HashMap<>();
    private final boolean pinned;
    private long published;

    public RatesPublisher(RatesSink sink, LongSupplier clockMillis) {
        this(sink, clockMillis, true);
    }

    /** {@code pinned} false (ECMP routing): each session's total on one untagged path ({@link RatesTable#fromAllocation}). */
    public RatesPublisher(RatesSink sink, LongSupplier clockMillis, boolean pinned) {
        this.sink = sink;
        this.clockMillis = clockMillis;
        this.pinned = pinned;
    }

    /** Publishes the tables of the shim hosts of {@code r} that differ from what was sent last. */
    public synchronized void publish(AllocationResult r) {
        for (RatesTable t : RatesTable.fromAllocation(r, r.model().shimHosts(), pinned).values()) {
            RatesTable before = sent.get(t.host());
            if (before != null && before.sessions().equals(t.sessions())) {
                continue;
            }
            long version = Math.max(versions.getOrDefault(t.host(), 0L) + 1, clockMillis.getAsLong());
            RatesTable v = t.withVersion(version);
            String json = RatesTableJson.write(v);
            try {
                RatesTableJson.check(t.host(), t.host(), json);
            } catch (IllegalArgumentException e) {
                LOG.error("rates table of {} not published, the shim would reject it: {}: {}", t.host(), e.getMessage(), json);
                continue;
            }
            sink.send(t.host(), json);
            versions.put(t.host(), version);
            sent.put(t.host(), t);
            published++;
        }
    }

    /** Tables sent so far. */
    public synchronized long published() {
        return published;
    }
}
