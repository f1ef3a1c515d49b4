package org.fairfabric.controller.rest;

import java.util.Map;
import org.fairfabric.api.error.BadRequestException;
import org.fairfabric.api.error.ValidationException;

/** One request as a route handler sees it: path parameters, query parameters and the body text. */
public final class Call {
    private final Map<String, String> pathParams;
    private final Map<String, String> query;
    private final String body;

    public Call(Map<String, String> pathParams, Map<String, String> query, String body) {
        this.pathParams = pathParams;
        this.query = query;
        this.body = body;
    }

    public String path(String name) {
        String v = pathParams.get(name);
        if (v == null) {
            throw new IllegalStateException("route has no path parameter {" + name + "}");
        }
        return v;
    }

    public String body() {
        return body;
    }

    /** An optional integer query parameter between {@code min} and {@code max}. */
    public long queryLong(String name, long fallback, long min, long max) {
        String v = query.get(name);
        if (v == null) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new BadRequestException(name, "must be an integer, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new ValidationException(name, "must be " + min + "-" + max + ", got " + n);
        }
        return n;
    }
}
