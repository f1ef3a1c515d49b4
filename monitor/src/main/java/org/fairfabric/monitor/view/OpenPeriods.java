package org.fairfabric.monitor.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.fairfabric.monitor.stream.Json;

/**
 * The accumulators of periods that have not closed yet, one per (period, subject), in a state
 * store whose keys sort by period so that closing is one range scan.
 */
final class OpenPeriods {
    private static final String KEY_FORMAT = "%016d|%s";
    private final KeyValueStore<String, String> store;

    OpenPeriods(KeyValueStore<String, String> store) {
        this.store = store;
    }

    /** Applies {@code change} to the accumulator of (period, subject), creating it empty. */
    void update(long period, String subject, Consumer<ObjectNode> change) {
        String key = String.format(KEY_FORMAT, period, subject);
        String v = store.get(key);
        ObjectNode acc = v == null ? Json.object() : (ObjectNode) Json.parseObject(v);
        change.accept(acc);
        store.put(key, Json.write(acc));
    }

    record Closed(long period, String subject, ObjectNode accumulator) {
    }

    /** Removes and returns, oldest first, the accumulators of every period that starts at or before {@code lastPeriod}. */
    List<Closed> closeUpTo(long lastPeriod) {
        List<Closed> out = new ArrayList<>();
        if (lastPeriod < 0) {
            return out;
        }
        String to = String.format("%016d|\uffff", lastPeriod);
        try (KeyValueIterator<String, String> it = store.range(String.format("%016d|", 0), to)) {
            while (it.hasNext()) {
                KeyValue<String, String> kv = it.next();
                int bar = kv.key.indexOf('|');
                out.add(new Closed(Long.parseLong(kv.key.substring(0, bar)), kv.key.substring(bar + 1),
                        (ObjectNode) Json.parseObject(kv.value)));
            }
        }
        for (Closed c : out) {
            store.delete(String.format(KEY_FORMAT, c.period(), c.subject()));
        }
        return out;
    }
}
