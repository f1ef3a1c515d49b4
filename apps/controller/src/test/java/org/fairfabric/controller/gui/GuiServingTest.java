package org.fairfabric.controller.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.fairfabric.api.json.Json;
import org.fairfabric.controller.Controller;
import org.fairfabric.controller.ControllerSettings;
import org.fairfabric.controller.rest.BearerAuth;
import org.fairfabric.controller.rest.HttpApi;
import org.fairfabric.controller.rest.HttpJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller's GUI side: the event stream, the static files and the emulation endpoint's refusals. */
class GuiServingTest {
    static final String TOKEN = "test-token-0123456789";
    static final Path LEAF_SPINE = Path.of("../../docs/examples/netcfg-leafspine-4x4.json");

    @TempDir
    Path dir;
    Controller controller;
    HttpJson http;
    final HttpClient client = HttpClient.newHttpClient();
    final List<InputStream> open = new ArrayList<>();

    @BeforeEach
    void start() {
        controller = Controller.start(ControllerSettings.of(dir.resolve("data"), LEAF_SPINE, "127.0.0.1", 0, null, TOKEN));
        http = new HttpJson(controller.baseUrl(), TOKEN);
    }

    @AfterEach
    void stop() throws Exception {
        for (InputStream in : open) {
            in.close();
        }
        controller.close();
    }

    /** One server-sent event: its name, id and data. */
    record Sse(String event, String id, String data) {
    }

