package org.fairfabric.api.error;

/** 409: the request clashes with existing state (duplicate id, name, address). */
public final class ConflictException extends ApiException {
    public ConflictException(String field, String message) {
        super(409, field, message);
    }
}
