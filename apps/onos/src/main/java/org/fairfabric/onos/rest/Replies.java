package org.fairfabric.onos.rest;

import java.net.URI;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import org.fairfabric.api.dto.ErrorDto;
import org.fairfabric.api.json.Json;

/** Responses in the embedded API's shape: JSON written by the shared mapper, errors as {@link ErrorDto}. */
final class Replies {
    private Replies() {
    }

    static Response ok(Object value) {
        return Response.ok(Json.write(value), MediaType.APPLICATION_JSON_TYPE).build();
    }

    static Response created(Object value, URI location) {
        return Response.created(location).entity(Json.write(value)).type(MediaType.APPLICATION_JSON_TYPE).build();
    }

    static Response noContent() {
        return Response.noContent().build();
    }

    static Response error(int status, String field, String message) {
        return Response.status(status).entity(Json.write(new ErrorDto(status, field, message)))
                .type(MediaType.APPLICATION_JSON_TYPE).build();
    }
}
