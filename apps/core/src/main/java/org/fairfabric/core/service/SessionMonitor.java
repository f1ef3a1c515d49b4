package org.fairfabric.core.service;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.model.SessionKey;
import org.fairfabric.core.ports.EventSink;
import org.fairfabric.core.ports.FabricEvent;
import org.fairfabric.core.ports.FabricEventType;
import org.fairfabric.core.session.LinkLoadEstimator;
import org.fairfabric.core.session.LinkLoads;
import org.fairfabric.core.session.SessionCounter;
import org.fairfabric.core.session.SessionPath;

/**
 * The Promenade network monitor's view: which sessions are active (n) and the per-link loads. Each
 * receiver report is turned into rates with its own period; within one monitor period the latest
 * rate per session-path wins (only a session's receiver reports it, so a second report is newer
 * data, not more traffic). {@link #closePeriod()} yields the loads and starts a new period.
 */
public final class SessionMonitor {
    private final SessionCounter counter;
    private final LinkLoadEstimator estimator;
    private final EventSink events;
    private final LongSupplier clockMillis;
    private Map<SessionPath, Double> rates = new TreeMap<>();

    public SessionMonitor(SessionCounter counter, LinkLoadEstimator estimator, EventSink events,
                          LongSupplier clockMillis) {
        this.counter = Checks.notNull(counter, "session counter");
        this.estimator = Checks.notNull(estimator, "link load estimator");
        this.events = Checks.notNull(events, "event sink");
        this.clockMillis = Checks.notNull(clockMillis, "clock");
    }

    public synchronized SessionCounter.Change onSessionReport(SessionKey session, boolean active, long reportMillis) {
        SessionCounter.Change c = counter.report(session, active, reportMillis);
        if (c != SessionCounter.Change.NONE) {
            events.emit(new FabricEvent(clockMillis.getAsLong(), c == SessionCounter.Change.BECAME_ACTIVE
                    ? FabricEventType.SESSION_ACTIVE : FabricEventType.SESSION_INACTIVE, session.toString(),
                    "n = " + counter.activeCount()));
        }
        return c;
    }

    public synchronized List<SessionKey> expire() {
        long now = clockMillis.getAsLong();
        List<SessionKey> gone = counter.expire(now);
        for (SessionKey k : gone) {
            events.emit(new FabricEvent(now, FabricEventType.SESSION_EXPIRED, k.toString(), "n = " + counter.activeCount()));
        }
        return gone;
    }

    public synchronized void onPathBytes(Map<SessionPath, Long> bytes, double periodSeconds) {
        Checks.positive(periodSeconds, "report period T");
        Map<SessionPath, Double> converted = new TreeMap<>();
        for (Map.Entry<SessionPath, Long> e : Checks.notNull(bytes, "path bytes").entrySet()) {
            Checks.nonNegative(e.getValue(), "bytes of " + e.getKey());
            converted.put(e.getKey(), e.getValue() * 8.0 / periodSeconds);
        }
        rates.putAll(converted);
    }

    public synchronized LinkLoads closePeriod() {
        LinkLoads loads = estimator.fromRates(rates);
        rates = new TreeMap<>();
        return loads;
    }

    public synchronized int activeCount() {
        return counter.activeCount();
    }

    public synchronized Set<SessionKey> activeSessions() {
        return counter.activeSessions();
    }
}
