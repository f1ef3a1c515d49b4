package org.fairfabric.api.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.fairfabric.api.error.ValidationException;

/** A session declared over the API: {@code {"srcHost", "dstHost", "demandBps"?}} (host ids of one tenant). */
public final class SessionJson {
    private static final Set<String> CREATE = Set.of("srcHost", "dstHost", "demandBps");

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
}
