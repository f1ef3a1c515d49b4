package org.fairfabric.monitor.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * Promenade Algorithm 2 with the digest's fix (explicit state per session; n changes only on
 * transitions), keyed by the session pair {@code src>dst}. A session is active when bytes of
 * the pair were received in a period that ended within the activity window, or when its
 * sender's latest report says active and is not older than the liveness timeout. A session
 * silent (no bytes, no report) for longer than the liveness timeout is dropped; silent for
 * exactly the timeout it is still kept. An active session counts once on every link of every
 * path the catalog gives its pair (Promenade's n_e); it is uncounted from the same links.
 *
 * <p>Only data counts as a session's traffic: a report of a pair's bytes (or a sender's report of
 * an unpinned destination with its packet counts) whose packets' mean IP size is below the
 * minimum ({@link MonitorSettings#sessionTraffic}) is silence, so the reverse direction of a TCP
 * flow, its acknowledgements, is no session of its own.
 *
 * <p>An RLNC session's ends (ff.shim.rlnc.v1) add their latest figures to the pair's record
 * ({@code transport: "rlnc"}, {@code rlnc}); they do not make it active (activity is the traffic's
 * and the shim's word), but they keep it from being dropped, and an end's figures leave the
 * record once its latest report is older than the activity window.
 */
public final class SessionTracker extends Stage {
    public static final String STORE = "sessions";
    private static final String[] RLNC_ENDS = {"sender", "receiver"};

    public SessionTracker(MonitorSettings settings) {
        super(STORE, settings);
    }

    /** Activity and liveness are judged at the highest event time received; no period closes here. */
    @Override
    protected boolean waitsForSlowestInput() {
        return false;
    }

    @Override
    protected void handle(String pair, JsonNode signal, long ts, long now) {
        String kind = signal.path("kind").asText();
        boolean data = !signal.has("packets")
                || settings.sessionTraffic(signal.get("packets").asLong(), signal.get("ip_bytes").asLong());
        String v = state.get(pair);
        if (!data && (kind.equals("traffic") || v == null)) {
            return; // acknowledgements: silence, and no session is created for them
        }
        ObjectNode s;
        boolean changed = false;
        if (v == null) {
            s = Json.object();
            int gt = pair.indexOf('>');
            s.put("src", pair.substring(0, gt));
            s.put("dst", pair.substring(gt + 1));
            s.put("active", false);
            s.putArray("links");
            changed = true;
        } else {
            s = (ObjectNode) Json.parseObject(v);
        }
        if (kind.equals("report")) {
            long last = s.path("last_report_ms").asLong(Long.MIN_VALUE);
            if (ts < last) {
                return;
            }
            // a sender's report of acknowledgements only says the pair carries no data
            String reported = data ? signal.get("state").asText() : "inactive";
            changed |= !reported.equals(s.path("reported_state").asText(null));
            if (signal.has("tenant")) {
                changed |= putIfDifferent(s, "tenant", signal.get("tenant").asText());
            } else if (!s.has("tenant")) { // an unpinned destination: the catalog's tenant of the sender
                var tenant = catalog.tenantOfHost(s.get("src").asText());
                if (tenant.isPresent()) {
                    s.put("tenant", tenant.get());
                    changed = true;
                }
            }
            changed |= putIfDifferent(s, "session", signal.get("session").asText());
            changed |= putIfDifferent(s, "sender", signal.get("host").asText());
            s.put("reported_state", reported);
            s.put("last_report_ms", ts);
        } else if (kind.equals("traffic")) {
            if (ts > s.path("last_traffic_ms").asLong(Long.MIN_VALUE)) {
                s.put("last_traffic_ms", ts);
            }
            if (signal.has("tenant") && !s.has("tenant")) {
                s.put("tenant", signal.get("tenant").asText());
                changed = true;
            }
            changed |= putIfDifferent(s, "receiver", signal.get("receiver").asText());
        } else if (kind.equals("rlnc")) {
            if (!applyRlnc(s, signal, ts)) {
                return;
            }
            changed = true;
        }
        evaluate(pair, s, now, changed);
    }

    /** Keeps an RLNC end's figures unless the record holds newer ones of that end; true when applied. */
    private boolean applyRlnc(ObjectNode s, JsonNode signal, long ts) {
        ObjectNode r = s.has("rlnc") ? (ObjectNode) s.get("rlnc") : Json.object();
        String role = signal.get("role").asText();
        if (r.has(role) && r.get(role).get("ts_ms").asLong() >= ts) {
            return false;
        }
        r.put("session", signal.get("session").asText());
        r.put("session_id", signal.get("session_id").asLong());
        r.set(role, signal.get("figures"));
        s.set("rlnc", r);
        if (ts > s.path("last_rlnc_ms").asLong(Long.MIN_VALUE)) {
            s.put("last_rlnc_ms", ts);
        }
        if (!s.has("tenant")) { // a pair only RLNC reported so far: the catalog's tenant of the sender
            catalog.tenantOfHost(s.get("src").asText()).ifPresent(t -> s.put("tenant", t));
        }
        return true;
    }

    /** Removes the figures of RLNC ends silent for longer than the activity window; true when some left. */
    private boolean expireRlnc(ObjectNode s, long now) {
        if (!s.has("rlnc")) {
            return false;
        }
        ObjectNode r = (ObjectNode) s.get("rlnc");
        boolean removed = false;
        for (String end : RLNC_ENDS) {
            if (r.has(end) && now - r.get(end).get("ts_ms").asLong() > settings.activityWindowMs()) {
                r.remove(end);
                removed = true;
            }
        }
        if (!r.has("sender") && !r.has("receiver")) {
            s.remove("rlnc");
        }
        return removed;
    }

    private static boolean putIfDifferent(ObjectNode s, String field, String value) {
        if (value.equals(s.path(field).asText(null))) {
            return false;
        }
        s.put(field, value);
        return true;
    }

    @Override
    protected void advanced(long before, long now) {
        if (before != Long.MIN_VALUE && Math.floorDiv(before, settings.periodMs()) == Math.floorDiv(now, settings.periodMs())) {
            return;
        }
        List<KeyValue<String, String>> all = new ArrayList<>();
        try (KeyValueIterator<String, String> it = state.all()) {
            it.forEachRemaining(all::add);
        }
        for (KeyValue<String, String> kv : all) {
            if (!kv.key.startsWith("~")) {
                evaluate(kv.key, (ObjectNode) Json.parseObject(kv.value), now, false);
            }
        }
    }

    private void evaluate(String pair, ObjectNode s, long now, boolean changed) {
        boolean wasActive = s.get("active").asBoolean();
        long traffic = s.path("last_traffic_ms").asLong(Long.MIN_VALUE);
        long report = s.path("last_report_ms").asLong(Long.MIN_VALUE);
        boolean trafficRecent = traffic != Long.MIN_VALUE && now - traffic <= settings.activityWindowMs();
        boolean reportActive = report != Long.MIN_VALUE && now - report <= settings.livenessTimeoutMs()
                && "active".equals(s.path("reported_state").asText(null));
        boolean active = trafficRecent || reportActive;
        long heard = Math.max(Math.max(traffic, report), s.path("last_rlnc_ms").asLong(Long.MIN_VALUE));
        changed |= expireRlnc(s, now);
        if (!active && heard != Long.MIN_VALUE && now - heard > settings.livenessTimeoutMs()) {
            if (wasActive) {
                count(pair, s.withArray("links"), -1, now);
            }
            state.delete(pair);
            emit(pair, Out.Kind.SESSION_VIEW, null, now);
            return;
        }
        if (active != wasActive) {
            changed = true;
            s.put("active", active);
            s.put("since_ms", now);
            if (active) {
                ArrayNode links = s.putArray("links");
                catalog.pairLinks(s.get("src").asText(), s.get("dst").asText()).forEach(links::add);
                count(pair, links, +1, now);
            } else {
                count(pair, s.withArray("links"), -1, now);
                s.putArray("links");
            }
        }
        state.put(pair, Json.write(s));
        if (changed) {
            emit(pair, Out.Kind.SESSION_VIEW, view(s, trafficRecent, reportActive), now);
        }
    }

    private void count(String pair, ArrayNode links, int delta, long now) {
        for (JsonNode link : links) {
            ObjectNode d = Json.object();
            d.put("kind", "sessions");
            d.put("delta", delta);
            d.put("pair", pair);
            d.put("ts", now);
            emit(link.asText(), Out.Kind.LINK_SIGNAL, d, now);
        }
    }

    private ObjectNode view(ObjectNode s, boolean byTraffic, boolean byReport) {
        ObjectNode o = Json.object();
        o.put("schema", 1);
        o.put("src", s.get("src").asText());
        o.put("dst", s.get("dst").asText());
        o.set("tenant", s.get("tenant"));
        o.set("session", s.get("session"));
        o.set("sender", s.get("sender"));
        o.set("receiver", s.get("receiver"));
        o.put("state", s.get("active").asBoolean() ? "active" : "inactive");
        o.put("detected_by", byTraffic && byReport ? "both" : byTraffic ? "traffic" : byReport ? "report" : "none");
        o.set("since_ms", s.get("since_ms"));
        o.set("last_traffic_ms", s.get("last_traffic_ms"));
        o.set("last_report_ms", s.get("last_report_ms"));
        o.set("links", s.get("links"));
        for (String f : new String[] {"tenant", "session", "sender", "receiver", "since_ms", "last_traffic_ms",
                "last_report_ms"}) {
            if (o.get(f) == null) {
                o.putNull(f);
            }
        }
        if (s.has("rlnc")) {
            ObjectNode r = s.get("rlnc").deepCopy();
            for (String end : RLNC_ENDS) {
                if (!r.has(end)) {
                    r.putNull(end);
                }
            }
            o.put("transport", "rlnc");
            o.set("rlnc", r);
        }
        return o;
    }
}
