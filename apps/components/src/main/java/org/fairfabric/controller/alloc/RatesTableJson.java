package org.fairfabric.controller.alloc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Pattern;
import org.fairfabric.api.json.Json;

/**
 * Writes a {@link RatesTable} as the JSON the shim reads, and checks JSON against every rule of
 * schema 1 as docs/kafka.md states it and host-shim/ratetable enforces it, so that the controller
 * never publishes a table the shim would reject (a rejected table leaves the host on stale rates).
 * The publisher checks the table itself ({@link #check(String, RatesTable)}), not its JSON parsed
 * back: {@link #write} gives well-formed JSON with exactly the schema's fields by construction.
 */
public final class RatesTableJson {
    private static final Pattern IPV4 =
            Pattern.compile("^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$");
    private static final Set<String> TABLE_FIELDS = Set.of("schema", "host", "version", "sessions");
    private static final Set<String> SESSION_FIELDS = Set.of("id", "tenant", "dst", "split", "paths");
    private static final Set<String> PATH_FIELDS = Set.of("id", "rate_bps");
    private static final Set<String> SPLITS = Set.of("", "packet", "flow");

    private RatesTableJson() {
    }

    /**
     * The table as the shim reads it: exactly the fields of schema 1, in this order, written by
     * Jackson's streaming generator (which escapes every string), so the JSON is well formed by
     * construction and {@link #check(String, RatesTable)} on the table decides whether the shim
     * accepts it (RatesTableJsonTest holds the two checks to the same verdicts).
     */
    public static String write(RatesTable t) {
        StringWriter out = new StringWriter(64 + 128 * t.sessions().size());
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("schema", RatesTable.SCHEMA);
            g.writeStringField("host", t.host());
            g.writeNumberField("version", t.version());
            g.writeArrayFieldStart("sessions");
            for (RatesTable.Entry e : t.sessions()) {
                g.writeStartObject();
                g.writeStringField("id", e.id());
                g.writeStringField("tenant", e.tenant());
                g.writeStringField("dst", e.dst());
                g.writeStringField("split", e.split());
                g.writeArrayFieldStart("paths");
                for (RatesTable.PathRate p : e.paths()) {
                    g.writeStartObject();
                    g.writeNumberField("id", p.id());
                    g.writeNumberField("rate_bps", p.rateBps());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the rates table of " + t.host(), e); // a StringWriter does not fail
        }
        return out.toString();
    }

    /**
     * Throws IllegalArgumentException naming the rule when the shim of {@code host} would reject
     * {@code t} as {@link #write} writes it: the rules of {@link #check(String, String, String)},
     * on the table itself instead of its JSON parsed back.
     */
    public static void check(String host, RatesTable t) {
        if (!host.equals(t.host())) {
            throw new IllegalArgumentException("host must be '" + host + "'");
        }
        if (t.version() <= 0) {
            throw new IllegalArgumentException("version must be an integer in 1..2^64-1");
        }
        if (t.sessions().size() > RatesTable.MAX_SESSIONS) {
            throw new IllegalArgumentException(t.sessions().size() + " sessions exceed " + RatesTable.MAX_SESSIONS);
        }
        Set<String> ids = new HashSet<>();
        Set<String> dsts = new HashSet<>();
        for (int i = 0; i < t.sessions().size(); i++) {
            RatesTable.Entry s = t.sessions().get(i);
            String at = "sessions[" + i + "]";
            checkId(at, s.id() == null ? "" : s.id(), ids);
            if (s.tenant() == null) {
                throw new IllegalArgumentException(at + ".tenant must be a string");
            }
            checkDst(at, s.dst() == null ? "" : s.dst(), dsts);
            if (s.split() == null || !SPLITS.contains(s.split())) {
                throw new IllegalArgumentException(at + ".split must be packet or flow");
            }
            int count = s.paths().size();
            if (count == 0 || count > RatesTable.MAX_PATHS) {
                throw new IllegalArgumentException(at + ".paths must hold 1.." + RatesTable.MAX_PATHS + " paths");
            }
            Set<Long> pathIds = new HashSet<>();
            for (int j = 0; j < count; j++) {
                RatesTable.PathRate p = s.paths().get(j);
                String pat = at + ".paths[" + j + "]";
                checkPathId(pat, p.id(), count, pathIds);
                checkRate(pat, p.rateBps());
            }
        }
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
            checkId(at, s.path("id").isTextual() ? s.get("id").asText() : "", ids);
            if (s.has("tenant") && !s.get("tenant").isTextual()) {
                throw new IllegalArgumentException(at + ".tenant must be a string");
            }
            checkDst(at, s.path("dst").isTextual() ? s.get("dst").asText() : "", dsts);
            if (s.has("split") && !(s.get("split").isTextual() && SPLITS.contains(s.get("split").asText()))) {
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
                if (!pid.isIntegralNumber() || pid.bigIntegerValue().bitLength() > 63) {
                    throw new IllegalArgumentException(pat + ".id must be 0.." + RatesTable.MAX_PATH_ID);
                }
                checkPathId(pat, pid.asLong(), paths.size(), pathIds);
                JsonNode rate = p.path("rate_bps");
                if (!rate.isIntegralNumber() || rate.bigIntegerValue().bitLength() > 63) {
                    throw new IllegalArgumentException(pat + ".rate_bps must be an integer in "
                            + RatesTable.MIN_RATE_BPS + ".." + RatesTable.MAX_RATE_BPS);
                }
                checkRate(pat, rate.asLong());
            }
        }
    }

    private static void checkId(String at, String id, Set<String> ids) {
        if (id.isEmpty() || id.length() > 128) {
            throw new IllegalArgumentException(at + ".id must be 1..128 characters");
        }
        if (!ids.add(id)) {
            throw new IllegalArgumentException(at + ".id '" + id + "' appears twice");
        }
    }

    private static void checkDst(String at, String dst, Set<String> dsts) {
        if (!IPV4.matcher(dst).matches() || dst.equals("0.0.0.0") || dst.equals("255.255.255.255")
                || Integer.parseInt(dst.substring(0, dst.indexOf('.'))) >= 224) {
            throw new IllegalArgumentException(at + ".dst '" + dst + "' is not a unicast IPv4 address");
        }
        if (!dsts.add(dst)) {
            throw new IllegalArgumentException(at + ".dst " + dst + " is another session's destination");
        }
    }

    /** {@code count}: how many paths the session has. */
    private static void checkPathId(String at, long id, int count, Set<Long> pathIds) {
        if (id < 0 || id > RatesTable.MAX_PATH_ID) {
            throw new IllegalArgumentException(at + ".id must be 0.." + RatesTable.MAX_PATH_ID);
        }
        if (id == 0 && count > 1) {
            throw new IllegalArgumentException(at + ".id 0 (unpinned) is allowed only as a session's single path");
        }
        if (!pathIds.add(id)) {
            throw new IllegalArgumentException(at + ".id " + id + " appears twice in the session");
        }
    }

    private static void checkRate(String at, long bps) {
        if (bps < RatesTable.MIN_RATE_BPS || bps > RatesTable.MAX_RATE_BPS) {
            throw new IllegalArgumentException(at + ".rate_bps must be an integer in "
                    + RatesTable.MIN_RATE_BPS + ".." + RatesTable.MAX_RATE_BPS);
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
