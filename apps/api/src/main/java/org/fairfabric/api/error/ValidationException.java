package org.fairfabric.api.error;

/** 422: a field is well-formed but its value is not acceptable. */
public final class ValidationException extends ApiException {
    public ValidationException(String field, String message) {
        super(422, field, message);
    }
}
