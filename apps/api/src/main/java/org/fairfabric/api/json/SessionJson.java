package org.fairfabric.api.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.fairfabric.api.error.ValidationException;

/** A session declared over the API: {@code {"srcHost", "dstHost", "demandBps"?}} (host ids of one tenant). */
public final class SessionJson {
    private static final Set<String> CREATE = Set.of("srcHost", "dstHost", "demandBps");
    private static final Set<String> WEIGHT = Set.of("weight");

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
}
