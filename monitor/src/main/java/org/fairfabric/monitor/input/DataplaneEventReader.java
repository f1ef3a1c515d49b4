package org.fairfabric.monitor.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.processor.api.Record;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.catalog.Catalog;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * ff.ctl.dataplane-events.v1 → failure signals: a {@code port.state} event with {@code up: false}
 * (a vFab failure report received as a packet-in) marks every link at that port failed, as
 * reported by that port; {@code up: true} clears that report. Gradient events change no view.
 */
public final class DataplaneEventReader extends InputReader {
    public static final String STORE = "dataplane-events-order";

    public DataplaneEventReader(String topic, MonitorSettings settings) {
        super(topic, STORE, settings);
    }

    @Override
    protected Stamp check(String key, JsonNode v) {
        Json.schema(v, 1);
        String device = Json.text(v, "device");
        if (!key.equals(device)) {
            throw new BadRecord("key '" + key + "' is not the device '" + device + "'");
        }
        String type = Json.text(v, "type");
        if (type.equals("port.state")) {
            Json.nonNegativeLong(v, "port");
            JsonNode up = v.get("up");
            if (up == null || !up.isBoolean()) {
                throw new BadRecord("up: a boolean is required");
            }
        } else if (!type.equals("gradient")) {
            throw new BadRecord("type: port.state or gradient, not '" + type + "'");
        }
        return new Stamp(Json.positiveLong(v, "ts_ms"), seqOrZero(v));
    }

    @Override
    protected long reportEndMs(JsonNode v) {
        return -1;
    }

    @Override
    protected void accept(String device, JsonNode v, Record<String, String> record) {
        if (!v.get("type").asText().equals("port.state")) {
            return;
        }
        long ts = v.get("ts_ms").asLong();
        String dp = device + "/" + v.get("port").asLong();
        for (Catalog.Link link : catalog.linksAtPort(dp)) {
            ObjectNode f = Json.object();
            f.put("kind", "failure");
            f.put("ts", ts);
            f.put("by", dp);
            f.put("failed", !v.get("up").asBoolean());
            emit(link.id(), Out.Kind.LINK_SIGNAL, f, ts);
        }
    }
}
