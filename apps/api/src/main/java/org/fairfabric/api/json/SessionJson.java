package org.fairfabric.api.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.error.ValidationException;

/** A session declared over the API: {@code {"srcHost", "dstHost", "demandBps"?}} (host ids of one tenant). */
public final class SessionJson {
    private static final Set<String> CREATE = Set.of("srcHost", "dstHost", "demandBps");
    private static final Set<String> WEIGHT = Set.of("weight");
    private static final Set<String> STORED = Set.of("id", "tenantId", "srcHost", "dstHost", "demandBps", "source", "weight");

    /** The fields of a session request, checked for form; the service checks them against the hosts. */
    public static final class Request {
        public final String srcHost;
        public final String dstHost;
        public final Long demandBps;

        Request(String srcHost, String dstHost, Long demandBps) {
            this.srcHost = srcHost;
            this.dstHost = dstHost;
            this.demandBps = demandBps;
        }
    }

    private SessionJson() {
    }

    public static Request create(JsonNode body) {
        JsonFields f = JsonFields.root(body, CREATE);
        String src = Rules.id("srcHost", f.requiredString("srcHost"));
        String dst = Rules.id("dstHost", f.requiredString("dstHost"));
        if (src.equals(dst)) {
            throw new ValidationException("dstHost", "must differ from srcHost");
        }
        Long demand = f.has("demandBps") ? Rules.bandwidth("demandBps", f.optionalInteger("demandBps")) : null;
        return new Request(src, dst, demand);
    }

    /** {@code {"weight": w}} (a positive number) or {@code {"weight": null}} (back to the equal share). */
    public static Double weight(JsonNode body) {
        JsonFields f = JsonFields.root(body, WEIGHT);
        if (!f.has("weight") && !f.isNull("weight")) {
            throw new ValidationException("weight", "is required (a positive number, or null for an equal share of the tenant's weight)");
        }
        return f.isNull("weight") ? null : Rules.weight("weight", f.requiredNumber("weight"));
    }

    /** A declared session as the journal or ONOS's state map holds it; absent optional fields are left out. */
    public static ObjectNode storedTree(SessionDto s) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("id", s.id).put("tenantId", s.tenantId).put("srcHost", s.srcHost).put("dstHost", s.dstHost);
        if (s.demandBps != null) {
            n.put("demandBps", s.demandBps);
        }
        n.put("source", s.source);
        if (s.weight != null) {
            n.put("weight", s.weight);
        }
        return n;
    }

    /** Reads back what {@link #storedTree} wrote, with the same rules as a request. */
    public static SessionDto stored(JsonNode node) {
        JsonFields f = JsonFields.root(node, STORED);
        String src = Rules.id("srcHost", f.requiredString("srcHost"));
        String dst = Rules.id("dstHost", f.requiredString("dstHost"));
        Long demand = f.has("demandBps") ? Rules.bandwidth("demandBps", f.optionalInteger("demandBps")) : null;
        Double weight = f.has("weight") ? Rules.weight("weight", f.requiredNumber("weight")) : null;
        return new SessionDto(Rules.id("id", f.requiredString("id")), Rules.id("tenantId", f.requiredString("tenantId")),
                src, dst, demand, f.requiredString("source"), weight);
    }
}
