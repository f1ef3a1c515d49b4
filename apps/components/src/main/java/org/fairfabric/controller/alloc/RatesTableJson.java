package org.fairfabric.controller.alloc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Pattern;
import org.fairfabric.api.json.Json;

/**
 * Writes a {@link RatesTable} as the JSON the shim reads, and checks JSON against every rule of
 * schema 1 as docs/kafka.md states it and host-shim/ratetable enforces it, so that the controller
 * never publishes a table the shim would reject (a rejected table leaves the host on stale rates).
 */
public final class RatesTableJson {
    private static final Pattern IPV4 =
            Pattern.compile("^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$");
    private static final Set<String> TABLE_FIELDS = Set.of("schema", "host", "version", "sessions");
    private static final Set<String> SESSION_FIELDS = Set.of("id", "tenant", "dst", "split", "paths");
    private static final Set<String> PATH_FIELDS = Set.of("id", "rate_bps");

    private RatesTableJson() {
    }

    public static String write(RatesTable t) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("schema", RatesTable.SCHEMA);
        n.put("host", t.host());
        n.put("version", t.version());
        ArrayNode sessions = n.putArray("sessions");
        for (RatesTable.Entry e : t.sessions()) {
            ObjectNode s = sessions.addObject();
            s.put("id", e.id());
            s.put("tenant", e.tenant());
            s.put("dst", e.dst());
            s.put("split", e.split());
            ArrayNode paths = s.putArray("paths");
            for (RatesTable.PathRate p : e.paths()) {
                paths.addObject().put("id", p.id()).put("rate_bps", p.rateBps());
            }
        }
        return Json.write(n);
    }

    /** Throws IllegalArgumentException naming the rule when the shim of {@code host} would reject {@code json} under record key {@code key}. */
    public static void check(String host, String key, String json) {
        if (!host.equals(key)) {
            throw new IllegalArgumentException("record key '" + key + "' is not the host '" + host + "'");
        }
        JsonNode t;
        try {
            t = Json.MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("malformed JSON: " + e.getMessage());
        }
        if (t == null || !t.isObject()) {
            throw new IllegalArgumentException("a table is a JSON object");
        }
        onlyFields(t, TABLE_FIELDS, "table");
        if (!t.path("schema").isIntegralNumber() || t.get("schema").asLong() != RatesTable.SCHEMA) {
            throw new IllegalArgumentException("schema must be " + RatesTable.SCHEMA);
        }
        if (!t.path("host").isTextual() || !t.get("host").asText().equals(host)) {
            throw new IllegalArgumentException("host must be '" + host + "'");
        }
        JsonNode v = t.path("version");
        if (!v.isIntegralNumber() || v.bigIntegerValue().signum() <= 0 || v.bigIntegerValue().bitLength() > 64) {
            throw new IllegalArgumentException("version must be an integer in 1..2^64-1");
        }
        JsonNode sessions = t.get("sessions");
        if (sessions == null || !sessions.isArray()) {
            throw new IllegalArgumentException("sessions is required (an array; [] for none)");
        }
        if (sessions.size() > RatesTable.MAX_SESSIONS) {
            throw new IllegalArgumentException(sessions.size() + " sessions exceed " + RatesTable.MAX_SESSIONS);
        }
        Set<String> ids = new HashSet<>();
        Set<String> dsts = new HashSet<>();
        for (int i = 0; i < sessions.size(); i++) {
            JsonNode s = sessions.get(i);
            String at = "sessions[" + i + "]";
            if (!s.isObject()) {
                throw new IllegalArgumentException(at + " must be an object");
            }
            onlyFields(s, SESSION_FIELDS, at);
            String id = s.path("id").isTextual() ? s.get("id").asText() : "";
            if (id.isEmpty() || id.length() > 128) {
                throw new IllegalArgumentException(at + ".id must be 1..128 characters");
            }
            if (!ids.add(id)) {
                throw new IllegalArgumentException(at + ".id '" + id + "' appears twice");
            }
            if (s.has("tenant") && !s.get("tenant").isTextual()) {
                throw new IllegalArgumentException(at + ".tenant must be a string");
            }
            String dst = s.path("dst").isTextual() ? s.get("dst").asText() : "";
            if (!IPV4.matcher(dst).matches() || dst.equals("0.0.0.0") || dst.equals("255.255.255.255")
                    || Integer.parseInt(dst.substring(0, dst.indexOf('.'))) >= 224) {
                throw new IllegalArgumentException(at + ".dst '" + dst + "' is not a unicast IPv4 address");
            }
            if (!dsts.add(dst)) {
                throw new IllegalArgumentException(at + ".dst " + dst + " is another session's destination");
            }
            if (s.has("split") && !(s.get("split").isTextual()
                    && Set.of("", "packet", "flow").contains(s.get("split").asText()))) {
                throw new IllegalArgumentException(at + ".split must be packet or flow");
            }
            JsonNode paths = s.get("paths");
            if (paths == null || !paths.isArray() || paths.isEmpty() || paths.size() > RatesTable.MAX_PATHS) {
                throw new IllegalArgumentException(at + ".paths must hold 1.." + RatesTable.MAX_PATHS + " paths");
            }
            Set<Long> pathIds = new HashSet<>();
            for (int j = 0; j < paths.size(); j++) {
                JsonNode p = paths.get(j);
                String pat = at + ".paths[" + j + "]";
                if (!p.isObject()) {
                    throw new IllegalArgumentException(pat + " must be an object");
                }
                onlyFields(p, PATH_FIELDS, pat);
                JsonNode pid = p.path("id");
                if (!pid.isIntegralNumber() || pid.asLong() < 0 || pid.asLong() > RatesTable.MAX_PATH_ID) {
                    throw new IllegalArgumentException(pat + ".id must be 0.." + RatesTable.MAX_PATH_ID);
                }
                if (pid.asLong() == 0 && paths.size() > 1) {
                    throw new IllegalArgumentException(pat + ".id 0 (unpinned) is allowed only as a session's single path");
                }
                if (!pathIds.add(pid.asLong())) {
                    throw new IllegalArgumentException(pat + ".id " + pid.asLong() + " appears twice in the session");
                }
                JsonNode rate = p.path("rate_bps");
                if (!rate.isIntegralNumber() || rate.asLong() < RatesTable.MIN_RATE_BPS || rate.asLong() > RatesTable.MAX_RATE_BPS
                        || rate.bigIntegerValue().bitLength() > 63) {
                    throw new IllegalArgumentException(pat + ".rate_bps must be an integer in "
                            + RatesTable.MIN_RATE_BPS + ".." + RatesTable.MAX_RATE_BPS);
                }
            }
        }
    }

    private static void onlyFields(JsonNode n, Set<String> allowed, String at) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new IllegalArgumentException(at + " has an unknown field '" + f + "'");
            }
        }
    }
}
