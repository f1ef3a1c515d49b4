package org.fairfabric.api.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Set;
import org.fairfabric.api.error.BadRequestException;
import org.fairfabric.api.error.ValidationException;

/**
 * Strict reading of one JSON object: unknown fields and wrong JSON types are 400, missing required
 * fields 422, each naming the field by its path from the request root (for example
 * {@code location.port}).
 */
public final class JsonFields {
    private final JsonNode node;
    private final String prefix;

    private JsonFields(JsonNode node, String prefix) {
        this.node = node;
        this.prefix = prefix;
    }

    /** The request root, which must be an object holding only {@code allowed} fields. */
    public static JsonFields root(JsonNode node, Set<String> allowed) {
        return of(node, "", null, allowed);
    }

    private static JsonFields of(JsonNode node, String prefix, String ownName, Set<String> allowed) {
        if (node == null || !node.isObject()) {
            throw new BadRequestException(ownName, "expected a JSON object, got " + kind(node));
        }
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new BadRequestException(prefix + name, "unknown field (allowed: " + String.join(", ", sorted(allowed)) + ")");
            }
        }
        return new JsonFields(node, prefix);
    }

    /** True when the field is present with a value other than JSON null. */
    public boolean has(String name) {
        return node.has(name) && !node.get(name).isNull();
    }

    /** True when the field is present as JSON null (only nullable fields may be: see {@link #value}). */
    public boolean isNull(String name) {
        return node.has(name) && node.get(name).isNull();
    }

    public String path(String name) {
        return prefix + name;
    }

    public boolean isEmpty() {
        return node.size() == 0;
    }

    public String requiredString(String name) {
        String s = optionalString(name);
        if (s == null) {
            throw missing(name);
        }
        return s;
    }

    public String optionalString(String name) {
        JsonNode v = value(name, "a string");
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw wrongType(name, "a string", v);
        }
        return v.textValue();
    }

    public double requiredNumber(String name) {
        Double d = optionalNumber(name);
        if (d == null) {
            throw missing(name);
        }
        return d;
    }

    public Double optionalNumber(String name) {
        JsonNode v = value(name, "a number");
        if (v == null) {
            return null;
        }
        if (!v.isNumber()) {
            throw wrongType(name, "a number", v);
        }
        return v.doubleValue();
    }

    public long requiredInteger(String name) {
        Long l = optionalInteger(name);
        if (l == null) {
            throw missing(name);
        }
        return l;
    }

    public Long optionalInteger(String name) {
        JsonNode v = value(name, "an integer");
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw wrongType(name, "an integer", v);
        }
        return v.longValue();
    }

    public boolean requiredBoolean(String name) {
        JsonNode v = value(name, "true or false");
        if (v == null) {
            throw missing(name);
        }
        if (!v.isBoolean()) {
            throw wrongType(name, "true or false", v);
        }
        return v.booleanValue();
    }

    public JsonFields requiredObject(String name, Set<String> allowed) {
        JsonNode v = value(name, "an object");
        if (v == null) {
            throw missing(name);
        }
        if (!v.isObject()) {
            throw wrongType(name, "an object", v);
        }
        return of(v, prefix + name + ".", prefix + name, allowed);
    }

    /**
     * The field's value, null when absent. An explicit JSON null is a wrong type (400): the API's
     * schema makes no request field nullable except those a caller checks with {@link #isNull} first.
     */
    private JsonNode value(String name, String expected) {
        JsonNode v = node.get(name);
        if (v != null && v.isNull()) {
            throw wrongType(name, expected, v);
        }
        return v;
    }

    private ValidationException missing(String name) {
        return new ValidationException(prefix + name, "is required");
    }

    private BadRequestException wrongType(String name, String expected, JsonNode got) {
        return new BadRequestException(prefix + name, "must be " + expected + ", got " + kind(got));
    }

    private static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        if (n.isNull()) {
            return "null";
        }
        return n.getNodeType().toString().toLowerCase() + " " + abbreviate(n.toString());
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    private static java.util.List<String> sorted(Set<String> s) {
        java.util.List<String> l = new java.util.ArrayList<>(s);
        java.util.Collections.sort(l);
        return l;
    }
}
