package org.fairfabric.api.dto;

/** The body of every 4xx/5xx answer: the HTTP status, the field at fault (or null) and a message. */
public final class ErrorDto {
    public final int status;
    public final String field;
    public final String message;

    public ErrorDto(int status, String field, String message) {
        this.status = status;
        this.field = field;
        this.message = message;
    }
}
