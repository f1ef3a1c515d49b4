package org.fairfabric.onos.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import org.fairfabric.api.json.Json;

/** The OpenAPI document (docs/api/openapi.yaml, packaged into the bundle) and liveness. */
@Path(ApiPaths.VERSION)
public class ApiDocWebResource extends FabricResource {
    /** Where the bundle carries docs/api/openapi.yaml. */
    public static final String OPENAPI = "/openapi/openapi.yaml";

    @GET
    @Path("openapi.yaml")
    public Response yaml() {
        return Response.ok(openApiYaml(), "application/yaml").build();
    }

    @GET
    @Path("openapi.json")
    public Response json() {
        try {
            Object tree = new ObjectMapper(new YAMLFactory()).readTree(openApiYaml());
            return Response.ok(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(tree),
                    MediaType.APPLICATION_JSON_TYPE).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot convert " + OPENAPI + " to JSON", e);
        }
    }

    @GET
    @Path("health")
    public Response health() {
        return Replies.ok(Map.of("status", "up"));
    }

    static String openApiYaml() {
        try (InputStream in = ApiDocWebResource.class.getResourceAsStream(OPENAPI)) {
            if (in == null) {
                throw new IllegalStateException(OPENAPI + " is missing from the bundle (built from docs/api/openapi.yaml)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + OPENAPI, e);
        }
    }
}
