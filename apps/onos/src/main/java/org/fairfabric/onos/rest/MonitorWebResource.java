package org.fairfabric.onos.rest;

import java.util.List;
import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.core.Response;

/**
 * {@code GET /v1/monitor/{sessions|links|tenants}}: the central monitor's view. The embedded
 * controller reads it from Kafka (ff.mon.*); the ONOS app does not read Kafka yet, so it answers
 * what the document says for "no monitor runs": empty lists (docs/onos.md).
 */
@Path(ApiPaths.VERSION + "/monitor")
public class MonitorWebResource extends FabricResource {

    @GET
    @Path("sessions")
    public Response sessions() {
        return Replies.ok(List.of());
    }

    @GET
    @Path("links")
    public Response links() {
        return Replies.ok(List.of());
    }

    @GET
    @Path("tenants")
    public Response tenants() {
        return Replies.ok(List.of());
    }
}
