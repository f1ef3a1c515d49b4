package org.fairfabric.controller.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.fairfabric.api.json.HostJson;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.SessionJson;
import org.fairfabric.api.json.TenantJson;
import org.fairfabric.api.store.Mutation;

/** Journal records: one JSON object per mutation, {@code {"op": ..., ...}}; read back with the API's own strict readers. */
final class MutationCodec {
    private MutationCodec() {
    }

    static String encode(Mutation m) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        if (m instanceof Mutation.PutTenant) {
            n.put("op", "put-tenant");
            ObjectNode t = (ObjectNode) Json.tree(((Mutation.PutTenant) m).tenant);
            if (t.get("minBandwidthBps").isNull()) {
                t.remove("minBandwidthBps");
            }
            n.set("tenant", t);
        } else if (m instanceof Mutation.DeleteTenant) {
            n.put("op", "delete-tenant").put("id", ((Mutation.DeleteTenant) m).tenantId);
        } else if (m instanceof Mutation.PutHost) {
            n.put("op", "put-host").set("host", Json.tree(((Mutation.PutHost) m).host));
        } else if (m instanceof Mutation.DeleteHost) {
            n.put("op", "delete-host").put("id", ((Mutation.DeleteHost) m).hostId);
        } else if (m instanceof Mutation.PutSession) {
            n.put("op", "put-session").set("session", SessionJson.storedTree(((Mutation.PutSession) m).session));
        } else if (m instanceof Mutation.DeleteSession) {
            n.put("op", "delete-session").put("id", ((Mutation.DeleteSession) m).sessionId);
        } else if (m instanceof Mutation.UseSessionNumbers) {
            n.put("op", "use-session-numbers").put("upTo", ((Mutation.UseSessionNumbers) m).upTo);
        } else if (m instanceof Mutation.PutNetworkConfig) {
            n.put("op", "put-network-config").put("json", ((Mutation.PutNetworkConfig) m).json);
        } else {
            throw new IllegalArgumentException("no journal encoding for " + m.getClass().getName());
        }
        return Json.write(n);
    }

    static Mutation decode(String line) {
        JsonNode n = Json.parse(line);
        String op = n.path("op").asText();
        switch (op) {
            case "put-tenant":
                return new Mutation.PutTenant(TenantJson.create(n.get("tenant")));
            case "delete-tenant":
                return new Mutation.DeleteTenant(n.get("id").textValue());
            case "put-host":
                return new Mutation.PutHost(HostJson.stored(n.get("host")));
            case "delete-host":
                return new Mutation.DeleteHost(n.get("id").textValue());
            case "put-session":
                return new Mutation.PutSession(SessionJson.stored(n.get("session")));
            case "delete-session":
                return new Mutation.DeleteSession(n.get("id").textValue());
            case "use-session-numbers":
                return new Mutation.UseSessionNumbers(n.get("upTo").longValue());
            case "put-network-config":
                return new Mutation.PutNetworkConfig(n.get("json").textValue());
            default:
                throw new IllegalArgumentException("unknown journal op '" + op + "'");
        }
    }
}
