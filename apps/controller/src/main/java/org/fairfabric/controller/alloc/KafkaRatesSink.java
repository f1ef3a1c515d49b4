package org.fairfabric.controller.alloc;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.fairfabric.controller.kafka.AsyncSender;
import org.fairfabric.controller.kafka.KafkaClients;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ff.ctl.rates.v1}: compacted, keyed by host name, one partition (docs/kafka.md). The
 * controller is the topic's only writer; an idempotent producer keeps each host's tables in order.
 */
public final class KafkaRatesSink implements RatesSink, AutoCloseable {
    public static final String TOPIC = "ff.ctl.rates.v1";
    private static final Logger LOG = LoggerFactory.getLogger(KafkaRatesSink.class);

    private final AsyncSender sender;
    private final String topic;

    public KafkaRatesSink(String bootstrap, String topic) {
        this.topic = topic;
        KafkaClients.createTopics(bootstrap, List.of(new NewTopic(topic, 1, (short) 1)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))));
        sender = KafkaClients.reliableSender(bootstrap, "fairfabric-controller-rates", 0);
    }

    @Override
    public void send(String host, String json) {
        sender.send(new ProducerRecord<>(topic, host, json), (meta, err) -> {
            if (err != null) {
                LOG.warn("rates table of {} not delivered to {}: {}", host, topic, err.toString());
            }
        });
    }

    public void flush() {
        sender.flush();
    }

    @Override
    public void close() {
        sender.close(Duration.ofSeconds(10));
    }
}
