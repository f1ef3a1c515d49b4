package org.fairfabric.controller.kafka;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.service.EventSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes every controller event to its topic with an idempotent producer (acks=all, retries,
 * no duplicates or reordering per partition). The record key is the event subject, so the events
 * of one tenant, device or session stay in order on one partition. Value: the versioned envelope
 * {@code {"version": 1, "seq", "time", "type", "subject", "detail"}}; header {@code schema-version}.
 */
public final class KafkaEventPublisher implements EventSink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaEventPublisher.class);

    private final KafkaProducer<String, String> producer;
    private final String prefix;

    public KafkaEventPublisher(String bootstrap, String topicPrefix) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "fairfabric-controller");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        this.producer = new KafkaProducer<>(p);
        this.prefix = topicPrefix;
    }

    public static String envelope(EventDto e) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("version", ControllerTopics.SCHEMA_VERSION);
        n.put("seq", e.seq);
        n.put("time", e.time);
        n.put("type", e.type);
        n.put("subject", e.subject);
        n.set("detail", Json.tree(e.detail));
        return Json.write(n);
    }

    @Override
    public void publish(EventDto e) {
        String topic = prefix + ControllerTopics.forType(e.type);
        ProducerRecord<String, String> r = new ProducerRecord<>(topic, e.subject, envelope(e));
        r.headers().add("schema-version", Integer.toString(ControllerTopics.SCHEMA_VERSION).getBytes(StandardCharsets.UTF_8));
        producer.send(r, (meta, err) -> {
            if (err != null) {
                LOG.warn("event {} ({}) not delivered to {}: {}", e.seq, e.type, topic, err.toString());
            }
        });
    }

    /** Waits until every event sent so far is acknowledged by the broker (or has failed). */
    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
