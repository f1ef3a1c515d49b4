package org.fairfabric.controller.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.DeviceDto;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.PathRateDto;
import org.fairfabric.api.dto.RoutingGroupDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.api.store.InMemoryFabricStore;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.junit.jupiter.api.Test;

/** Needs the broker the test command starts ($FAIRFABRIC_KAFKA); fails, never skips, without it. */
class KafkaEventPublisherTest {
    static String broker() {
        String b = System.getenv("FAIRFABRIC_KAFKA");
        assertNotNull(b, "FAIRFABRIC_KAFKA is not set: run through ./fairfabric test (or ./fairfabric kafka start and export it)");
        return b;
    }

    @Test
    void everyEventReachesItsTopicInOrderWithTheVersionedEnvelope() throws Exception {
        String bootstrap = broker();
        String prefix = "test-" + UUID.randomUUID().toString().substring(0, 8) + ".fairfabric.controller.";
        EventLog events = new EventLog(Clock.systemUTC(), 100);
        List<String> topics = ControllerTopics.ALL.stream().map(t -> prefix + t).collect(Collectors.toList());
        Properties a = new Properties();
        a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaEventPublisher publisher = new KafkaEventPublisher(bootstrap, prefix); Admin admin = Admin.create(a)) {
            assertTrue(admin.listTopics().names().get().containsAll(topics), "the publisher creates its topics before it sends anything");
            events.addSink(publisher);
            FabricService fabric = new FabricService(new InMemoryFabricStore(), new NetworkConfigParser(), events);
            NetworkView net = new NetworkView(events);
            net.resetTopology(List.of(new DeviceDto("device:leaf1", "leaf", "grpc://127.0.0.1:1?device_id=1", false)),
                    List.of(new LinkDto(new LocationDto("device:leaf1", 5), new LocationDto("device:spine1", 1), 100_000_000L, 0, true)));
            fabric.createTenant(new TenantDto("blue", "blue", 1, null));
            fabric.updateTenant("blue", t -> new TenantDto("blue", "blue", 3, null));
            net.setDeviceAvailable("device:leaf1", true);
            net.setPortUp("device:leaf1", 5, false);
            net.setRoutingGroup(new RoutingGroupDto("device:leaf1", "queue-depth", 1, List.of(5)));
            net.publishAllocations(List.of(new AllocationDto("s1", "blue", 5e6, List.of(new PathRateDto(1, List.of("device:leaf1"), 5e6)), "2026-01-01T00:00:00Z", true)));
            fabric.deleteTenant("blue");
            publisher.flush();
        }

        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, prefix + "reader");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(topics);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (got.size() < 7 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(got::add);
            }
        }
        Map<String, List<String>> typesByTopic = got.stream().collect(Collectors.groupingBy(
                r -> r.topic().substring(prefix.length()), Collectors.mapping(r -> Json.parse(r.value()).get("type").asText(), Collectors.toList())));
        assertEquals(Map.of(
                "tenants.v1", List.of("tenant.created", "tenant.updated", "tenant.deleted"),
                "topology.v1", List.of("device.state", "link.state"),
                "routing-groups.v1", List.of("routing-group.moved"),
                "allocations.v1", List.of("allocation.updated")), typesByTopic);
        for (ConsumerRecord<String, String> r : got) {
            JsonNode v = Json.parse(r.value());
            assertEquals(1, v.get("version").asInt());
            assertEquals(v.get("subject").asText(), r.key());
            assertEquals("1", new String(r.headers().lastHeader("schema-version").value(), StandardCharsets.UTF_8));
            assertTrue(v.get("seq").asLong() >= 1 && v.has("time") && v.get("detail").isObject(), r.value());
        }
        JsonNode moved = got.stream().map(r -> Json.parse(r.value())).filter(v -> v.get("type").asText().equals("routing-group.moved")).findFirst().orElseThrow();
        assertEquals(5, moved.get("detail").get("port").asInt());
        assertEquals(1, moved.get("detail").get("toLevel").asInt());

        try (Admin admin = Admin.create(a)) {
            admin.deleteTopics(topics).all().get();
        }
    }
}
