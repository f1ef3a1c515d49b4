package org.fairfabric.controller.rest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One operation of the API: an HTTP method, a path template such as
 * {@code /api/v1/tenants/{tenantId}}, and its handler. Mutating methods need the bearer token.
 */
public final class Route {
    /** Handles one call; throws {@code ApiException} to refuse it. */
    public interface Handler {
        Reply handle(Call call);
    }

    public final String method;
    public final String template;
    private final List<String> segments;
    private final Handler handler;

    public Route(String method, String template, Handler handler) {
        this.method = Objects.requireNonNull(method);
        this.template = Objects.requireNonNull(template);
        this.segments = split(template);
        this.handler = Objects.requireNonNull(handler);
    }

    public boolean mutating() {
        return !method.equals("GET");
    }

    Reply handle(Call call) {
        return handler.handle(call);
    }

    /** The path parameters when {@code path} fits this template, else null. */
    Map<String, String> match(String path) {
        List<String> parts = split(path);
        if (parts.size() != segments.size()) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            String s = segments.get(i);
            if (s.startsWith("{") && s.endsWith("}")) {
                if (parts.get(i).isEmpty()) {
                    return null;
                }
                params.put(s.substring(1, s.length() - 1), parts.get(i));
            } else if (!s.equals(parts.get(i))) {
                return null;
            }
        }
        return params;
    }

    private static List<String> split(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/", -1)) {
            out.add(s);
        }
        return out;
    }
}
