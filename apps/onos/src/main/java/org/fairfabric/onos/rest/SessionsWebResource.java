package org.fairfabric.onos.rest;

import java.io.InputStream;
import javax.ws.rs.DELETE;
import javax.ws.rs.GET;
import javax.ws.rs.HeaderParam;
import javax.ws.rs.POST;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.Response;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.SessionJson;

/** Sessions: declared over the API or detected by the monitor. */
@Path(ApiPaths.VERSION + "/sessions")
public class SessionsWebResource extends FabricResource {

    @GET
    public Response sessions() {
        return Replies.ok(fabric().sessions());
    }

    @POST
    public Response declareSession(@HeaderParam(HttpHeaders.CONTENT_TYPE) String type, InputStream body) {
        SessionDto s = fabric().declareSession(SessionJson.create(Json.parse(RequestBody.read(body, type))));
        return Replies.created(s, location("sessions", s.id));
    }

    @GET
    @Path("{sessionId}")
    public Response session(@PathParam("sessionId") String sessionId) {
        return Replies.ok(fabric().session(sessionId));
    }

    @PUT
    @Path("{sessionId}/weight")
    public Response setSessionWeight(@PathParam("sessionId") String sessionId, @HeaderParam(HttpHeaders.CONTENT_TYPE) String type,
                                     InputStream body) {
        String text = RequestBody.read(body, type);
        return Replies.ok(fabric().setSessionWeight(sessionId, SessionJson.weight(Json.parse(text))));
    }

    @DELETE
    @Path("{sessionId}")
    public Response removeSession(@PathParam("sessionId") String sessionId) {
        fabric().removeSession(sessionId);
        return Replies.noContent();
    }
}
