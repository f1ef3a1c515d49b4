package org.fairfabric.onos.rest;

import java.io.InputStream;
import javax.ws.rs.GET;
import javax.ws.rs.HeaderParam;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import org.fairfabric.api.error.BadRequestException;
import org.fairfabric.api.error.NotFoundException;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.service.EventLog;

/** The live view: allocations, topology, routing groups, AQs, events, and the network configuration. */
@Path(ApiPaths.VERSION)
public class NetworkWebResource extends FabricResource {

    @GET
    @Path("allocations")
    public Response allocations() {
        return Replies.ok(network().allocations());
    }

    @GET
    @Path("topology")
    public Response topology() {
        return Replies.ok(network().topology(fabric().allHosts()));
    }

    @GET
    @Path("routing-groups")
    public Response routingGroups() {
        return Replies.ok(network().routingGroups());
    }

    @GET
    @Path("aqs")
    public Response aqs() {
        return Replies.ok(network().aqs());
    }

    @GET
    @Path("events")
    public Response events(@QueryParam("after") String after, @QueryParam("limit") String limit) {
        return Replies.ok(fabric().events().since(queryLong("after", after, 0, 0, Long.MAX_VALUE),
                (int) queryLong("limit", limit, 100, 1, EventLog.MAX_PAGE)));
    }

    @GET
    @Path("network-config")
    public Response networkConfig() {
        String json = fabric().networkConfig()
                .orElseThrow(() -> new NotFoundException(null, "no network configuration is loaded"));
        return Response.ok(json, MediaType.APPLICATION_JSON_TYPE).build();
    }

    @PUT
    @Path("network-config")
    public Response putNetworkConfig(@HeaderParam(HttpHeaders.CONTENT_TYPE) String type, InputStream body) {
        fabric().putNetworkConfig(RequestBody.read(body, type));
        return Replies.noContent();
    }

    /** A query parameter as the embedded API reads it: absent = fallback, not a number = 400, out of range = 422. */
    static long queryLong(String name, String value, long fallback, long min, long max) {
        if (value == null) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new BadRequestException(name, "must be an integer, got '" + value + "'");
        }
        if (n < min || n > max) {
            throw new ValidationException(name, "must be " + min + "-" + max + ", got " + n);
        }
        return n;
    }
}
