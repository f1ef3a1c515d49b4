package org.fairfabric.controller.alloc;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ff.ctl.rates.v1}: compacted, keyed by host name, one partition (docs/kafka.md). The
 * controller is the topic's only writer; an idempotent producer keeps each host's tables in order.
 */
public final class KafkaRatesSink implements RatesSink, AutoCloseable {
    public static final String TOPIC = "ff.ctl.rates.v1";
    private static final Logger LOG = LoggerFactory.getLogger(KafkaRatesSink.class);

    private final KafkaProducer<String, String> producer;
    private final String topic;

    public KafkaRatesSink(String bootstrap, String topic) {
        this.topic = topic;
        createCompacted(bootstrap, topic);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "fairfabric-controller-rates");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producer = new KafkaProducer<>(p);
    }

    private static void createCompacted(String bootstrap, String topic) {
        Properties a = new Properties();
        a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        a.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        a.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        try (Admin admin = Admin.create(a)) {
            NewTopic t = new NewTopic(topic, 1, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(t)).all().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                LOG.warn("cannot create {}: {}", topic, e.getCause().toString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("cannot create {} now ({}); publishing anyway", topic, e.toString());
        }
    }

    @Override
    public void send(String host, String json) {
        producer.send(new ProducerRecord<>(topic, host, json), (meta, err) -> {
            if (err != null) {
                LOG.warn("rates table of {} not delivered to {}: {}", host, topic, err.toString());
            }
        });
    }

    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
