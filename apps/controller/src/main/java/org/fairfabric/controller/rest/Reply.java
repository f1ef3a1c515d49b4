package org.fairfabric.controller.rest;

import org.fairfabric.api.json.Json;

/** What a route answers: a status, a content type and the body text (empty for 204). */
public final class Reply {
    public static final String JSON = "application/json";

    public final int status;
    public final String contentType;
    public final String body;
    public final String location;
    /** The methods a 405 names in its Allow header. */
    public final String allow;
    /** Ask the client to close the connection after this answer (a body was left unread). */
    public final boolean closeConnection;

    private Reply(int status, String contentType, String body, String location) {
        this(status, contentType, body, location, null, false);
    }

    private Reply(int status, String contentType, String body, String location, String allow, boolean closeConnection) {
        this.status = status;
        this.contentType = contentType;
        this.body = body;
        this.location = location;
        this.allow = allow;
        this.closeConnection = closeConnection;
    }

    public Reply allowing(String methods) {
        return new Reply(status, contentType, body, location, methods, closeConnection);
    }

    public Reply closingConnection() {
        return new Reply(status, contentType, body, location, allow, true);
    }

    public static Reply ok(Object value) {
        return new Reply(200, JSON, Json.write(value), null);
    }

    public static Reply created(Object value, String location) {
        return new Reply(201, JSON, Json.write(value), location);
    }

    public static Reply noContent() {
        return new Reply(204, null, "", null);
    }

    public static Reply text(String contentType, String body) {
        return new Reply(200, contentType, body, null);
    }

    public static Reply status(int status, Object value) {
        return new Reply(status, JSON, Json.write(value), null);
    }
}
