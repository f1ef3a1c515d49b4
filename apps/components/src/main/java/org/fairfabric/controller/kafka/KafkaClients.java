package org.fairfabric.controller.kafka;

import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The controller's Kafka clients: one producer configuration and topic creation for every writer. */
public final class KafkaClients {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaClients.class);
    /** The producer's batch.size unless a client asks for another. */
    private static final int KAFKA_DEFAULT_BATCH_BYTES = 16_384;

    private KafkaClients() {
    }

    /**
     * An idempotent producer (acks=all, retries, no duplicates or reordering per partition) of
     * string keys and values.
     */
    public static KafkaProducer<String, String> reliableProducer(String bootstrap, String clientId, int lingerMs) {
        return reliableProducer(bootstrap, clientId, lingerMs, KAFKA_DEFAULT_BATCH_BYTES);
    }

    /** As {@link #reliableProducer(String, String, int)}, with batches of up to {@code batchBytes}. */
    public static KafkaProducer<String, String> reliableProducer(String bootstrap, String clientId, int lingerMs, int batchBytes) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, batchBytes);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        return withOwnClassLoader(() -> new KafkaProducer<>(p, new StringSerializer(), new StringSerializer()));
    }

    /**
     * Kafka loads classes it names in its configuration through the thread's context class loader;
     * inside ONOS that is not the bundle's (which inlines kafka-clients), so it is set to ours
     * while clients are built.
     */
    private static <T> T withOwnClassLoader(Supplier<T> create) {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(KafkaClients.class.getClassLoader());
        try {
            return create.get();
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /** {@link #reliableProducer} behind an {@link AsyncSender}: sending never blocks the caller. */
    public static AsyncSender reliableSender(String bootstrap, String clientId, int lingerMs) {
        return reliableSender(bootstrap, clientId, lingerMs, KAFKA_DEFAULT_BATCH_BYTES);
    }

    /** As {@link #reliableSender(String, String, int)}, with batches of up to {@code batchBytes}. */
    public static AsyncSender reliableSender(String bootstrap, String clientId, int lingerMs, int batchBytes) {
        return new AsyncSender(reliableProducer(bootstrap, clientId, lingerMs, batchBytes), clientId, 100_000);
    }

    /**
     * Creates the topics unless they exist, so publishing does not depend on the broker
     * auto-creating them. A broker that is down now is not fatal: the producer retries and the
     * broker may auto-create later.
     */
    public static void createTopics(String bootstrap, Collection<NewTopic> topics) {
        Properties a = new Properties();
        a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        a.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        a.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        try (Admin admin = withOwnClassLoader(() -> Admin.create(a))) {
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
            LOG.warn("cannot create topics {} now ({}); publishing anyway", topics, e.toString());
        }
    }
}
