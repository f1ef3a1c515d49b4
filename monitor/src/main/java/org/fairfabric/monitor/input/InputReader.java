package org.fairfabric.monitor.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.fairfabric.monitor.MonitorSettings;
import org.fairfabric.monitor.catalog.Catalog;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;
import org.fairfabric.monitor.stream.Out;
import org.fairfabric.monitor.stream.Rejections;

/**
 * The first stage of one input topic: parse, check, order, then {@link #accept}. A record that
 * breaks its schema is {@code malformed}; one whose (time, seq) equals the last accepted of its
 * key is a {@code duplicate}; an older one is {@code out_of_order}; a report of a period that
 * closed already at this stage's clock is {@code late}. Rejected records go to
 * ff.mon.rejected.v1 and change nothing.
 */
public abstract class InputReader implements Processor<String, String, String, Out> {
    private static final String CLOCK = "~clock";
    private static final String TICK_SENT = "~tick|";

    protected final String topic;
    protected final MonitorSettings settings;
    private final String storeName;
    protected ProcessorContext<String, Out> context;
    protected Catalog catalog;
    private KeyValueStore<String, String> order;

    protected InputReader(String topic, String storeName, MonitorSettings settings) {
        this.topic = topic;
        this.storeName = storeName;
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<String, Out> context) {
        this.context = context;
        this.order = context.getStateStore(storeName);
        this.catalog = new Catalog(context.getStateStore(Catalog.STORE));
    }

    /** The parsed record's identity for ordering: its event time and sequence number. */
    protected record Stamp(long timeMs, long seq) {
    }

    /** Checks the record against its schema (throwing {@link BadRecord}) and returns its stamp. */
    protected abstract Stamp check(String key, JsonNode value);

    /** A host's report is keyed by the host that wrote it. */
    protected static void checkHostKey(String key, JsonNode v) {
        String host = Json.text(v, "host");
        if (!key.equals(host)) {
            throw new BadRecord("key '" + key + "' is not the host '" + host + "'");
        }
    }

    /** A reporting period is positive and at most a minute. */
    protected static void checkPeriod(JsonNode v) {
        if (Json.positiveLong(v, "period_ms") > 60_000) {
            throw new BadRecord("period_ms: at most 60000");
        }
    }

    /** The time up to which this record reports (the end of its period); used for lateness, or -1 for none. */
    protected abstract long reportEndMs(JsonNode value);

    /** The start of the period the record reports, when it reports one. */
    protected long reportStartMs(JsonNode value) {
        return -1;
    }

    protected abstract void accept(String key, JsonNode value, Record<String, String> record);

    @Override
    public final void process(Record<String, String> record) {
        JsonNode value;
        Stamp stamp;
        try {
            if (record.key() == null) {
                throw new BadRecord("the record has no key");
            }
            value = Json.parseObject(record.value());
            stamp = check(record.key(), value);
        } catch (BadRecord e) {
            Rejections.reject(context, topic, record, "malformed", e.getMessage());
            return;
        }
        String last = order.get(record.key());
        if (last != null) {
            String[] parts = last.split(",");
            long lastTime = Long.parseLong(parts[0]);
            long lastSeq = Long.parseLong(parts[1]);
            if (stamp.timeMs() == lastTime && stamp.seq() == lastSeq) {
                Rejections.reject(context, topic, record, "duplicate",
                        "time " + stamp.timeMs() + " and seq " + stamp.seq() + " were accepted already");
                return;
            }
            if (stamp.timeMs() < lastTime || (stamp.timeMs() == lastTime && stamp.seq() < lastSeq)) {
                Rejections.reject(context, topic, record, "out_of_order",
                        "time " + stamp.timeMs() + " seq " + stamp.seq() + " is older than the accepted time "
                                + lastTime + " seq " + lastSeq);
                return;
            }
        }
        long end = reportEndMs(value);
        if (end >= 0) {
            String c = order.get(CLOCK);
            long clock = c == null ? Long.MIN_VALUE : Long.parseLong(c);
            long start = reportStartMs(value);
            long period = settings.periodOf(start < 0 ? end : start, end);
            if (clock != Long.MIN_VALUE && settings.closed(period, clock)) {
                Rejections.reject(context, topic, record, "late", "period " + period + " closed at clock " + clock
                        + " (grace " + settings.graceMs() + " ms)");
                return;
            }
            if (end > clock) {
                order.put(CLOCK, Long.toString(end));
            }
        }
        order.put(record.key(), stamp.timeMs() + "," + stamp.seq());
        accept(record.key(), value, record);
    }

    protected void emit(String key, Out.Kind kind, ObjectNode value, long timestampMs) {
        context.forward(new Record<>(key, new Out(kind, Json.write(value)), timestampMs));
    }

    /**
     * Advances this input's clock at the next stages: a tick on every partition of the given signal
     * topic. Ticks closer than a quarter period to the last one sent are left out (the 20 switches'
     * counters and the 16 shims' reports of one period would each tick every stage partition, and
     * every tick is a store write at the stage): a stage's view of an input lags by less than a
     * quarter period, so a period closes at most that much later.
     */
    protected void tick(Out.Kind kind, long timestampMs) {
        String sentKey = TICK_SENT + kind;
        String sent = order.get(sentKey);
        if (sent != null && timestampMs - Long.parseLong(sent) < Math.max(1, settings.periodMs() / 4)) {
            return;
        }
        order.put(sentKey, Long.toString(timestampMs));
        ObjectNode t = Json.object();
        t.put("kind", "tick");
        t.put("ts", timestampMs);
        t.put("source", topic);
        emit(Out.TICK_KEY, kind, t, timestampMs);
    }

    protected static long seqOrZero(JsonNode value) {
        JsonNode s = value.get("seq");
        if (s == null) {
            return 0;
        }
        if (!s.isIntegralNumber() || s.asLong() < 0) {
            throw new BadRecord("seq: a non-negative integer is required");
        }
        return s.asLong();
    }
}
