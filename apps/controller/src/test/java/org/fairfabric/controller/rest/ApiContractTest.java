package org.fairfabric.controller.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fairfabric.api.dto.DeviceDto;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.api.dto.RoutingGroupDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.Rules;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.AllocationEvents;
import org.fairfabric.controller.kafka.KafkaEventPublisher;
import org.fairfabric.core.routing.Metric;
import org.junit.jupiter.api.Test;

/**
 * Docs and data agree: docs/api/openapi.yaml and docs/kafka.md state the same value rules, enum
 * names and record shapes the code applies and emits.
 */
class ApiContractTest {
    static final Path OPENAPI = Path.of("../../docs/api/openapi.yaml");
    static final Path KAFKA = Path.of("../../docs/kafka.md");

    final JsonNode doc = readYaml(OPENAPI);
    final JsonNode schemas = doc.path("components").path("schemas");

    @Test
    void everyValueRuleOfTheCodeIsStatedInTheSchemas() {
        assertEquals(Rules.ID_PATTERN, schemas.path("Id").path("pattern").asText());
        JsonNode name = schemas.path("Name");
        assertEquals(Rules.NAME_PATTERN, name.path("pattern").asText());
        assertEquals(1, name.path("minLength").asInt());
        assertEquals(Rules.MAX_NAME_LENGTH, name.path("maxLength").asInt());
        JsonNode host = schemas.path("HostCreate").path("properties");
        assertEquals(Rules.IPV4_PATTERN, host.path("ip").path("pattern").asText());
        assertEquals(Rules.MAC_PATTERN, host.path("mac").path("pattern").asText());
        assertEquals(Rules.MAC_LENGTH, host.path("mac").path("minLength").asInt());
        assertEquals(Rules.MAC_LENGTH, host.path("mac").path("maxLength").asInt());
        JsonNode location = schemas.path("Location").path("properties");
        assertEquals(Rules.NAME_PATTERN, location.path("device").path("pattern").asText());
        assertEquals(1, location.path("port").path("minimum").asInt());
        assertEquals(65535, location.path("port").path("maximum").asInt());
        for (String s : List.of("TenantCreate", "TenantUpdate")) {
            JsonNode p = schemas.path(s).path("properties");
            assertEquals("#/components/schemas/Name", p.path("name").path("$ref").asText(), s);
            assertEquals(Rules.MAX_WEIGHT, p.path("weight").path("maximum").asDouble(), s);
            assertEquals(0, p.path("weight").path("minimum").asDouble(), s);
            assertTrue(p.path("weight").path("exclusiveMinimum").asBoolean(), s);
            assertEquals(1, p.path("minBandwidthBps").path("minimum").asLong(), s);
            assertEquals(Rules.MAX_BANDWIDTH_BPS, p.path("minBandwidthBps").path("maximum").asLong(), s);
            assertEquals(s.equals("TenantUpdate"), p.path("minBandwidthBps").path("nullable").asBoolean(), s);
        }
        JsonNode sessionWeight = schemas.path("SessionWeight").path("properties").path("weight");
        assertEquals(Rules.MAX_WEIGHT, sessionWeight.path("maximum").asDouble());
        assertTrue(sessionWeight.path("exclusiveMinimum").asBoolean() && sessionWeight.path("minimum").asDouble() == 0);
        JsonNode demand = schemas.path("SessionCreate").path("properties").path("demandBps");
        assertEquals(1, demand.path("minimum").asLong());
        assertEquals(Rules.MAX_BANDWIDTH_BPS, demand.path("maximum").asLong());
        assertEquals(1, schemas.path("NetworkConfig").path("properties").path("devices").path("minProperties").asInt());
        for (String p : List.of("tenantId")) {
            assertEquals("#/components/schemas/Id", doc.path("components").path("parameters").path(p).path("schema").path("$ref").asText());
        }
    }

    /** C4: one enum (Metric) names the routing-group metrics in REST, events and Kafka. */
    @Test
    void routingGroupMetricNamesAreTheEnumsWireNamesEverywhere() throws Exception {
        Set<String> wire = new TreeSet<>();
        for (Metric m : Metric.values()) {
            wire.add(m.wireName());
            assertEquals(m, Metric.ofWireName(m.wireName()));
        }
        assertEquals(Set.of("queue-depth", "link-utilisation", "hop-delay"), wire);
        assertEquals(wire, texts(schemas.path("RoutingGroup").path("properties").path("metric").path("enum")));

        String kafka = Files.readString(KAFKA);
        Matcher row = Pattern.compile("\\| `routing-group\\.moved` \\| `metric` \\(([^)]*)\\)").matcher(kafka);
        assertTrue(row.find(), "docs/kafka.md has no routing-group.moved detail row");
        assertEquals(wire, backticked(row.group(1)));

        // What the code emits: a group membership through the network view becomes a
        // routing-group.moved event, which the Kafka publisher wraps in its envelope.
        EventLog events = new EventLog(Clock.systemUTC(), 100);
        List<EventDto> emitted = new ArrayList<>();
        events.addSink(emitted::add);
        NetworkView network = new NetworkView(events);
        network.resetTopology(List.of(new DeviceDto("device:leaf1", "leaf", "grpc://127.0.0.1:50001?device_id=1", true)), List.of());
        for (Metric m : Metric.values()) {
            network.setRoutingGroup(new RoutingGroupDto("device:leaf1", m.wireName(), 1, List.of(5)));
        }
        JsonNode example = Json.parse(jsonBlockAfter(kafka, "### Controller event envelope, version 1"));
        Set<String> emittedMetrics = new TreeSet<>();
        for (EventDto e : emitted) {
            JsonNode record = Json.parse(KafkaEventPublisher.envelope(e));
            assertEquals(fieldNames(example), fieldNames(record), "envelope fields in docs/kafka.md vs " + record);
            assertEquals(fieldNames(example.get("detail")), fieldNames(record.get("detail")), "routing-group.moved detail");
            emittedMetrics.add(record.get("detail").get("metric").asText());
        }
        assertEquals(wire, emittedMetrics);
        assertTrue(wire.contains(example.get("detail").get("metric").asText()));
        assertEquals(wire, texts(Json.tree(network.routingGroups()).findValues("metric")));
    }

    @Test
    void eventTypesAreTheSameInCodeOpenApiAndKafkaDocs() throws Exception {
        Set<String> code = new TreeSet<>();
        for (Field f : EventTypes.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                code.add((String) f.get(null));
            }
        }
        code.add(AllocationEvents.INFEASIBLE);
        assertEquals(code, texts(schemas.path("Event").path("properties").path("type").path("enum")));
        String kafka = Files.readString(KAFKA);
        for (String type : code) {
            assertTrue(kafka.contains("| `" + type + "`") || kafka.contains(", `" + type + "`"), type + " is not in docs/kafka.md's tables");
        }
    }

    private static Set<String> texts(JsonNode array) {
        Set<String> out = new TreeSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Set<String> texts(List<JsonNode> nodes) {
        Set<String> out = new TreeSet<>();
        nodes.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Set<String> backticked(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("`([^`]+)`").matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static Set<String> fieldNames(JsonNode n) {
        Set<String> out = new TreeSet<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static String jsonBlockAfter(String markdown, String heading) {
        int at = markdown.indexOf(heading);
        assertTrue(at >= 0, "no '" + heading + "' in docs/kafka.md");
        int start = markdown.indexOf("```json\n", at) + "```json\n".length();
        return markdown.substring(start, markdown.indexOf("```", start));
    }

    private static JsonNode readYaml(Path p) {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(Files.readString(p));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
