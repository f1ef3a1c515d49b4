package org.fairfabric.controller.kafka;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
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
        this.prefix = topicPrefix;
        ensureTopics(bootstrap);
        this.producer = new KafkaProducer<>(p);
    }

    /**
     * Creates the topics (one partition: events of a controller are few and ordered) unless they
     * exist, so publishing does not depend on the broker auto-creating them. A broker that is down
     * now is not fatal: the producer retries and the broker may auto-create later.
     */
    private void ensureTopics(String bootstrap) {
        Properties a = new Properties();
        a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        a.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        a.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        try (Admin admin = Admin.create(a)) {
            List<NewTopic> topics = new ArrayList<>();
            for (String t : ControllerTopics.ALL) {
                topics.add(new NewTopic(prefix + t, 1, (short) 1));
            }
            for (Map.Entry<String, KafkaFuture<Void>> r : admin.createTopics(topics).values().entrySet()) {
                try {
                    r.getValue().get(10, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        LOG.warn("cannot create topic {}: {}", r.getKey(), e.getCause().toString());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | RuntimeException e) {
            LOG.warn("cannot create the controller's topics now ({}); publishing anyway", e.toString());
        }
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
