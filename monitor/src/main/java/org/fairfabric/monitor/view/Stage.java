package org.fairfabric.monitor.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.catalog.Catalog;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * A view stage: consumes the signals of one internal topic, keyed by its subject (pair, link,
 * tenant). Its clock is the highest event time of the signals it received (ticks included) and
 * lives in its state store, so a restarted instance resumes with the same clock.
 */
abstract class Stage implements Processor<String, String, String, Out> {
    private static final String CLOCK = "~clock";

    protected final MonitorSettings settings;
    private final String storeName;
    protected ProcessorContext<String, Out> context;
    protected KeyValueStore<String, String> state;
    protected Catalog catalog;

    Stage(String storeName, MonitorSettings settings) {
        this.storeName = storeName;
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<String, Out> context) {
        this.context = context;
        this.state = context.getStateStore(storeName);
        this.catalog = new Catalog(context.getStateStore(Catalog.STORE));
    }

    protected long clock() {
        String c = state.get(CLOCK);
        return c == null ? Long.MIN_VALUE : Long.parseLong(c);
    }

    @Override
    public final void process(Record<String, String> record) {
        JsonNode signal = Json.parseObject(record.value());
        long before = clock();
        long ts = record.timestamp();
        if (!Out.TICK_KEY.equals(record.key())) {
            handle(record.key(), signal, ts, Math.max(before, ts));
        }
        if (ts > before) {
            state.put(CLOCK, Long.toString(ts));
            advanced(before, ts);
        }
    }

    /** One signal of a subject; {@code now} is the clock including this signal. */
    protected abstract void handle(String subject, JsonNode signal, long timestampMs, long now);

    /** The clock moved from {@code before} (Long.MIN_VALUE at first) to {@code now}. */
    protected abstract void advanced(long before, long now);

    /** The last period that is closed at {@code clockMs}, or -1. */
    protected long lastClosedPeriod(long clockMs) {
        if (clockMs == Long.MIN_VALUE) {
            return -1;
        }
        long t = settings.periodMs();
        return Math.floorDiv(clockMs - settings.graceMs() - t, t) * t;
    }

    protected void emit(String key, Out.Kind kind, ObjectNode value, long ts) {
        context.forward(new Record<>(key, new Out(kind, value == null ? null : Json.write(value)), ts));
    }

    protected void event(String type, String subject, long ts, ObjectNode detail) {
        ObjectNode e = Json.object();
        e.put("schema", 1);
        e.put("type", type);
        e.put("subject", subject);
        e.put("ts_ms", ts);
        e.set("detail", detail);
        emit(subject, Out.Kind.EVENT, e, ts);
    }

    protected void rejectLate(String topic, String subject, JsonNode signal, long ts, long clock) {
        ObjectNode r = Json.object();
        r.put("schema", 1);
        r.put("topic", topic);
        r.put("key", subject);
        r.put("reason", "late");
        r.put("detail", "period " + signal.path("period").asLong() + " closed at clock " + clock
                + " (grace " + settings.graceMs() + " ms)");
        r.put("ts_ms", ts);
        r.put("value", Json.write(signal));
        emit(subject, Out.Kind.REJECTED, r, ts);
    }
}