    /** Opens the stream; its events arrive on the queue (read by a daemon thread). */
    BlockingQueue<Sse> stream(String lastEventId) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(controller.baseUrl() + "/api/v1/stream"));
        if (lastEventId != null) {
            req.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> resp = client.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, resp.statusCode());
        assertTrue(resp.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
        open.add(resp.body());
        BlockingQueue<Sse> q = new LinkedBlockingQueue<>();
        Thread t = new Thread(() -> {
            try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(resp.body(), java.nio.charset.StandardCharsets.UTF_8))) {
                String event = null;
                String id = null;
                StringBuilder data = new StringBuilder();
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.isEmpty()) {
                        if (event != null) {
                            q.add(new Sse(event, id, data.toString()));
                        }
                        event = null;
                        id = null;
                        data.setLength(0);
                    } else if (line.startsWith("event: ")) {
                        event = line.substring(7);
                    } else if (line.startsWith("id: ")) {
                        id = line.substring(4);
                    } else if (line.startsWith("data: ")) {
                        data.append(line.substring(6));
                    }
                }
            } catch (Exception closed) {
                // the test closed the stream
            }
        });
        t.setDaemon(true);
        t.start();
        return q;
    }

    static Sse next(BlockingQueue<Sse> q, String event, String containing) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            Sse s = q.poll(100, TimeUnit.MILLISECONDS);
            if (s != null && s.event.equals(event) && s.data.contains(containing)) {
                return s;
            }
        }
        throw new AssertionError("no '" + event + "' event containing " + containing + " within 5 s");
    }

    @Test
    void streamGreetsWithASnapshotThenSendsEventsAndChanges() throws Exception {
        BlockingQueue<Sse> q = stream(null);
        Sse hello = next(q, "hello", "run");
        String run = Json.parse(hello.data).get("run").asText();
        Sse first = next(q, "snapshot", "topology");
        assertEquals(8, Json.parse(first.data).get("topology").get("devices").size());
        assertEquals(0, Json.parse(first.data).get("tenants").size());

        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"blue\",\"name\":\"Blue\",\"weight\":2}").status);
        Sse created = next(q, "event", "tenant.created");
        assertTrue(created.id.startsWith(run + "/"), created.id);
        assertEquals("blue", Json.parse(created.data).get("subject").asText());
        Sse after = next(q, "snapshot", "\"blue\"");
        assertEquals("blue", Json.parse(after.data).get("tenants").get(0).get("id").asText());
        // the beat: an unchanged snapshot again within a second or so
        assertNotNull(next(q, "snapshot", "\"blue\""));
    }

    @Test
    void theStreamAnswersHeadAndRefusesOtherMethods() throws Exception {
        HttpResponse<String> head = client.send(HttpRequest.newBuilder(URI.create(controller.baseUrl() + "/api/v1/stream"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, head.statusCode());
        assertTrue(head.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
        HttpJson.Answer post = http.send("POST", "/api/v1/stream", "{}");
        assertEquals(405, post.status);
        assertEquals(405, post.json().get("status").asInt());
    }

    @Test
    void aReconnectingClientGetsOnlyWhatItMissed() throws Exception {
        BlockingQueue<Sse> q = stream(null);
        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"blue\",\"name\":\"Blue\",\"weight\":2}").status);
        Sse blue = next(q, "event", "tenant.created");
        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"red\",\"name\":\"Red\",\"weight\":1}").status);

        BlockingQueue<Sse> resumed = stream(blue.id);
        Sse firstEvent = next(resumed, "event", "tenant.created");
        assertEquals("red", Json.parse(firstEvent.data).get("subject").asText(), "blue was seen already");

        // an id of another run (a restarted controller) gets the backlog from the start
        BlockingQueue<Sse> fresh = stream("otherrun/5");
        assertEquals("blue", Json.parse(next(fresh, "event", "tenant.created").data).get("subject").asText());
    }

    @Test
    void emulationRefusesBadRequestsAndLinksOfSwitchesThatAreNotEmulated() {
        String path = "/api/v1/emulation/link-state";
        assertEquals(401, http.send("POST", path, "{\"device\":\"device:leaf1\",\"port\":5,\"up\":false}", "wrong-token-0123456789").status);
        HttpJson.Answer unknownField = http.send("POST", path, "{\"device\":\"device:leaf1\",\"port\":5,\"up\":false,\"x\":1}");
        assertEquals(400, unknownField.status);
        assertEquals("x", unknownField.json().get("field").asText());
        HttpJson.Answer noUp = http.send("POST", path, "{\"device\":\"device:leaf1\",\"port\":5}");
        assertEquals(422, noUp.status);
        assertEquals("up", noUp.json().get("field").asText());
        assertEquals(400, http.send("POST", path, "{\"device\":\"device:leaf1\",\"port\":\"5\",\"up\":false}").status);
        HttpJson.Answer port0 = http.send("POST", path, "{\"device\":\"device:leaf1\",\"port\":0,\"up\":false}");
        assertEquals(422, port0.status, port0.body);
        assertEquals(422, http.send("POST", path, "{\"device\":\"device:leaf1\",\"port\":9999999999999,\"up\":false}").status);
        HttpJson.Answer noLink = http.send("POST", path, "{\"device\":\"device:leaf1\",\"port\":99,\"up\":false}");
        assertEquals(404, noLink.status, noLink.body);
        long events = http.get("/api/v1/events?limit=1000").json().size();
        HttpJson.Answer notEmulated = http.send("POST", path, "{\"device\":\"device:leaf1\",\"port\":5,\"up\":false}");
        assertEquals(409, notEmulated.status, notEmulated.body);
        assertTrue(notEmulated.json().get("message").asText().contains("not an emulated switch"), notEmulated.body);
        assertEquals(events, http.get("/api/v1/events?limit=1000").json().size(), "a refused request emits nothing");
    }

    @Test
    void staticFilesServeTheBuiltGuiAndNothingOutsideIt() throws Exception {
        Path gui = Files.createDirectories(dir.resolve("gui"));
        Files.writeString(gui.resolve("index.html"), "<!doctype html><title>ff</title>");
        Files.writeString(gui.resolve("app.js"), "console.log(1)");
        Files.writeString(dir.resolve("secret.txt"), "SECRET");
        Server server = new Server();
        ServerConnector c = new ServerConnector(server);
        c.setHost("127.0.0.1");
        server.addConnector(c);
        EventStream stream = new EventStream(controller.fabric(), controller.network());
        server.setHandler(new FrontDoor(new HttpApi(List.of(), new BearerAuth(TOKEN)), stream, new StaticFiles(gui)));
        server.start();
        try {
            String base = "http://127.0.0.1:" + c.getLocalPort();
            HttpResponse<String> index = get(base + "/");
            assertEquals(200, index.statusCode());
            assertTrue(index.headers().firstValue("content-type").get().startsWith("text/html"));
            assertEquals("<!doctype html><title>ff</title>", index.body());
            HttpResponse<String> js = get(base + "/app.js");
            assertTrue(js.headers().firstValue("content-type").get().startsWith("text/javascript"));
            for (String outside : List.of("/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt")) {
                HttpResponse<String> r = get(base + outside);
                assertTrue(r.statusCode() == 404 || r.statusCode() == 400, outside + " answered " + r.statusCode()); // 400: Jetty's own refusal
                assertTrue(!r.body().contains("SECRET"), outside);
            }
            assertEquals(404, get(base + "/nothing.js").statusCode());
            assertEquals(404, get(base + "/api/v1/tenants").statusCode(), "the API keeps /api/ (no routes here)");
        } finally {
            server.stop();
        }
        HttpResponse<String> unbuilt = get(controller.baseUrl() + "/");
        assertTrue(unbuilt.statusCode() == 200 || unbuilt.statusCode() == 503, "the controller's own / answers the GUI or how to build it");
    }

    HttpResponse<String> get(String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
