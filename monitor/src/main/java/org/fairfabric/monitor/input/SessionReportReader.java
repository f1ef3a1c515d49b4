package org.fairfabric.monitor.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.processor.api.Record;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/** ff.shim.sessions.v1 (Promenade message (a)) → a report signal for the session pair. */
public final class SessionReportReader extends InputReader {
    public static final String STORE = "session-reports-order";

    public SessionReportReader(String topic, MonitorSettings settings) {
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
        if (v.has("tenant")) { // absent: a destination the sender reaches outside its table (docs/kafka.md)
            Json.text(v, "tenant");
        }
        Json.ipv4(v, "src");
        Json.ipv4(v, "dst");
        if (v.has("packets") || v.has("bytes")) { // an unpinned destination's last period (docs/kafka.md)
            if (Json.nonNegativeLong(v, "bytes") < PathBytesReader.ETHERNET_HEADER_BYTES * Json.nonNegativeLong(v, "packets")) {
                throw new BadRecord("bytes: fewer than an Ethernet header per packet");
            }
        }
        String state = Json.text(v, "state");
        if (!state.equals("active") && !state.equals("inactive")) {
            throw new BadRecord("state: must be active or inactive, not '" + state + "'");
        }
        return new Stamp(Json.positiveLong(v, "ts_ms"), Json.positiveLong(v, "seq"));
    }

    @Override
    protected long reportEndMs(JsonNode value) {
        return -1;
    }

    @Override
    protected void accept(String key, JsonNode v, Record<String, String> record) {
        long ts = v.get("ts_ms").asLong();
        ObjectNode s = Json.object();
        s.put("kind", "report");
        s.put("ts", ts);
        s.put("state", v.get("state").asText());
        if (v.has("tenant")) {
            s.put("tenant", v.get("tenant").asText());
        }
        s.put("session", v.get("session").asText());
        if (v.has("packets")) { // frames as the sender's egress saw them: the IP bytes without the Ethernet header
            long packets = v.get("packets").asLong();
            s.put("packets", packets);
            s.put("ip_bytes", v.get("bytes").asLong() - packets * PathBytesReader.ETHERNET_HEADER_BYTES);
        }
        s.put("host", v.get("host").asText());
        emit(v.get("src").asText() + ">" + v.get("dst").asText(), Out.Kind.PAIR_SIGNAL, s, ts);
    }
}
