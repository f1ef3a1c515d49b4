package org.fairfabric.controller.mininet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A plain Kafka consumer of the controller's {@code ff.ctl.routing-groups.v1} topic, as any
 * outside reader would use it. It reads from the topic's start (the broker may hold earlier runs)
 * and keeps only records written after it was opened.
 */
final class RoutingGroupTopic implements AutoCloseable {
    static final String TOPIC = "ff.ctl.routing-groups.v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaConsumer<String, String> consumer;
    private final long since;

    private RoutingGroupTopic(KafkaConsumer<String, String> consumer, long since) {
        this.consumer = consumer;
        this.since = since;
    }

    static RoutingGroupTopic open(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "mininet-test-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        KafkaConsumer<String, String> c = new KafkaConsumer<>(p);
        c.subscribe(List.of(TOPIC));
        return new RoutingGroupTopic(c, System.currentTimeMillis() - 1000);
    }

    /** Polls until records keyed {@code key} that match arrive (their values, parsed), or fails after timeoutS. */
    List<JsonNode> await(String key, Predicate<JsonNode> match, double timeoutS) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
        while (found.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no matching record for " + key + " on " + TOPIC + " within " + timeoutS
                        + " s; records of this run: " + seen);
            }
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                if (r.timestamp() < since) {
                    continue;
                }
                seen.add(r.key());
                JsonNode value = JSON.readTree(r.value());
                if (key.equals(r.key()) && match.test(value)) {
                    found.add(value);
                }
            }
        }
        return found;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
