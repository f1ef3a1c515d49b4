package org.fairfabric.controller.failure;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Map;
import org.fairfabric.api.json.Json;

/** One record of {@code ff.ctl.deadpaths.v1} (schema in docs/kafka.md; read by host-shim/failover). */
public final class DeadPathsJson {
    public static final int SCHEMA = 1;

    private DeadPathsJson() {
    }

    public static String write(String host, long version, Map<String, DeadPaths.SessionPaths> dead, Collection<String> downLinks) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("schema", SCHEMA).put("host", host).put("version", version);
        ArrayNode sessions = n.putArray("sessions");
        dead.forEach((id, paths) -> {
            ObjectNode s = sessions.addObject().put("id", id);
            ArrayNode d = s.putArray("dead");
            paths.dead().forEach(d::add);
            if (!paths.alive().isEmpty()) {
                ArrayNode a = s.putArray("alive");
                paths.alive().forEach(a::add);
            }
        });
        ArrayNode links = n.putArray("links");
        new java.util.TreeSet<>(downLinks).forEach(links::add);
        return Json.write(n);
    }
}
