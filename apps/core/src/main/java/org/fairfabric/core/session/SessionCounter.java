package org.fairfabric.core.session;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.model.SessionKey;

/**
 * Promenade Algorithm 2 (session counting at the monitor), fixed. The printed algorithm only counts
 * a session that is active when first seen; one first reported inactive is listed without being
 * counted, never counted when it turns active, and wrongly decremented when it turns inactive again.
 * Here every session has an explicit state and n changes only on INACTIVE/absent -> ACTIVE and
 * ACTIVE -> INACTIVE transitions, so n is the number of ACTIVE sessions and cannot go negative.
 * Reports carry the sender shim's time; a report older than the last one accepted for the session
 * is ignored (reordering in transit). A session with no report for longer than the liveness timeout
 * is dropped from the list (and from n if it was active): the paper has no timeout, so a crashed
 * shim would otherwise leave its sessions counted forever. Times in milliseconds.
 */
public final class SessionCounter {
    /** The effect of one report on n. */
    public enum Change {
        BECAME_ACTIVE, BECAME_INACTIVE, NONE
    }

    private static final class Entry {
        SessionState state;
        long lastReportMillis;
    }

    private final long livenessTimeoutMillis;
    private final Map<SessionKey, Entry> sessions = new TreeMap<>();
    private int activeCount;

    public SessionCounter(long livenessTimeoutMillis) {
        this.livenessTimeoutMillis = Checks.positive(livenessTimeoutMillis, "liveness timeout (ms)");
    }

    public Change report(SessionKey key, boolean active, long reportMillis) {
        Checks.notNull(key, "session key");
        Entry e = sessions.get(key);
        if (e == null) {
            e = new Entry();
            e.state = SessionState.INACTIVE;
            e.lastReportMillis = reportMillis;
            sessions.put(key, e);
        } else if (reportMillis < e.lastReportMillis) {
            return Change.NONE;
        }
        e.lastReportMillis = reportMillis;
        SessionState next = active ? SessionState.ACTIVE : SessionState.INACTIVE;
        if (next == e.state) {
            return Change.NONE;
        }
        e.state = next;
        if (next == SessionState.ACTIVE) {
            activeCount++;
            return Change.BECAME_ACTIVE;
        }
        activeCount--;
        return Change.BECAME_INACTIVE;
    }

    /** Drops sessions silent for longer than the timeout; returns the active ones that were dropped. */
    public List<SessionKey> expire(long nowMillis) {
        List<SessionKey> droppedActive = new ArrayList<>();
        List<SessionKey> dropped = new ArrayList<>();
        for (Map.Entry<SessionKey, Entry> e : sessions.entrySet()) {
            if (nowMillis - e.getValue().lastReportMillis > livenessTimeoutMillis) {
                dropped.add(e.getKey());
                if (e.getValue().state == SessionState.ACTIVE) {
                    droppedActive.add(e.getKey());
                }
            }
        }
        for (SessionKey k : dropped) {
            sessions.remove(k);
        }
        activeCount -= droppedActive.size();
        return droppedActive;
    }

    /** n, the number of active sessions. */
    public int activeCount() {
        return activeCount;
    }

    public Optional<SessionState> state(SessionKey key) {
        Entry e = sessions.get(key);
        return e == null ? Optional.empty() : Optional.of(e.state);
    }

    public Set<SessionKey> activeSessions() {
        Set<SessionKey> out = new TreeSet<>();
        for (Map.Entry<SessionKey, Entry> e : sessions.entrySet()) {
            if (e.getValue().state == SessionState.ACTIVE) {
                out.add(e.getKey());
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /** Every session the monitor knows, active or recently inactive. */
    public Set<SessionKey> knownSessions() {
        return Collections.unmodifiableSet(new TreeSet<>(sessions.keySet()));
    }
}
