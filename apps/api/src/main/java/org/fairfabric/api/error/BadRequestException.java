package org.fairfabric.api.error;

/** 400: the request body is not well-formed JSON or a field has the wrong JSON type. */
public final class BadRequestException extends ApiException {
    public BadRequestException(String field, String message) {
        super(400, field, message);
    }
}
