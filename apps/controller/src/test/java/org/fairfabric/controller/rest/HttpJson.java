package org.fairfabric.controller.rest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.fairfabric.api.json.Json;

/** A small HTTP client for tests: one call, the status and the body. */
public final class HttpJson {
    public static final class Answer {
        public final int status;
        public final String body;

        Answer(int status, String body) {
            this.status = status;
            this.body = body;
        }

        public JsonNode json() {
            return Json.parse(body);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private final HttpClient client = HttpClient.newHttpClient();
    private final String base;
    private final String token;

    public HttpJson(String base, String token) {
        this.base = base;
        this.token = token;
    }

    public Answer get(String path) {
        return send("GET", path, null, token);
    }

    public Answer send(String method, String path, String body) {
        return send(method, path, body, token);
    }

    public Answer send(String method, String path, String body, String withToken) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (withToken != null) {
            b.header("Authorization", "Bearer " + withToken);
        }
        try {
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
