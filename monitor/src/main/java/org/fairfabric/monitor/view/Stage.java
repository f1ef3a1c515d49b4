package org.fairfabric.monitor.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.catalog.Catalog;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;

/**
 * A view stage: consumes the signals of one internal topic, keyed by its subject (pair, link,
 * tenant). Its clock lives in its state store, so a restarted instance resumes with the same clock.
 *
 * <p>A stage that closes periods ({@link #waitsForSlowestInput()}) uses an input watermark as its
 * clock (docs/monitor.md, "Clocks"): every input reader ticks the stage with its event time and
 * its name; the clock is the lowest tick time among the inputs that are within the input lag of
 * the fastest one, so a period closes only when every live input has moved past it. An input
 * that falls further behind is left out (its late reports are rejected) and an input that stops
 * holds nothing back after the input lag. Until the fastest input is more than the input lag past
 * the first tick the stage saw (a cold start), the clock does not start: an input that has not reported yet
 * may still be on its way. The other stages' clock is the highest event time they received.
 */
abstract class Stage implements Processor<String, String, String, Out> {
    private static final String CLOCK = "~clock";
    private static final String FIRST = "~first";
    private static final String INPUT_CLOCK = "~input|";

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
        boolean tick = Out.TICK_KEY.equals(record.key());
        if (!waitsForSlowestInput()) {
            if (!tick) {
                handle(record.key(), signal, ts, Math.max(before, ts));
            }
            if (ts > before) {
                state.put(CLOCK, Long.toString(ts));
                advanced(before, ts);
            }
            return;
        }
        if (!tick) {
            handle(record.key(), signal, ts, before);
            return;
        }
        String input = INPUT_CLOCK + signal.path("source").asText("");
        String last = state.get(input);
        if (last != null && Long.parseLong(last) >= ts) {
            return;
        }
        state.put(input, Long.toString(ts));
        if (state.get(FIRST) == null) {
            state.put(FIRST, Long.toString(ts));
        }
        long now = watermark();
        if (now > before) {
            state.put(CLOCK, Long.toString(now));
            advanced(before, now);
        }
    }

    /** True for the stages that close periods: their clock is the input watermark. */
    protected boolean waitsForSlowestInput() {
        return true;
    }

    /** The lowest tick time of the inputs within the input lag of the fastest; Long.MIN_VALUE during a cold start. */
    private long watermark() {
        List<Long> clocks = new ArrayList<>();
        try (KeyValueIterator<String, String> it = state.range(INPUT_CLOCK, INPUT_CLOCK + "\uffff")) {
            while (it.hasNext()) {
                clocks.add(Long.parseLong(it.next().value));
            }
        }
        long fastest = Collections.max(clocks);
        if (settings.inputLagMs() > 0 && fastest - Long.parseLong(state.get(FIRST)) <= settings.inputLagMs()) {
            return Long.MIN_VALUE;
        }
        long min = fastest;
        for (long c : clocks) {
            if (c >= fastest - settings.inputLagMs()) {
                min = Math.min(min, c);
            }
        }
        return min;
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
