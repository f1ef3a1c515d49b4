package org.fairfabric.monitor.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.processor.api.Record;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * ff.shim.rlnc.v1 (an RLNC session's period at its sender or receiver, docs/rlnc.md) → an
 * {@code rlnc} signal for the session pair with the period's figures as rates: per path sent
 * against allocated, repairs per second, goodput; at the receiver innovative, dependent and
 * stale packets per second.
 */
public final class RlncReportReader extends InputReader {
    public static final String STORE = "rlnc-order";
    private static final long MAX_WINDOW = 16;

    public RlncReportReader(String topic, MonitorSettings settings) {
        super(topic, STORE, settings);
    }

    @Override
    protected Stamp check(String key, JsonNode v) {
        Json.schema(v, 1);
        String host = Json.text(v, "host");
        String session = Json.text(v, "session");
        if (!key.equals(host + "/" + session)) {
            throw new BadRecord("key '" + key + "' is not host/session '" + host + "/" + session + "'");
        }
        checkPeriod(v);
        if (Json.nonNegativeLong(v, "session_id") > 0xffffffffL) {
            throw new BadRecord("session_id: at most 2^32 - 1");
        }
        Json.ipv4(v, "src");
        Json.ipv4(v, "dst");
        String role = Json.text(v, "role");
        if (!role.equals("sender") && !role.equals("receiver")) {
            throw new BadRecord("role: must be sender or receiver, not '" + role + "'");
        }
        String other = role.equals("sender") ? "receiver" : "sender";
        if (v.has(other)) {
            throw new BadRecord(other + ": a " + role + "'s record has no " + other + " object");
        }
        JsonNode end = v.get(role);
        if (end == null || !end.isObject()) {
            throw new BadRecord(role + ": an object is required");
        }
        if (role.equals("sender")) {
            long window = Json.positiveLong(end, "window");
            if (window > MAX_WINDOW) {
                throw new BadRecord("sender.window: at most " + MAX_WINDOW);
            }
            for (JsonNode p : Json.array(end, "paths")) {
                Json.nonNegativeLong(p, "path");
                Json.nonNegativeLong(p, "allocated_bps");
                Json.nonNegativeNumber(p, "sent_bps");
            }
            for (String f : new String[] {"new_packets", "repair_packets", "acks", "in_flight"}) {
                Json.nonNegativeLong(end, f);
            }
            for (String f : new String[] {"goodput_bps", "srtt_ms", "rto_ms"}) {
                Json.nonNegativeNumber(end, f);
            }
        } else {
            for (JsonNode p : Json.array(end, "paths")) {
                Json.nonNegativeLong(p, "path");
                Json.nonNegativeNumber(p, "rate_bps");
            }
            for (String f : new String[] {"packets", "innovative", "dependent", "stale"}) {
                Json.nonNegativeLong(end, f);
            }
            Json.nonNegativeNumber(end, "goodput_bps");
        }
        return new Stamp(Json.positiveLong(v, "ts_ms"), Json.positiveLong(v, "seq"));
    }

    /** No period closes on these reports: the session stage's clock is the highest event time. */
    @Override
    protected long reportEndMs(JsonNode value) {
        return -1;
    }

    @Override
    protected void accept(String key, JsonNode v, Record<String, String> record) {
        long ts = v.get("ts_ms").asLong();
        double perSecond = 1000.0 / v.get("period_ms").asLong();
        String role = v.get("role").asText();
        JsonNode end = v.get(role);
        ObjectNode s = Json.object();
        s.put("kind", "rlnc");
        s.put("ts", ts);
        s.put("role", role);
        s.put("session", v.get("session").asText());
        s.put("session_id", v.get("session_id").asLong());
        ObjectNode f = s.putObject("figures");
        f.put("host", v.get("host").asText());
        f.put("ts_ms", ts);
        f.put("period_ms", v.get("period_ms").asLong());
        if (role.equals("sender")) {
            f.put("window", end.get("window").asLong());
            ArrayNode paths = f.putArray("paths");
            double sent = 0;
            long allocated = 0;
            for (JsonNode p : end.get("paths")) {
                ObjectNode o = paths.addObject();
                o.put("path", p.get("path").asLong());
                o.put("allocated_bps", p.get("allocated_bps").asLong());
                o.put("sent_bps", p.get("sent_bps").asDouble());
                sent += p.get("sent_bps").asDouble();
                allocated += p.get("allocated_bps").asLong();
            }
            f.put("sent_bps", sent);
            f.put("allocated_bps", allocated);
            f.put("new_per_s", end.get("new_packets").asLong() * perSecond);
            f.put("repairs_per_s", end.get("repair_packets").asLong() * perSecond);
            f.put("goodput_bps", end.get("goodput_bps").asDouble());
            f.put("in_flight", end.get("in_flight").asLong());
            f.put("srtt_ms", end.get("srtt_ms").asDouble());
            f.put("rto_ms", end.get("rto_ms").asDouble());
        } else {
            ArrayNode paths = f.putArray("paths");
            for (JsonNode p : end.get("paths")) {
                ObjectNode o = paths.addObject();
                o.put("path", p.get("path").asLong());
                o.put("rate_bps", p.get("rate_bps").asDouble());
            }
            f.put("packets_per_s", end.get("packets").asLong() * perSecond);
            f.put("innovative_per_s", end.get("innovative").asLong() * perSecond);
            f.put("dependent_per_s", end.get("dependent").asLong() * perSecond);
            f.put("stale_per_s", end.get("stale").asLong() * perSecond);
            f.put("goodput_bps", end.get("goodput_bps").asDouble());
        }
        emit(v.get("src").asText() + ">" + v.get("dst").asText(), Out.Kind.PAIR_SIGNAL, s, ts);
        // every partition's session clock moves, so other pairs' figures expire there too (a
        // fabric's receivers tick them every period; RLNC reports may be the only input)
        tick(Out.Kind.PAIR_SIGNAL, ts);
    }
}
