package org.fairfabric.onos.rest;

import java.io.InputStream;
import javax.ws.rs.DELETE;
import javax.ws.rs.GET;
import javax.ws.rs.HeaderParam;
import javax.ws.rs.PATCH;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.Response;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.HostJson;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.TenantJson;

/** Tenants and their hosts (VMs). */
@Path(ApiPaths.VERSION + "/tenants")
public class TenantsWebResource extends FabricResource {

    @GET
    public Response tenants() {
        return Replies.ok(fabric().tenants());
    }

    @POST
    public Response createTenant(@HeaderParam(HttpHeaders.CONTENT_TYPE) String type, InputStream body) {
        TenantDto t = fabric().createTenant(TenantJson.create(Json.parse(RequestBody.read(body, type))));
        return Replies.created(t, location("tenants", t.id));
    }

    @GET
    @Path("{tenantId}")
    public Response tenant(@PathParam("tenantId") String tenantId) {
        return Replies.ok(fabric().tenant(tenantId));
    }

    @PATCH
    @Path("{tenantId}")
    public Response updateTenant(@PathParam("tenantId") String tenantId, @HeaderParam(HttpHeaders.CONTENT_TYPE) String type,
                                 InputStream body) {
        String text = RequestBody.read(body, type);
        return Replies.ok(fabric().updateTenant(tenantId, current -> TenantJson.update(Json.parse(text), current)));
    }

    @DELETE
    @Path("{tenantId}")
    public Response deleteTenant(@PathParam("tenantId") String tenantId) {
        fabric().deleteTenant(tenantId);
        return Replies.noContent();
    }

    @GET
    @Path("{tenantId}/hosts")
    public Response hosts(@PathParam("tenantId") String tenantId) {
        return Replies.ok(fabric().hosts(tenantId));
    }

    @POST
    @Path("{tenantId}/hosts")
    public Response addHost(@PathParam("tenantId") String tenantId, @HeaderParam(HttpHeaders.CONTENT_TYPE) String type,
                            InputStream body) {
        String text = RequestBody.read(body, type);
        fabric().tenant(tenantId); // 404 before body validation, as in embedded mode
        HostDto h = fabric().addHost(HostJson.create(Json.parse(text), tenantId));
        return Replies.created(h, location("tenants", tenantId, "hosts", h.id));
    }

    @GET
    @Path("{tenantId}/hosts/{hostId}")
    public Response host(@PathParam("tenantId") String tenantId, @PathParam("hostId") String hostId) {
        return Replies.ok(fabric().host(tenantId, hostId));
    }

    @DELETE
    @Path("{tenantId}/hosts/{hostId}")
    public Response removeHost(@PathParam("tenantId") String tenantId, @PathParam("hostId") String hostId) {
        fabric().removeHost(tenantId, hostId);
        return Replies.noContent();
    }
}
