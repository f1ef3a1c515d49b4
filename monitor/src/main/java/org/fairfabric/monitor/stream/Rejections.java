package org.fairfabric.monitor.stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Builds the {@code ff.mon.rejected.v1} record of an input the monitor refused (docs/kafka.md). */
public final class Rejections {
    public static final int MAX_VALUE_CHARS = 1000;

    private Rejections() {
    }

    public static void reject(ProcessorContext<String, Out> context, String topic, Record<String, String> record,
                              String reason, String detail) {
        ObjectNode r = Json.object();
        r.put("schema", 1);
        r.put("topic", topic);
        r.put("key", record.key());
        r.put("reason", reason);
        r.put("detail", detail);
        r.put("ts_ms", record.timestamp());
        String value = record.value();
        if (value != null && value.length() > MAX_VALUE_CHARS) {
            value = value.substring(0, MAX_VALUE_CHARS);
        }
        r.put("value", value);
        String key = record.key() == null ? topic : record.key();
        context.forward(new Record<>(key, new Out(Out.Kind.REJECTED, Json.write(r)), record.timestamp()));
    }
}
