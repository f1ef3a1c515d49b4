package org.fairfabric.controller.monitor;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the compacted ff.ctl.catalog.v1 equal to the controller's model: after a change
 * ({@link #changed}, debounced by {@link #DELAY_MS}) it rebuilds the catalog and sends the keys
 * whose value changed and a tombstone for every key that went away. At start every key is sent.
 */
public final class CatalogPublisher implements AutoCloseable {
    public static final long DELAY_MS = 200;
    private static final Logger LOG = LoggerFactory.getLogger(CatalogPublisher.class);
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "catalog");
        t.setDaemon(true);
        return t;
    });
    private final Supplier<Map<String, String>> catalog;
    private final Producer<String, String> producer;
    private final String topic;
    private Map<String, String> sent = new HashMap<>();
    private ScheduledFuture<?> pending;

    public CatalogPublisher(Supplier<Map<String, String>> catalog, Producer<String, String> producer, String topic) {
        this.catalog = catalog;
        this.producer = producer;
        this.topic = topic;
    }

    public synchronized void changed() {
        if (pending == null || pending.isDone()) {
            pending = thread.schedule(this::publishNow, DELAY_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Sends the difference to what was sent; returns the number of records sent (public for tests). */
    public int publishNow() {
        Map<String, String> now;
        try {
            now = catalog.get();
        } catch (RuntimeException e) {
            LOG.warn("building the monitor catalog failed: {}", e.toString());
            return 0;
        }
        int n = 0;
        for (Map.Entry<String, String> e : now.entrySet()) {
            if (!e.getValue().equals(sent.get(e.getKey()))) {
                producer.send(new ProducerRecord<>(topic, e.getKey(), e.getValue()));
                n++;
            }
        }
        for (String gone : sent.keySet()) {
            if (!now.containsKey(gone)) {
                producer.send(new ProducerRecord<>(topic, gone, null));
                n++;
            }
        }
        sent = new HashMap<>(now);
        return n;
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
