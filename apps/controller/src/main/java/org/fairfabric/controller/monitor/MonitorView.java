package org.fairfabric.controller.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;

/**
 * The monitor's view as the controller last read it from ff.mon.sessions/links/tenants: the
 * latest record of every key (a tombstone removes it). Thread-safe.
 */
public final class MonitorView {
    /** Sessions detected from traffic get this id prefix and {@code source}. */
    public static final String DETECTED_PREFIX = "detected/";
    public static final String DETECTED_SOURCE = "monitor";

    private final Map<String, JsonNode> sessions = new TreeMap<>();
    /**
     * By pair of addresses (and, as "report:ID", by declared session named in a sender's report):
     * the latest time a record showed it sending — an active record's {@code since_ms}, any
     * record's {@code last_traffic_ms}. Work conservation compares it with when a declared
     * session appeared: the compacted topic also holds records of earlier runs (and a restarted
     * monitor may time out an earlier run's sessions), whose addresses and session ids recur.
     */
    private final Map<String, Long> sentAtMs = new java.util.HashMap<>();
    /** Declared session id -> when {@link #idleSessions} first saw it declared. */
    private final Map<String, Long> declaredAtMs = new java.util.HashMap<>();
    private final Map<String, JsonNode> links = new TreeMap<>();
    private final Map<String, JsonNode> tenants = new TreeMap<>();
    /** The view is live while some record came within this long (the monitor runs and reports). */
    public static final long LIVE_MS = 10_000;
    private final java.util.function.LongSupplier clockMs;
    private long lastRecordMs = Long.MIN_VALUE;
    private final long startedMs;
    /**
     * Whether a record written since this view started (less {@link #LIVE_MS}) came: until then the
     * topic's records are history, perhaps of a monitor that stopped with sessions active (nobody
     * removes those), so no session is detected from them.
     */
    private boolean heardThisRun;

    public MonitorView() {
        this(System::currentTimeMillis);
    }

    public MonitorView(java.util.function.LongSupplier clockMs) {
        this.clockMs = clockMs;
        this.startedMs = clockMs.getAsLong();
    }

    /** Applies one record written now; returns true when the set of active sessions changed. */
    public synchronized boolean apply(String topicKind, String key, JsonNode value) {
        return apply(topicKind, key, value, clockMs.getAsLong());
    }

    /**
     * Applies one record written at {@code writtenMs} (its Kafka timestamp); returns true when the
     * set of active sessions changed.
     */
    public synchronized boolean apply(String topicKind, String key, JsonNode value, long writtenMs) {
        if (writtenMs >= startedMs - LIVE_MS) {
            heardThisRun = true;
        }
        Map<String, JsonNode> m = switch (topicKind) {
            case "sessions" -> sessions;
            case "links" -> links;
            case "tenants" -> tenants;
            default -> throw new IllegalArgumentException("unknown view " + topicKind);
        };
        lastRecordMs = clockMs.getAsLong();
        JsonNode before = value == null ? m.remove(key) : m.put(key, value);
        if (m != sessions) {
            return false;
        }
        long sent = sentAt(value);
        if (sent != Long.MIN_VALUE) {
            sentAtMs.merge(key, sent, Math::max);
            if (value.path("session").isTextual()) {
                sentAtMs.merge("report:" + value.path("session").asText(), sent, Math::max);
            }
        }
        return active(before) != active(value) || (active(value) && !Objects.equals(
                before == null ? null : before.path("tenant"), value.path("tenant")));
    }

    /** When the record last showed its pair sending; MIN_VALUE when it does not say. */
    private static long sentAt(JsonNode session) {
        if (session == null) {
            return Long.MIN_VALUE;
        }
        long traffic = session.path("last_traffic_ms").asLong(Long.MIN_VALUE);
        return active(session) ? Math.max(traffic, session.path("since_ms").asLong(Long.MIN_VALUE)) : traffic;
    }

    private static boolean active(JsonNode session) {
        return session != null && "active".equals(session.path("state").asText());
    }

    public synchronized List<JsonNode> sessions() {
        return new ArrayList<>(sessions.values());
    }

    public synchronized List<JsonNode> links() {
        return new ArrayList<>(links.values());
    }

