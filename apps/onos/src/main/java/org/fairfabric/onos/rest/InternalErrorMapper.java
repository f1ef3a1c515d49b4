package org.fairfabric.onos.rest;

import javax.ws.rs.core.Response;
import javax.ws.rs.ext.ExceptionMapper;
import javax.ws.rs.ext.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Any other failure: 500 with an Error body, logged, as the embedded API answers it. */
@Provider
public final class InternalErrorMapper implements ExceptionMapper<RuntimeException> {
    private static final Logger log = LoggerFactory.getLogger(InternalErrorMapper.class);

    @Override
    public Response toResponse(RuntimeException e) {
        log.error("fairfabric REST request failed", e);
        return Replies.error(500, null, "internal error: " + e);
    }
}
