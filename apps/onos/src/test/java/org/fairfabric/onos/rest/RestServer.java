package org.fairfabric.onos.rest;

import com.fasterxml.jackson.databind.JsonNode;
import javax.ws.rs.client.Entity;
import javax.ws.rs.client.Invocation;
import javax.ws.rs.core.Response;
import org.fairfabric.api.json.Json;
import org.fairfabric.onos.fabric.FairfabricService;
import org.glassfish.jersey.client.HttpUrlConnectorProvider;
import org.glassfish.jersey.server.ResourceConfig;
import org.onlab.osgi.ServiceDirectory;
import org.onosproject.rest.resources.ResourceTest;

/**
 * The fairfabric resources in onos-rest's Jersey test container (Jetty on an ephemeral port), with
 * {@link FairfabricService} in the service directory the resources look services up in.
 */
final class RestServer extends ResourceTest {
    /** An answer: status, body text, Location header. */
    static final class Answer {
        final int status;
        final String body;
        final String location;

        Answer(Response r) {
            status = r.getStatus();
            body = r.hasEntity() ? r.readEntity(String.class) : "";
            location = r.getHeaderString("Location");
        }

        JsonNode json() {
            return Json.parse(body);
        }
    }

    RestServer(FairfabricService service) {
        super(new ResourceConfig(new FabricWebApplication().getClasses()));
        setServiceDirectory(new ServiceDirectory() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T get(Class<T> serviceClass) {
                if (serviceClass == FairfabricService.class) {
                    return (T) service;
                }
                throw new IllegalArgumentException("no test service " + serviceClass.getName());
            }
        });
    }

    void start() throws Exception {
        setUp();
    }

    void stop() throws Exception {
        tearDown();
    }

    /** GET {@code /onos/fairfabric} + path (path starts with /v1). */
    Answer get(String path) {
        return new Answer(request(path).get());
    }

    /** The first {@code lines} lines of a streamed answer (the connection is closed after them). */
    java.util.List<String> firstLines(String path, String lastEventId, int lines) throws java.io.IOException {
        Invocation.Builder b = request(path);
        if (lastEventId != null) {
            b = b.header("Last-Event-ID", lastEventId);
        }
        Response r = b.get();
        java.util.List<String> out = new java.util.ArrayList<>();
        try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
                r.readEntity(java.io.InputStream.class), java.nio.charset.StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null && out.size() < lines; line = in.readLine()) {
                out.add(line);
            }
        } finally {
            r.close();
        }
        return out;
    }

    Answer send(String method, String path, String json) {
        return send(method, path, json, "application/json");
    }

    Answer send(String method, String path, String body, String type) {
        Invocation.Builder b = request(path);
        Response r = body == null ? b.method(method) : b.method(method, Entity.entity(body, type));
        return new Answer(r);
    }

    private Invocation.Builder request(String path) {
        String[] parts = path.split("\\?", 2);
        javax.ws.rs.client.WebTarget t = target(parts[0]).property(HttpUrlConnectorProvider.SET_METHOD_WORKAROUND, true);
        if (parts.length == 2) {
            for (String kv : parts[1].split("&")) {
                String[] p = kv.split("=", 2);
                t = t.queryParam(p[0], p[1]);
            }
        }
        return t.request();
    }
}
