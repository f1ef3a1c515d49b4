package org.fairfabric.controller.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** Needs the broker the test command starts ($FAIRFABRIC_KAFKA); fails, never skips, without it. */
class KafkaRatesSinkTest {
    /** An allocation's tables sent together (one batch of about 1 MB) arrive as sent: each under its host's key, in order. */
    @Test
    void tablesSentTogetherArriveInOrderUnderTheirHostsKeys() throws Exception {
        String bootstrap = System.getenv("FAIRFABRIC_KAFKA");
        assertNotNull(bootstrap, "FAIRFABRIC_KAFKA is not set: run through ./fairfabric test (or ./fairfabric kafka start and export it)");
        String topic = KafkaRatesSink.TOPIC + ".test-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> tables = new LinkedHashMap<>();
        for (int i = 0; i < 600; i++) {
            tables.put("h" + i, "{\"host\":\"h" + i + "\",\"pad\":\"" + "x".repeat(1500) + "\"}");
        }
        List<String[]> expected = new ArrayList<>();
        tables.forEach((host, json) -> expected.add(new String[] {host, json}));
        expected.add(new String[] {"h0", "{\"host\":\"h0\",\"again\":true}"});
        try (KafkaRatesSink sink = new KafkaRatesSink(bootstrap, topic)) {
            java.util.concurrent.CompletableFuture<?> delivered = sink.sendAll(tables).toCompletableFuture();
            sink.send("h0", "{\"host\":\"h0\",\"again\":true}");
            sink.flush();
            // the stage completes once every record of the batch is acknowledged (the exact solve waits for that)
            delivered.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }

        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, topic + ".reader");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String[]> got = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (got.size() < expected.size() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    got.add(new String[] {r.key(), r.value()});
                }
            }
        }
        Properties a = new Properties();
        a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(a)) {
            admin.deleteTopics(List.of(topic)).all().get();
        }
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i)[0], got.get(i)[0], "record " + i);
            assertEquals(expected.get(i)[1], got.get(i)[1], "record " + i);
        }
    }
}
