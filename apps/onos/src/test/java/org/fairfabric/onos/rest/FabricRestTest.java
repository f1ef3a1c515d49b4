package org.fairfabric.onos.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.fairfabric.api.dto.RoutingGroupDto;
import org.fairfabric.onos.fabric.FabricComponent;
import org.fairfabric.onos.fabric.TestFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ONOS REST API answers as the embedded one does (compare apps/controller's RestApiTest). */
class FabricRestTest {
    static final String H1 = "{\"id\":\"h1\",\"ip\":\"10.0.1.1\",\"mac\":\"00:00:0a:00:01:01\",\"location\":{\"device\":\"device:leaf1\",\"port\":1}}";
    static final String H2 = "{\"id\":\"h2\",\"ip\":\"10.0.2.1\",\"mac\":\"00:00:0a:00:02:01\",\"location\":{\"device\":\"device:leaf2\",\"port\":1}}";

    FabricComponent fabric;
    RestServer http;

    @BeforeEach
    void start() throws Exception {
        fabric = new TestFabric().start();
        http = new RestServer(fabric);
        http.start();
    }

    @AfterEach
    void stop() throws Exception {
        http.stop();
        TestFabric.stop(fabric);
    }

    @Test
    void tenantAndHostRoundTrip() {
        RestServer.Answer created = http.send("POST", "/v1/tenants", "{\"id\":\"blue\",\"name\":\"Blue\",\"weight\":2,\"minBandwidthBps\":10000000}");
        assertEquals(201, created.status, created.body);
        assertTrue(created.location.endsWith("/v1/tenants/blue"), created.location);
        assertEquals("Blue", created.json().get("name").asText());
        assertEquals(2.0, http.get("/v1/tenants/blue").json().get("weight").asDouble());

        RestServer.Answer patched = http.send("PATCH", "/v1/tenants/blue", "{\"weight\":4}");
        assertEquals(200, patched.status, patched.body);
        assertEquals(10000000, patched.json().get("minBandwidthBps").asLong());
        assertEquals(4.0, http.get("/v1/tenants").json().get(0).get("weight").asDouble());

        assertEquals(201, http.send("POST", "/v1/tenants/blue/hosts", H1).status);
        JsonNode host = http.get("/v1/tenants/blue/hosts/h1").json();
        assertEquals("device:leaf1", host.get("location").get("device").asText());
        assertEquals(1, http.get("/v1/tenants/blue/hosts").json().size());
        JsonNode topology = http.get("/v1/topology").json();
        assertEquals(1, topology.get("hosts").size());
        assertEquals(3, topology.get("devices").size(), "ONOS's devices");
        assertEquals(4, topology.get("links").size(), "ONOS's links, one per direction");

        assertEquals(204, http.send("DELETE", "/v1/tenants/blue/hosts/h1", null).status);
        assertEquals(404, http.get("/v1/tenants/blue/hosts/h1").status);
        assertEquals(204, http.send("DELETE", "/v1/tenants/blue", null).status);
        assertEquals(404, http.get("/v1/tenants/blue").status);

        List<String> types = http.get("/v1/events?after=0").json().findValuesAsText("type");
        assertEquals(List.of("tenant.created", "tenant.updated", "host.added", "host.removed", "tenant.deleted"), types);
    }

    @Test
    void sessionsAllocationsAndRoutingGroups() {
        http.send("POST", "/v1/tenants", "{\"id\":\"blue\",\"weight\":1}");
        http.send("POST", "/v1/tenants/blue/hosts", H1);
        http.send("POST", "/v1/tenants/blue/hosts", H2);
        RestServer.Answer s = http.send("POST", "/v1/sessions", "{\"srcHost\":\"h1\",\"dstHost\":\"h2\",\"demandBps\":1000000}");
        assertEquals(201, s.status, s.body);
        String id = s.json().get("id").asText();
        assertEquals("api", http.get("/v1/sessions/" + id).json().get("source").asText());
        assertEquals(1, http.get("/v1/sessions").json().size());
        assertEquals(409, http.send("POST", "/v1/sessions", "{\"srcHost\":\"h1\",\"dstHost\":\"h2\"}").status);
        RestServer.Answer weighted = http.send("PUT", "/v1/sessions/" + id + "/weight", "{\"weight\":3}");
        assertEquals(200, weighted.status, weighted.body);
        assertEquals(3.0, weighted.json().get("weight").asDouble());
        expectError(http.send("PUT", "/v1/sessions/" + id + "/weight", "{\"weight\":0}"), 422, "weight");
        expectError(http.send("PUT", "/v1/sessions/nope/weight", "{\"weight\":1}"), 404, "sessionId");
        for (String view : new String[] {"sessions", "links", "tenants"}) {
            assertEquals("[]", http.get("/v1/monitor/" + view).body, "no monitor view is read under ONOS yet");
        }
        assertEquals(204, http.send("DELETE", "/v1/sessions/" + id, null).status);
        assertEquals(404, http.get("/v1/sessions/" + id).status);

        assertEquals(0, http.get("/v1/allocations").json().size());
        fabric.network().setRoutingGroup(new RoutingGroupDto("device:leaf1", "queue-depth", 0, List.of(3)));
        JsonNode groups = http.get("/v1/routing-groups").json();
        assertEquals("queue-depth", groups.get(0).get("metric").asText());
    }

    @Test
    void badInputIsAnsweredAsInEmbeddedModeAndChangesNothing() {
        assertEquals(201, http.send("POST", "/v1/tenants", "{\"id\":\"blue\",\"weight\":1}").status);
        assertEquals(201, http.send("POST", "/v1/tenants/blue/hosts", H1).status);
        String tenantsBefore = http.get("/v1/tenants").body;
        String hostsBefore = http.get("/v1/tenants/blue/hosts").body;

        expectError(http.send("POST", "/v1/tenants", "{\"id\":"), 400, null);
        expectError(http.send("POST", "/v1/tenants", ""), 400, null);
        expectError(http.send("POST", "/v1/tenants", "{\"id\":\"red\",\"weight\":1,\"colour\":\"red\"}"), 400, "colour");
        expectError(http.send("POST", "/v1/tenants", "{\"id\":\"red\"}"), 422, "weight");
        expectError(http.send("POST", "/v1/tenants", "{\"id\":\"red\",\"weight\":-1}"), 422, "weight");
        expectError(http.send("POST", "/v1/tenants", "{\"id\":\"Red!\",\"weight\":1}"), 422, "id");
        expectError(http.send("POST", "/v1/tenants", "{\"id\":\"blue\",\"weight\":1}"), 409, "id");
        expectError(http.send("PATCH", "/v1/tenants/blue", "{}"), 422, null);
        expectError(http.send("PATCH", "/v1/tenants/nobody", "{\"weight\":2}"), 404, "tenantId");
        expectError(http.send("POST", "/v1/tenants", "id=red", "text/plain"), 415, null);
        expectError(http.send("POST", "/v1/tenants", "{\"id\":\"red\",\"name\":\"" + "x".repeat(RequestBody.MAX_BODY) + "\"}"), 413, null);

        expectError(http.send("POST", "/v1/tenants/nobody/hosts", H1), 404, "tenantId");
        expectError(http.send("POST", "/v1/tenants/blue/hosts", H1.replace("\"h1\"", "\"h9\"")), 409, "mac");
        expectError(http.send("POST", "/v1/tenants/blue/hosts", H2.replace("device:leaf2", "device:leaf9")), 422, "location.device");
        expectError(http.send("POST", "/v1/tenants/blue/hosts", H2.replace("\"port\":1", "\"port\":3")), 422, "location.port");
        expectError(http.send("POST", "/v1/tenants/blue/hosts", H2.replace("\"port\":1", "\"port\":9")), 422, "location.port");
        expectError(http.send("POST", "/v1/tenants/blue/hosts", H2.replace("10.0.2.1", "10.0.2")), 422, "ip");
        expectError(http.send("POST", "/v1/sessions", "{\"srcHost\":\"h1\",\"dstHost\":\"h1\"}"), 422, "dstHost");
        expectError(http.send("POST", "/v1/sessions", "{\"srcHost\":\"h1\",\"dstHost\":\"h7\"}"), 422, "dstHost");
        expectError(http.get("/v1/events?limit=0"), 422, "limit");
        expectError(http.get("/v1/events?after=x"), 400, "after");
        expectError(http.get("/v1/network-config"), 404, null);
        expectError(http.send("PUT", "/v1/network-config", "[]"), 400, null);
        expectError(http.send("PUT", "/v1/network-config", "{\"switches\":{}}"), 422, "switches");
        expectError(http.send("PUT", "/v1/network-config", "{\"devices\":{\"leaf1\":{}}}"), 422, "devices[\"leaf1\"]");
        expectError(http.get("/v1/no-such-thing"), 404, null);
        expectError(http.send("PUT", "/v1/tenants", "{}"), 405, null);

        assertEquals(tenantsBefore, http.get("/v1/tenants").body);
        assertEquals(hostsBefore, http.get("/v1/tenants/blue/hosts").body);
        assertEquals(2, http.get("/v1/events").json().size(), "only the two accepted requests left events");
    }

    @Test
    void networkConfigIsKeptAndHostsStillAttachWhereOnosAllows() {
        String cfg = "{\"devices\":{\"device:leaf1\":{\"basic\":{}}}}";
        assertEquals(204, http.send("PUT", "/v1/network-config", cfg).status);
        assertEquals(cfg, http.get("/v1/network-config").body);
        http.send("POST", "/v1/tenants", "{\"id\":\"blue\",\"weight\":1}");
        assertEquals(201, http.send("POST", "/v1/tenants/blue/hosts", H2).status, "leaf2 is ONOS's even if not in this document");
    }

    @Test
    void documentAndHealth() {
        assertEquals(Map.of("status", "up").toString(), Map.of("status", http.get("/v1/health").json().get("status").asText()).toString());
        RestServer.Answer yaml = http.get("/v1/openapi.yaml");
        assertEquals(200, yaml.status);
        assertTrue(yaml.body.startsWith("openapi: 3"), yaml.body.substring(0, 40));
        JsonNode json = http.get("/v1/openapi.json").json();
        assertTrue(json.get("paths").has("/api/v1/tenants"));
    }

    @Test
    void streamSaysHelloReplaysEventsAndSendsASnapshot() throws Exception {
        http.send("POST", "/v1/tenants", "{\"id\":\"blue\",\"weight\":1}");
        http.send("POST", "/v1/tenants", "{\"id\":\"red\",\"weight\":1}");
        String run = fabric.run();
        List<String> lines = http.firstLines("/v1/stream", null, 14);
        assertEquals("retry: 1000", lines.get(0));
        assertEquals("event: hello", lines.get(2));
        assertEquals("data: {\"run\":\"" + run + "\"}", lines.get(3));
        assertEquals(List.of("id: " + run + "/1", "event: event"), lines.subList(5, 7));
        assertTrue(lines.get(7).contains("\"type\":\"tenant.created\""), lines.get(7));
        assertEquals("id: " + run + "/2", lines.get(9));
        assertEquals("event: snapshot", lines.get(13));

        List<String> resumed = http.firstLines("/v1/stream", run + "/1", 8);
        assertEquals("id: " + run + "/2", resumed.get(5), "only what the client missed");
    }

    @Test
    void emulatedLinkStateIsCheckedAsInEmbeddedModeAndRefusedForOnosSwitches() {
        expectError(http.send("POST", "/v1/emulation/link-state", "{\"device\":\"device:leaf1\",\"port\":3}"), 422, "up");
        expectError(http.send("POST", "/v1/emulation/link-state", "{\"device\":\"device:leaf1\",\"port\":\"3\",\"up\":false}"), 400, "port");
        expectError(http.send("POST", "/v1/emulation/link-state", "{\"device\":\"device:leaf1\",\"port\":3,\"up\":false,\"x\":1}"), 400, "x");
        expectError(http.send("POST", "/v1/emulation/link-state", "{\"device\":\"device:leaf1\",\"port\":1,\"up\":false}"), 404, "port");
        expectError(http.send("POST", "/v1/emulation/link-state", "{\"device\":\"device:leaf1\",\"port\":3,\"up\":false}"), 409, "device");
    }

    private static void expectError(RestServer.Answer a, int status, String field) {
        assertEquals(status, a.status, a.body);
        JsonNode e = a.json();
        assertEquals(status, e.get("status").asInt(), a.body);
        if (field == null) {
            assertTrue(e.get("field").isNull(), a.body);
        } else {
            assertEquals(field, e.get("field").asText(), a.body);
        }
        assertNotEquals("", e.get("message").asText());
    }
}
