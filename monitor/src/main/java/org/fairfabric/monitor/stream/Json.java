package org.fairfabric.monitor.stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** One shared Jackson mapper and the field checks every reader uses. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Parses an object or throws {@link BadRecord}. */
    public static JsonNode parseObject(String text) {
        if (text == null) {
            throw new BadRecord("null value");
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || !node.isObject()) {
                throw new BadRecord("not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new BadRecord("not JSON: " + e.getOriginalMessage());
        }
    }

    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new BadRecord(field + ": a non-empty string is required");
        }
        return v.asText();
    }

    public static long nonNegativeLong(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.canConvertToLong() || !v.isIntegralNumber() || v.asLong() < 0) {
            throw new BadRecord(field + ": a non-negative integer is required");
        }
        return v.asLong();
    }

    public static long positiveLong(JsonNode o, String field) {
        long v = nonNegativeLong(o, field);
        if (v == 0) {
            throw new BadRecord(field + ": must be > 0");
        }
        return v;
    }

    public static double nonNegativeNumber(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isNumber() || !(v.asDouble() >= 0) || Double.isInfinite(v.asDouble())) {
            throw new BadRecord(field + ": a non-negative number is required");
        }
        return v.asDouble();
    }

    public static JsonNode array(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isArray()) {
            throw new BadRecord(field + ": an array is required");
        }
        return v;
    }

    public static void schema(JsonNode o, int expected) {
        JsonNode v = o.get("schema");
        if (v == null || !v.isInt() || v.asInt() != expected) {
            throw new BadRecord("schema: must be " + expected);
        }
    }

    /** A dotted-quad IPv4 address. */
    public static String ipv4(JsonNode o, String field) {
        String s = text(o, field);
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            throw new BadRecord(field + ": '" + s + "' is not an IPv4 address");
        }
        for (String p : parts) {
            if (!p.matches("[0-9]{1,3}") || Integer.parseInt(p) > 255) {
                throw new BadRecord(field + ": '" + s + "' is not an IPv4 address");
            }
        }
        return s;
    }
}
