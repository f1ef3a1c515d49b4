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
    private final Map<String, JsonNode> links = new TreeMap<>();
    private final Map<String, JsonNode> tenants = new TreeMap<>();

    /** Applies one record; returns true when the set of active sessions changed. */
    public synchronized boolean apply(String topicKind, String key, JsonNode value) {
        Map<String, JsonNode> m = switch (topicKind) {
            case "sessions" -> sessions;
            case "links" -> links;
            case "tenants" -> tenants;
            default -> throw new IllegalArgumentException("unknown view " + topicKind);
        };
        JsonNode before = value == null ? m.remove(key) : m.put(key, value);
        if (m != sessions) {
            return false;
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
