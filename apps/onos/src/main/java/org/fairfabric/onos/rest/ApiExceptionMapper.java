package org.fairfabric.onos.rest;

import javax.ws.rs.core.Response;
import javax.ws.rs.ext.ExceptionMapper;
import javax.ws.rs.ext.Provider;
import org.fairfabric.api.error.ApiException;

/** A refused request: its status and an Error body naming the field, as in embedded mode. */
@Provider
public final class ApiExceptionMapper implements ExceptionMapper<ApiException> {
    @Override
    public Response toResponse(ApiException e) {
        return Replies.error(e.status(), e.field(), e.getMessage());
    }
}
