package org.fairfabric.monitor.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.apache.kafka.streams.processor.api.Record;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * ff.ctl.topology.v1 (controller event envelope v1) → failure signals: {@code link.state} with
 * {@code up: false} marks the link failed as reported by the controller; {@code up: true} clears
 * it. Other event types change no view. The envelope's {@code seq} restarts with the controller,
 * so records are ordered by {@code time} and then {@code seq}.
 */
public final class TopologyEventReader extends InputReader {
    public static final String STORE = "topology-events-order";

    public TopologyEventReader(String topic, MonitorSettings settings) {
        super(topic, STORE, settings);
    }

    @Override
    protected Stamp check(String key, JsonNode v) {
        JsonNode version = v.get("version");
        if (version == null || !version.isInt() || version.asInt() != 1) {
            throw new BadRecord("version: must be 1");
        }
        String type = Json.text(v, "type");
        Json.text(v, "subject");
        long time;
        try {
            time = Instant.parse(Json.text(v, "time")).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new BadRecord("time: not an ISO-8601 instant");
        }
        if (type.equals("link.state")) {
            JsonNode up = v.path("detail").get("up");
            if (up == null || !up.isBoolean()) {
                throw new BadRecord("detail.up: a boolean is required");
            }
        }
        return new Stamp(time, seqOrZero(v));
    }

    @Override
    protected long reportEndMs(JsonNode v) {
        return -1;
    }

    @Override
    protected void accept(String key, JsonNode v, Record<String, String> record) {
        if (!v.get("type").asText().equals("link.state")) {
            return;
        }
        long ts = Instant.parse(v.get("time").asText()).toEpochMilli();
        ObjectNode f = Json.object();
        f.put("kind", "failure");
        f.put("ts", ts);
        f.put("by", "controller");
        f.put("failed", !v.get("detail").get("up").asBoolean());
        emit(v.get("subject").asText(), Out.Kind.LINK_SIGNAL, f, ts);
    }
}
