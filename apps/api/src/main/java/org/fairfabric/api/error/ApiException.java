package org.fairfabric.api.error;

/**
 * A request the service refuses. Carries the HTTP status both REST front ends (jakarta and javax)
 * map it to, and the request field at fault when there is one. Nothing is changed when it is thrown.
 */
public abstract class ApiException extends RuntimeException {
    private final int status;
    private final String field;

    protected ApiException(int status, String field, String message) {
        super(field == null ? message : field + ": " + message);
        this.status = status;
        this.field = field;
    }

    public int status() {
        return status;
    }

    /** The offending field as a JSON path (for example {@code location.port}), or null. */
    public String field() {
        return field;
    }
}
