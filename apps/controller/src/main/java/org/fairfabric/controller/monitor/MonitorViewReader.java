package org.fairfabric.controller.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the monitor's compacted view topics from the start (read_committed) into a
 * {@link MonitorView}, on a thread of its own. After each batch it calls {@code onLinks} with
 * every link record of the batch and {@code onSessionsChanged} when the set of active sessions
 * changed. A record that is not JSON is skipped.
 */
public final class MonitorViewReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MonitorViewReader.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final KafkaConsumer<String, String> consumer;
    private final MonitorView view;
    private final Map<String, String> kinds;
    private final Runnable onSessionsChanged;
    private final BiConsumer<String, JsonNode> onLink;
    private final Thread thread;
    private final Object pause = new Object();
    private volatile boolean running = true;

    /** @param suffix appended to every view topic (tests) */
    public MonitorViewReader(String bootstrap, String suffix, MonitorView view, Runnable onSessionsChanged,
                             BiConsumer<String, JsonNode> onLink) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "fairfabric-controller-monitor-view");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        this.view = view;
        this.kinds = Map.of(MonitorTopicNames.SESSIONS + suffix, "sessions", MonitorTopicNames.LINKS + suffix, "links",
                MonitorTopicNames.TENANTS + suffix, "tenants");
        this.onSessionsChanged = onSessionsChanged;
        this.onLink = onLink;
        this.thread = new Thread(this::run, "monitor-view");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private void run() {
        try {
            List<TopicPartition> parts = new ArrayList<>();
            while (running && parts.isEmpty()) {
                for (String topic : kinds.keySet()) {
                    List<PartitionInfo> infos = consumer.listTopics(Duration.ofSeconds(10)).get(topic);
                    if (infos != null) {
                        infos.forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
                    }
                }
                if (parts.size() < kinds.size()) {
                    parts.clear();
                    synchronized (pause) {
                        if (running) {
                            pause.wait(2000); // the monitor creates its topics when it starts
                        }
                    }
                }
            }
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            while (running) {
                boolean changed = false;
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    JsonNode value;
                    try {
                        value = r.value() == null ? null : JSON.readTree(r.value());
                    } catch (Exception e) {
                        continue;
                    }
                    String kind = kinds.get(r.topic());
                    changed |= view.apply(kind, r.key(), value, r.timestamp());
                    if (kind.equals("links") && value != null) {
                        onLink.accept(r.key(), value);
                    }
                }
                if (changed) {
                    onSessionsChanged.run();
                }
            }
        } catch (WakeupException | InterruptedException | org.apache.kafka.common.errors.InterruptException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.warn("reading the monitor view stopped: {}", e.toString());
        } finally {
            Thread.interrupted(); // an interrupted thread cannot close the consumer cleanly ("Failed to close fetcher")
            consumer.close();
        }
    }

    /** Stops the reader with {@code wakeup()}, never an interrupt (which makes the consumer's close log an ERROR). */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        synchronized (pause) {
            pause.notifyAll();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
