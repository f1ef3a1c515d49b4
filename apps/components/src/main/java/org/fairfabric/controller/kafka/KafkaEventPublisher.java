package org.fairfabric.controller.kafka;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
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

    private final AsyncSender sender;
    private final String prefix;

    public KafkaEventPublisher(String bootstrap, String topicPrefix) {
        this.prefix = topicPrefix;
        // One partition per topic: a controller's events are few and ordered.
        List<NewTopic> topics = new ArrayList<>();
        for (String t : ControllerTopics.ALL) {
            topics.add(new NewTopic(prefix + t, 1, (short) 1));
        }
        KafkaClients.createTopics(bootstrap, topics);
        this.sender = KafkaClients.reliableSender(bootstrap, "fairfabric-controller", 5);
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
        sender.send(r, (meta, err) -> {
            if (err != null) {
                LOG.warn("event {} ({}) not delivered to {}: {}", e.seq, e.type, topic, err.toString());
            }
        });
    }

    /** Waits until every event sent so far is acknowledged by the broker (or has failed). */
    public void flush() {
        sender.flush();
    }

    @Override
    public void close() {
        sender.close(Duration.ofSeconds(10));
    }
}
