package org.fairfabric.onos.rest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import javax.ws.rs.HeaderParam;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.Response;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.error.BadRequestException;
import org.fairfabric.api.error.ConflictException;
import org.fairfabric.api.error.NotFoundException;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.json.Json;

/**
 * {@code POST /v1/emulation/link-state}: in embedded mode it fails links of the emulated fabric
 * through p4switch's admin interface. Under ONOS the switches are real (BMv2 or hardware) and
 * fairfabric has no admin interface to them: the request is checked as in embedded mode, an
 * unknown link is a 404, and every existing link is answered 409 "not an emulated switch".
 */
@Path(ApiPaths.VERSION + "/emulation")
public class EmulationWebResource extends FabricResource {
    static final Set<String> FIELDS = Set.of("device", "port", "up");

    @POST
    @Path("link-state")
    public Response setLinkState(@HeaderParam(HttpHeaders.CONTENT_TYPE) String type, InputStream body) {
        JsonNode n = Json.parse(RequestBody.read(body, type));
        if (!n.isObject()) {
            throw new BadRequestException(null, "the body must be a JSON object {\"device\", \"port\", \"up\"}");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new BadRequestException(f, "unknown field (expected device, port, up)");
            }
        }
        require(n, "device");
        if (!n.get("device").isTextual()) {
            throw new BadRequestException("device", "must be a string");
        }
        require(n, "port");
        if (!n.get("port").isInt()) {
            throw new BadRequestException("port", "must be an integer");
        }
        require(n, "up");
        if (!n.get("up").isBoolean()) {
            throw new BadRequestException("up", "must be true or false");
        }
        String device = n.get("device").asText();
        int port = n.get("port").intValue();
        for (LinkDto l : network().topology(List.of()).links) {
            if (l.src.device.equals(device) && l.src.port == port) {
                throw new ConflictException("device", device + " is not an emulated switch (under ONOS fairfabric has no"
                        + " admin interface to the switches): links can be failed this way only in the emulated fabric");
            }
        }
        throw new NotFoundException("port", "no fabric link leaves " + device + " port " + port);
    }

    private static void require(JsonNode n, String field) {
        if (!n.has(field) || n.get(field).isNull()) {
            throw new ValidationException(field, "is required");
        }
    }
}
