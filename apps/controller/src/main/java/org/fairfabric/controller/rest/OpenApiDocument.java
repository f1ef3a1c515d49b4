package org.fairfabric.controller.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.fairfabric.api.json.Json;

/** The OpenAPI 3 document, kept in docs/api/openapi.yaml and packaged into the jar under openapi/. */
public final class OpenApiDocument {
    public static final String RESOURCE = "/openapi/openapi.yaml";

    public final String yaml;
    public final String json;

    private OpenApiDocument(String yaml, String json) {
        this.yaml = yaml;
        this.json = json;
    }

    public static OpenApiDocument load() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path (built from docs/api/openapi.yaml)");
            }
            String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            JsonNode tree = new ObjectMapper(new YAMLFactory()).readTree(yaml);
            return new OpenApiDocument(yaml, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(tree));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
