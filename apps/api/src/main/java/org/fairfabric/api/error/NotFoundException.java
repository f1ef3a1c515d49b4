package org.fairfabric.api.error;

/** 404: an id in the path names nothing. */
public final class NotFoundException extends ApiException {
    public NotFoundException(String field, String message) {
        super(404, field, message);
    }
}
