package org.fairfabric.onos.rest;

import javax.ws.rs.NotAllowedException;
import javax.ws.rs.NotFoundException;
import javax.ws.rs.WebApplicationException;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.UriInfo;
import javax.ws.rs.ext.ExceptionMapper;
import javax.ws.rs.ext.Provider;

/** Jersey's own refusals (unknown path, method not allowed, ...) as Error bodies too. */
@Provider
public final class WebErrorMapper implements ExceptionMapper<WebApplicationException> {
    @Context
    private UriInfo uri;

    @Override
    public Response toResponse(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String path = uri == null ? "" : "/" + uri.getPath();
        if (e instanceof NotFoundException) {
            return Replies.error(404, null, "no such resource: " + path + " (the API is under "
                    + ApiPaths.WEB_CONTEXT + "/" + ApiPaths.VERSION + ")");
        }
        if (e instanceof NotAllowedException) {
            // the Allow header Jersey computed (RFC 9110 requires it on a 405)
            return Response.fromResponse(Replies.error(405, null, "this method is not allowed on " + path))
                    .allow(e.getResponse().getAllowedMethods()).build();
        }
        return Replies.error(status, null, e.getMessage());
    }
}
