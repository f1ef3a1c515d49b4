package org.fairfabric.monitor.catalog;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.fairfabric.monitor.stream.BadRecord;
import org.fairfabric.monitor.stream.Json;

/** Keeps the global catalog store equal to the compacted topic; a value that is not JSON is skipped. */
public final class CatalogLoader implements Processor<String, String, Void, Void> {
    private KeyValueStore<String, String> store;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(Catalog.STORE);
    }

    @Override
    public void process(Record<String, String> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            store.delete(record.key());
        } else {
            try {
                Json.parseObject(record.value());
                store.put(record.key(), record.value());
            } catch (BadRecord e) {
                return; // the controller is this topic's only writer; a bad value keeps the previous one
            }
        }
        if (record.key().startsWith("link/")) {
            Catalog.linksChanged();
        }
    }
}