    public synchronized List<JsonNode> tenants() {
        return new ArrayList<>(tenants.values());
    }

    public synchronized JsonNode tenant(String id) {
        return tenants.get(id);
    }

    /**
     * The declared sessions that send nothing, by id (work conservation, docs/guarantees.md). A
     * record that names the session (its sender's shim report, {@code session} = the id) decides
     * by its state; else the record of its pair of addresses does (inactive: idle); else, while the
     * view is live (a record in the last {@link #LIVE_MS}), a pair the view has no record of any
     * more (removed after the liveness timeout) is idle. Either way only once a record showed it
     * sending at or after the time this method first saw the session declared: a session that never
     * sent reserves its share (a host without a shim reports nothing, a session declared before its
     * traffic starts must get its share, and the topic's records of earlier runs with the same
     * addresses or session ids are not this session's; after a controller restart a session that
     * sends on is not idle until a record shows it stopping). Without a live view
     * nothing is called idle from absence (no monitor: every declared session keeps its guarantee).
     */
    public synchronized java.util.Set<String> idleSessions(List<HostDto> hosts, List<SessionDto> declared) {
        Map<String, HostDto> byId = new TreeMap<>();
        hosts.forEach(h -> byId.put(h.id, h));
        java.util.Set<String> activePairs = new java.util.HashSet<>();
        java.util.Set<String> inactivePairs = new java.util.HashSet<>();
        Map<String, Boolean> byReport = new TreeMap<>();
        for (JsonNode s : sessions.values()) {
            if (s.path("session").isTextual()) {
                byReport.merge(s.path("session").asText(), active(s), Boolean::logicalOr);
            }
            String pair = s.path("src").asText() + ">" + s.path("dst").asText();
            (active(s) ? activePairs : inactivePairs).add(pair);
        }
        long now = clockMs.getAsLong();
        boolean live = lastRecordMs != Long.MIN_VALUE && now - lastRecordMs <= LIVE_MS;
        declaredAtMs.keySet().retainAll(declared.stream().map(d -> d.id).toList());
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (SessionDto d : declared) {
            long since = declaredAtMs.computeIfAbsent(d.id, id -> now);
            HostDto src = byId.get(d.srcHost);
            HostDto dst = byId.get(d.dstHost);
            if (src == null || dst == null || d.id.startsWith(DETECTED_PREFIX)) {
                continue;
            }
            Boolean reported = byReport.get(d.id);
            if (reported != null && sentAtMs.getOrDefault("report:" + d.id, Long.MIN_VALUE) >= since) {
                if (!reported) {
                    out.add(d.id);
                }
                continue;
            }
            String pair = src.ip + ">" + dst.ip;
            if (activePairs.contains(pair)) {
                continue;
            }
            if (sentAtMs.getOrDefault(pair, Long.MIN_VALUE) >= since && (inactivePairs.contains(pair) || live)) {
                out.add(d.id);
            }
        }
        return out;
    }

    /**
     * The active sessions of the view that no REST session covers, as sessions for the allocator:
     * both addresses must be hosts of the same tenant.
     */
    public synchronized List<SessionDto> detectedSessions(List<HostDto> hosts, List<SessionDto> declared) {
        if (!heardThisRun) {
            return List.of();
        }
        Map<String, HostDto> byIp = new TreeMap<>();
        hosts.forEach(h -> byIp.put(h.ip, h));
        List<SessionDto> out = new ArrayList<>();
        for (JsonNode s : sessions.values()) {
            if (!active(s)) {
                continue;
            }
            HostDto src = byIp.get(s.path("src").asText());
            HostDto dst = byIp.get(s.path("dst").asText());
            if (src == null || dst == null || !src.tenantId.equals(dst.tenantId)) {
                continue;
            }
            boolean covered = declared.stream().anyMatch(d -> d.srcHost.equals(src.id) && d.dstHost.equals(dst.id));
            if (!covered) {
                out.add(new SessionDto(DETECTED_PREFIX + src.id + "-" + dst.id, src.tenantId, src.id, dst.id, null,
                        DETECTED_SOURCE));
            }
        }
        return out;
    }
}
