package org.fairfabric.controller.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.AllocationProblemBuilder;
import org.fairfabric.core.allocator.InvalidProblemException;

/**
 * The allocator's JSON problem format: {@code {"links": [{"id", "capacity"}], "sessions": [{"id",
 * "weight", "demand"?, "minRate"?, "paths": [[linkId, ...], ...]}]}}. Extra fields are allowed.
 * Every error names the offending field.
 */
public final class ProblemJson {
    /** NaN and Infinity literals are accepted so that they can be rejected by name. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private ProblemJson() {
    }

    public static AllocationProblem parse(String text) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidProblemException("(document)", "not valid JSON: " + e.getOriginalMessage()
                    + locationOf(e));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidProblemException("(document)", "must be a JSON object with \"links\" and \"sessions\"");
        }
        AllocationProblemBuilder builder = new AllocationProblemBuilder();
        JsonNode links = array(root, "links", "links");
        for (int e = 0; e < links.size(); e++) {
            String field = "links[" + e + "]";
            JsonNode link = object(links.get(e), field);
            builder.addLink(string(link, "id", field + ".id"), number(link, "capacity", field + ".capacity"));
        }
        JsonNode sessions = array(root, "sessions", "sessions");
        for (int i = 0; i < sessions.size(); i++) {
            String field = "sessions[" + i + "]";
            JsonNode session = object(sessions.get(i), field);
            String id = string(session, "id", field + ".id");
            double weight = number(session, "weight", field + ".weight");
            double demand = session.hasNonNull("demand")
                    ? number(session, "demand", field + ".demand") : AllocationProblem.NO_DEMAND;
            double minRate = session.hasNonNull("minRate") ? number(session, "minRate", field + ".minRate") : 0;
            JsonNode pathsNode = array(session, "paths", field + ".paths");
            List<List<String>> paths = new ArrayList<>();
            for (int j = 0; j < pathsNode.size(); j++) {
                String pathField = field + ".paths[" + j + "]";
                JsonNode pathNode = pathsNode.get(j);
                if (!pathNode.isArray()) {
                    throw new InvalidProblemException(pathField, "must be an array of link ids");
                }
                List<String> path = new ArrayList<>();
                for (int k = 0; k < pathNode.size(); k++) {
                    JsonNode hop = pathNode.get(k);
                    if (!hop.isTextual()) {
                        throw new InvalidProblemException(pathField + "[" + k + "]", "must be a link id (string)");
                    }
                    path.add(hop.asText());
                }
                paths.add(path);
            }
            builder.addSession(id, weight, demand, minRate, paths);
        }
        return builder.build();
    }

    /** The problem as JSON (used by {@code --generate}). */
    public static ObjectNode toJson(AllocationProblem problem) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode links = root.putArray("links");
        for (int e = 0; e < problem.linkCount(); e++) {
            links.addObject().put("id", problem.linkId(e)).put("capacity", problem.capacity(e));
        }
        ArrayNode sessions = root.putArray("sessions");
        for (int i = 0; i < problem.sessionCount(); i++) {
            ObjectNode s = sessions.addObject().put("id", problem.sessionId(i)).put("weight", problem.weight(i));
            if (problem.demand(i) != AllocationProblem.NO_DEMAND) {
                s.put("demand", problem.demand(i));
            }
            if (problem.minRate(i) > 0) {
                s.put("minRate", problem.minRate(i));
            }
            ArrayNode paths = s.putArray("paths");
            for (int p = problem.firstPath(i); p < problem.endPath(i); p++) {
                ArrayNode path = paths.addArray();
                for (int k = 0; k < problem.pathLength(p); k++) {
                    path.add(problem.linkId(problem.pathLink(p, k)));
                }
            }
        }
        return root;
    }

    private static String locationOf(JsonProcessingException e) {
        return e.getLocation() == null ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }

    private static JsonNode array(JsonNode parent, String name, String field) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            throw new InvalidProblemException(field, "missing");
        }
        if (!node.isArray()) {
            throw new InvalidProblemException(field, "must be an array");
        }
        return node;
    }

    private static JsonNode object(JsonNode node, String field) {
        if (!node.isObject()) {
            throw new InvalidProblemException(field, "must be an object");
        }
        return node;
    }

    private static String string(JsonNode parent, String name, String field) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            throw new InvalidProblemException(field, "missing");
        }
        if (!node.isTextual()) {
            throw new InvalidProblemException(field, "must be a string");
        }
        return node.asText();
    }

    private static double number(JsonNode parent, String name, String field) {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            throw new InvalidProblemException(field, "missing");
        }
        if (!node.isNumber()) {
            throw new InvalidProblemException(field, "must be a number");
        }
        return node.asDouble();
    }

}
