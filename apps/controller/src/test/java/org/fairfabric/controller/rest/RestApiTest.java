package org.fairfabric.controller.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.Controller;
import org.fairfabric.controller.ControllerSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RestApiTest {
    static final String TOKEN = "test-token-0123456789";
    static final Path LEAF_SPINE = Path.of("../../docs/examples/netcfg-leafspine-4x4.json");
    static final String H1 = "{\"id\":\"h1\",\"ip\":\"10.0.1.1\",\"mac\":\"00:00:0a:00:01:01\",\"location\":{\"device\":\"device:leaf1\",\"port\":1}}";

    static final String H2 = "{\"id\":\"h2\",\"ip\":\"10.0.1.2\",\"mac\":\"00:00:0a:00:01:02\",\"location\":{\"device\":\"device:leaf1\",\"port\":2}}";

    @TempDir
    Path dir;
    Controller controller;
    HttpJson http;

    @BeforeEach
    void start() {
        controller = Controller.start(ControllerSettings.of(dir, LEAF_SPINE, "127.0.0.1", 0, null, TOKEN));
        http = new HttpJson(controller.baseUrl(), TOKEN);
    }

    @AfterEach
    void stop() {
        controller.close();
    }

    @Test
    void tenantAndHostRoundTrip() {
        HttpJson.Answer created = http.send("POST", "/api/v1/tenants", "{\"id\":\"blue\",\"name\":\"Blue\",\"weight\":2,\"minBandwidthBps\":10000000}");
        assertEquals(201, created.status, created.body);
        assertEquals("Blue", created.json().get("name").asText());
        assertEquals(2.0, http.get("/api/v1/tenants/blue").json().get("weight").asDouble());

        HttpJson.Answer patched = http.send("PATCH", "/api/v1/tenants/blue", "{\"weight\":4}");
        assertEquals(200, patched.status, patched.body);
        assertEquals(10000000, patched.json().get("minBandwidthBps").asLong());
        assertEquals(4.0, http.get("/api/v1/tenants").json().get(0).get("weight").asDouble());

        assertEquals(201, http.send("POST", "/api/v1/tenants/blue/hosts", H1).status);
        JsonNode host = http.get("/api/v1/tenants/blue/hosts/h1").json();
        assertEquals("device:leaf1", host.get("location").get("device").asText());
        assertEquals(1, http.get("/api/v1/tenants/blue/hosts").json().size());
        assertEquals(1, http.get("/api/v1/topology").json().get("hosts").size());

        assertEquals(204, http.send("DELETE", "/api/v1/tenants/blue/hosts/h1", null).status);
        assertEquals(404, http.get("/api/v1/tenants/blue/hosts/h1").status);
        assertEquals(204, http.send("DELETE", "/api/v1/tenants/blue", null).status);
        assertEquals(404, http.get("/api/v1/tenants/blue").status);

        List<String> types = http.get("/api/v1/events?after=1").json().findValuesAsText("type");
        assertEquals(List.of("tenant.created", "tenant.updated", "host.added", "host.removed", "tenant.deleted"), types);
    }

    @Test
    void refusedRequestsChangeNothing() {
        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"blue\",\"weight\":1}").status);
        assertEquals(201, http.send("POST", "/api/v1/tenants/blue/hosts", H1).status);
        String tenantsBefore = http.get("/api/v1/tenants").body;
        String hostsBefore = http.get("/api/v1/tenants/blue/hosts").body;
        String configBefore = http.get("/api/v1/network-config").body;
        int eventsBefore = http.get("/api/v1/events").json().size();

        record Case(String method, String path, String body, String token, int status, String field) { }
        List<Case> cases = List.of(
                new Case("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":1}", null, 401, null),
                new Case("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":1}", "wrong-token-0123456789", 401, null),
                new Case("DELETE", "/api/v1/tenants/blue", null, null, 401, null),
                new Case("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":", TOKEN, 400, null),
                new Case("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":\"heavy\"}", TOKEN, 400, "weight"),
                new Case("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":-2}", TOKEN, 422, "weight"),
                new Case("POST", "/api/v1/tenants", "{\"id\":\"red\"}", TOKEN, 422, "weight"),
                new Case("POST", "/api/v1/tenants", "{\"id\":\"blue\",\"weight\":1}", TOKEN, 409, "id"),
                new Case("PATCH", "/api/v1/tenants/blue", "{\"weight\":0}", TOKEN, 422, "weight"),
                new Case("PATCH", "/api/v1/tenants/green", "{\"weight\":1}", TOKEN, 404, "tenantId"),
                new Case("POST", "/api/v1/tenants/blue/hosts", H2.replace("\"port\":2", "\"port\":5"), TOKEN, 422, "location.port"),
                new Case("POST", "/api/v1/tenants/blue/hosts", H2.replace("device:leaf1", "device:leaf9"), TOKEN, 422, "location.device"),
                new Case("POST", "/api/v1/tenants/blue/hosts", H1.replace("\"h1\"", "\"h2\""), TOKEN, 409, "mac"),
                new Case("POST", "/api/v1/tenants/green/hosts", H1, TOKEN, 404, "tenantId"),
                new Case("DELETE", "/api/v1/tenants/blue/hosts/h9", null, TOKEN, 404, "hostId"),
                new Case("PUT", "/api/v1/network-config", "{\"devices\":{}}", TOKEN, 422, "devices"),
                new Case("POST", "/api/v1/sessions", "{\"srcHost\":\"h1\",\"dstHost\":\"h7\"}", TOKEN, 422, "dstHost"),
                new Case("GET", "/api/v1/events?limit=0", null, null, 422, "limit"),
                new Case("GET", "/api/v1/events?after=x", null, null, 400, "after"),
                new Case("GET", "/api/v1/sessions/s42", null, null, 404, "sessionId"),
                new Case("PUT", "/api/v1/tenants", "{}", TOKEN, 405, null),
                new Case("GET", "/api/v2/tenants", null, null, 404, null));
        for (Case c : cases) {
            HttpJson.Answer a = http.send(c.method, c.path, c.body, c.token);
            String what = c.method + " " + c.path + " " + c.body + " -> " + a;
            assertEquals(c.status, a.status, what);
            JsonNode err = a.json();
            assertEquals(c.status, err.get("status").asInt(), what);
            assertEquals(c.field, err.get("field").isNull() ? null : err.get("field").asText(), what);
            assertTrue(!err.get("message").asText().isBlank(), what);
        }
        assertEquals(tenantsBefore, http.get("/api/v1/tenants").body);
        assertEquals(hostsBefore, http.get("/api/v1/tenants/blue/hosts").body);
        assertEquals(configBefore, http.get("/api/v1/network-config").body);
        assertEquals(eventsBefore, http.get("/api/v1/events").json().size());
    }

    @Test
    void topologyComesFromTheNetworkConfiguration() {
        JsonNode topo = http.get("/api/v1/topology").json();
        assertEquals(8, topo.get("devices").size());
        assertEquals(32, topo.get("links").size());
        assertEquals(100_000_000L, topo.get("links").get(0).get("capacityBps").asLong());
        assertEquals("grpc://127.0.0.1:50001?device_id=1", topo.get("devices").get(0).get("managementAddress").asText());
        assertEquals(0, http.get("/api/v1/routing-groups").json().size());
        assertEquals(0, http.get("/api/v1/aqs").json().size());
        assertEquals(0, http.get("/api/v1/allocations").json().size());
    }

    @Test
    void theServedOpenApiDocumentIsTheKeptOneAndDocumentsEveryRoute() throws Exception {
        String kept = Files.readString(Path.of("../../docs/api/openapi.yaml"));
        io.swagger.v3.parser.core.models.ParseOptions options = new io.swagger.v3.parser.core.models.ParseOptions();
        options.setResolve(true);
        io.swagger.v3.parser.core.models.SwaggerParseResult parsed = new io.swagger.v3.parser.OpenAPIV3Parser().readContents(kept, null, options);
        assertEquals(List.of(), parsed.getMessages(), "docs/api/openapi.yaml is not a valid OpenAPI 3 document");
        assertEquals("3.0.3", parsed.getOpenAPI().getOpenapi());
        assertEquals(kept, http.get("/api/v1/openapi.yaml").body);
        JsonNode doc = new ObjectMapper(new YAMLFactory()).readTree(kept);
        assertEquals(doc, Json.parse(http.get("/api/v1/openapi.json").body));

        Set<String> routes = new HashSet<>();
        for (Route r : controller.routes()) {
            routes.add(r.method + " " + r.template);
            JsonNode op = doc.path("paths").path(r.template).path(r.method.toLowerCase(Locale.ROOT));
            assertTrue(op.isObject(), r.method + " " + r.template + " is not in docs/api/openapi.yaml");
            boolean bearer = op.path("security").findValue("bearer") != null;
            assertEquals(r.mutating(), bearer, r.method + " " + r.template + ": the document's security must match the server's");
        }
        Set<String> documented = new HashSet<>();
        for (Iterator<String> p = doc.get("paths").fieldNames(); p.hasNext(); ) {
            String path = p.next();
            for (Iterator<String> m = doc.get("paths").get(path).fieldNames(); m.hasNext(); ) {
                String method = m.next();
                if (!method.equals("parameters")) {
                    documented.add(method.toUpperCase(Locale.ROOT) + " " + path);
                }
            }
        }
        assertEquals(routes, documented);
    }

    @Test
    void methodsAPathDoesNotHaveAre405WithAllow() throws Exception {
        HttpURLConnection c = open("PUT", "/api/v1/tenants/blue");
        assertEquals(405, c.getResponseCode());
        assertEquals("DELETE, GET, HEAD, PATCH", c.getHeaderField("Allow"));
        assertJsonError(405, c);
        HttpURLConnection events = open("POST", "/api/v1/events");
        assertEquals(405, events.getResponseCode());
        assertEquals("GET, HEAD", events.getHeaderField("Allow"));
    }

    @Test
    void headAnswersWhatGetWouldWithoutTheBody() throws Exception {
        String body = http.get("/api/v1/topology").body;
        HttpURLConnection c = open("HEAD", "/api/v1/topology");
        assertEquals(200, c.getResponseCode());
        assertEquals(body.getBytes(StandardCharsets.UTF_8).length, c.getContentLengthLong());
        assertTrue(c.getContentType().startsWith("application/json"), c.getContentType());
        assertEquals(0, c.getInputStream().readAllBytes().length);
        assertEquals(404, open("HEAD", "/api/v1/tenants/nobody").getResponseCode());
    }

    @Test
    void jsonNullIsAWrongTypeExceptWhereNullable() {
        HttpJson.Answer refused = http.send("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":1,\"minBandwidthBps\":null}");
        assertEquals(400, refused.status, refused.body);
        assertEquals("minBandwidthBps", refused.json().get("field").asText());
        assertEquals(400, http.send("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":1,\"name\":null}").status);
        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":1,\"minBandwidthBps\":5}").status);
        HttpJson.Answer cleared = http.send("PATCH", "/api/v1/tenants/red", "{\"minBandwidthBps\":null}");
        assertEquals(200, cleared.status, cleared.body);
        assertTrue(cleared.json().get("minBandwidthBps").isNull());
        assertEquals(400, http.send("PATCH", "/api/v1/tenants/red", "{\"weight\":null}").status);
    }

    /** URLs Jetty itself refuses, and requests it cannot parse, get the API's JSON error too. */
    @Test
    void requestsTheHttpServerRefusesGetTheJsonErrorShape() throws Exception {
        for (String path : List.of("/api/v1/tenants/a%2Fb", "/api/v1/tenants/%00x", "/api/v1/tenants/%C3%28", "/api/v1/tenants/%0B%C2%B7")) {
            for (String method : List.of("GET", "DELETE", "POST")) {
                HttpURLConnection c = open(method, path);
                int status = c.getResponseCode();
                assertTrue(status == 400 || status == 404, method + " " + path + " -> " + status);
                assertJsonError(status, c);
            }
        }
        URI base = URI.create(controller.baseUrl());
        for (String requestLine : List.of("GET /api/v1/tenants/\u00e9\u0001 HTTP/1.1", "GET /api/v1/tenants/x\ty HTTP/1.1", "BAD\u0000 / HTTP/1.1")) {
            try (Socket s = new Socket(base.getHost(), base.getPort())) {
                s.getOutputStream().write((requestLine + "\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(answer.startsWith("HTTP/1.1 400"), requestLine + " -> " + answer);
                assertTrue(answer.toLowerCase(Locale.ROOT).contains("content-type: application/json"), answer);
                JsonNode err = Json.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4));
                assertEquals(400, err.get("status").asInt(), answer);
                assertTrue(err.has("field") && err.get("field").isNull(), answer);
                assertTrue(!err.get("message").asText().isBlank(), answer);
            }
        }
    }

    private HttpURLConnection open(String method, String path) throws Exception {
        HttpURLConnection c = (HttpURLConnection) new URL(controller.baseUrl() + path).openConnection();
        c.setRequestMethod(method);
        c.setRequestProperty("Authorization", "Bearer " + TOKEN);
        return c;
    }

    private static void assertJsonError(int status, HttpURLConnection c) throws Exception {
        assertTrue(c.getContentType() != null && c.getContentType().startsWith("application/json"), String.valueOf(c.getContentType()));
        JsonNode err = Json.parse(new String(c.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(status, err.get("status").asInt(), err.toString());
        assertTrue(err.has("field"), err.toString());
        assertTrue(!err.get("message").asText().isBlank(), err.toString());
    }
}
