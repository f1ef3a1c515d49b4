package org.fairfabric.controller.failure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.fairfabric.controller.alloc.RatesSink;
import org.fairfabric.controller.kafka.AsyncSender;
import org.fairfabric.controller.kafka.KafkaClients;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code ff.ctl.deadpaths.v1}: compacted, keyed by host name, one partition, the controller its only writer. */
public final class KafkaDeadPathsSink implements RatesSink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaDeadPathsSink.class);

    private final AsyncSender sender;

    public KafkaDeadPathsSink(String bootstrap) {
        KafkaClients.createTopics(bootstrap, List.of(new NewTopic(DeadPathsComponent.TOPIC, 1, (short) 1)
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))));
        sender = KafkaClients.reliableSender(bootstrap, "fairfabric-controller-deadpaths", 0);
    }

    @Override
    public void send(String host, String json) {
        sender.send(new ProducerRecord<>(DeadPathsComponent.TOPIC, host, json), (meta, err) -> {
            if (err != null) {
                LOG.warn("dead paths of {} not delivered: {}", host, err.toString());
            }
        });
    }

    @Override
    public void close() {
        sender.close(Duration.ofSeconds(10));
    }
}
