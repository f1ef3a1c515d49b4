package org.fairfabric.monitor.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.processor.api.Record;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * ff.shim.stats.v1 → the tenant's demand: what its senders sent per session-path, and whether a
 * session-path's queue held a backlog (then its demand exceeds what it got: unbounded).
 */
public final class ShimStatsReader extends InputReader {
    public static final String STORE = "stats-order";

    public ShimStatsReader(String topic, MonitorSettings settings) {
        super(topic, STORE, settings);
    }

    @Override
    protected Stamp check(String key, JsonNode v) {
        Json.schema(v, 1);
        checkHostKey(key, v);
        checkPeriod(v);
        for (JsonNode p : Json.array(v, "paths")) {
            Json.text(p, "session");
            Json.nonNegativeLong(p, "path");
            Json.nonNegativeNumber(p, "sent_rate_bps");
            Json.nonNegativeLong(p, "backlog_bytes");
        }
        return new Stamp(Json.positiveLong(v, "ts_ms"), Json.positiveLong(v, "seq"));
    }

    @Override
    protected long reportEndMs(JsonNode v) {
        return v.get("ts_ms").asLong();
    }

    @Override
    protected long reportStartMs(JsonNode v) {
        return v.get("ts_ms").asLong() - v.get("period_ms").asLong();
    }

    @Override
    protected void accept(String host, JsonNode v, Record<String, String> record) {
        long ts = v.get("ts_ms").asLong();
        long period = settings.periodOf(reportStartMs(v), ts);
        for (JsonNode p : v.get("paths")) {
            String session = p.get("session").asText();
            String tenant = catalog.tenantOfSession(session).orElse(null);
            if (tenant == null) {
                continue;
            }
            ObjectNode t = Json.object();
            t.put("kind", "demand");
            t.put("period", period);
            t.put("contrib", session + "#" + p.get("path").asLong());
            t.put("bps", p.get("sent_rate_bps").asDouble());
            t.put("backlog", p.get("backlog_bytes").asLong() > 0);
            emit(tenant, Out.Kind.TENANT_SIGNAL, t, ts);
        }
        tick(Out.Kind.TENANT_SIGNAL, ts);
    }
}
