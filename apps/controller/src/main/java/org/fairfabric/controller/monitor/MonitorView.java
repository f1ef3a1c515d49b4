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
     * The pairs of addresses (and, as "report:ID", the declared sessions named by a sender's
     * report) that this view has seen active (work conservation: only what sent can go idle; the
     * compacted topic also holds records of earlier runs, whose addresses and session ids recur).
     */
    private final java.util.Set<String> seenActive = new java.util.HashSet<>();
    private final Map<String, JsonNode> links = new TreeMap<>();
    private final Map<String, JsonNode> tenants = new TreeMap<>();
    /** The view is live while some record came within this long (the monitor runs and reports). */
    public static final long LIVE_MS = 10_000;
    private final java.util.function.LongSupplier clockMs;
    private long lastRecordMs = Long.MIN_VALUE;

    public MonitorView() {
        this(System::currentTimeMillis);
    }

    public MonitorView(java.util.function.LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    /** Applies one record; returns true when the set of active sessions changed. */
    public synchronized boolean apply(String topicKind, String key, JsonNode value) {
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
        if (active(value)) {
            seenActive.add(key);
            if (value.path("session").isTextual()) {
                seenActive.add("report:" + value.path("session").asText());
            }
        }
        return active(before) != active(value) || (active(value) && !Objects.equals(
                before == null ? null : before.path("tenant"), value.path("tenant")));
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
     * more (removed after the liveness timeout) is idle. Either way only once this view has seen it
     * active: a session that never sent reserves its share (a host without a shim reports nothing,
     * a session declared before its traffic starts must get its share, and the topic's records of
     * earlier runs with the same addresses or session ids are not this session's). Without a live view
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
        boolean live = lastRecordMs != Long.MIN_VALUE && clockMs.getAsLong() - lastRecordMs <= LIVE_MS;
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (SessionDto d : declared) {
            HostDto src = byId.get(d.srcHost);
            HostDto dst = byId.get(d.dstHost);
            if (src == null || dst == null || d.id.startsWith(DETECTED_PREFIX)) {
                continue;
            }
            Boolean reported = byReport.get(d.id);
            if (reported != null && seenActive.contains("report:" + d.id)) {
                if (!reported) {
                    out.add(d.id);
                }
                continue;
            }
            String pair = src.ip + ">" + dst.ip;
            if (activePairs.contains(pair)) {
                continue;
            }
            if (seenActive.contains(pair) && (inactivePairs.contains(pair) || live)) {
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
