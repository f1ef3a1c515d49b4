package org.fairfabric.controller.alloc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.fairfabric.controller.kafka.AsyncSender;
import org.fairfabric.controller.kafka.KafkaClients;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A compacted topic keyed by host name, one partition (docs/kafka.md): {@code ff.ctl.rates.v1}, and
 * {@code ff.ctl.deadpaths.v1} for the failure handling. The controller is the topic's only writer;
 * an idempotent producer keeps each host's records in order.
 */
public final class KafkaRatesSink implements RatesSink, AutoCloseable {
    public static final String TOPIC = "ff.ctl.rates.v1";
    private static final Logger LOG = LoggerFactory.getLogger(KafkaRatesSink.class);
    /**
     * The producer's batch size: an arrival's 30-150 tables (about 1.5 kB each at k=16) in one
     * produce request instead of one per 16 kB (Kafka's default); at most the default request size.
     */
    static final int BATCH_BYTES = 1024 * 1024;

    private final AsyncSender sender;
    private final String topic;
    private final String what;

    /** The rates tables on {@code topic}. */
    public KafkaRatesSink(String bootstrap, String topic) {
        this(bootstrap, topic, "fairfabric-controller-rates", "rates table");
    }

    /** Records of {@code what} (for the log) on {@code topic}, sent as client {@code clientId}. */
    public KafkaRatesSink(String bootstrap, String topic, String clientId, String what) {
        this.topic = topic;
        this.what = what;
        KafkaClients.createTopics(bootstrap, List.of(new NewTopic(topic, 1, (short) 1)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))));
        sender = KafkaClients.reliableSender(bootstrap, clientId, 0, BATCH_BYTES);
    }

    @Override
    public void send(String host, String json) {
        sender.send(new ProducerRecord<>(topic, host, json), delivered(host));
    }

    /** The records are handed to the producer in one go, so that they leave in one batch (up to {@link #BATCH_BYTES}). */
    @Override
    public CompletionStage<?> sendAll(Map<String, String> jsonByHost) {
        CompletableFuture<Void> all = new CompletableFuture<>();
        AtomicInteger left = new AtomicInteger(jsonByHost.size());
        if (jsonByHost.isEmpty()) {
            all.complete(null);
        }
        List<ProducerRecord<String, String>> records = new ArrayList<>(jsonByHost.size());
        List<Callback> callbacks = new ArrayList<>(jsonByHost.size());
        jsonByHost.forEach((host, json) -> {
            records.add(new ProducerRecord<>(topic, host, json));
            Callback delivered = delivered(host);
            callbacks.add((meta, err) -> {
                delivered.onCompletion(meta, err);
                if (left.decrementAndGet() == 0) {
                    all.complete(null);
                }
            });
        });
        sender.sendAll(records, callbacks);
        return all;
    }

    private Callback delivered(String host) {
        return (meta, err) -> {
            if (err != null) {
                LOG.warn("{} of {} not delivered to {}: {}", what, host, topic, err.toString());
            }
        };
    }

    public void flush() {
        sender.flush();
    }

    @Override
    public void close() {
        sender.close(Duration.ofSeconds(10));
    }
}
