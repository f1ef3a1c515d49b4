package org.fairfabric.api.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;

/** Hosts from JSON: {@code {"id", "ip", "mac", "location": {"device", "port"}}}; the tenant comes from the URL. */
public final class HostJson {
    private static final Set<String> CREATE = Set.of("id", "ip", "mac", "location");
    private static final Set<String> STORED = Set.of("id", "tenantId", "ip", "mac", "location");
    private static final Set<String> LOCATION = Set.of("device", "port");

    private HostJson() {
    }

    public static HostDto create(JsonNode body, String tenantId) {
        return read(JsonFields.root(body, CREATE), tenantId);
    }

    /** A host as the journal or a snapshot holds it (with its tenant). */
    public static HostDto stored(JsonNode node) {
        JsonFields f = JsonFields.root(node, STORED);
        return read(f, Rules.id("tenantId", f.requiredString("tenantId")));
    }

    private static HostDto read(JsonFields f, String tenantId) {
        String id = Rules.id("id", f.requiredString("id"));
        String ip = Rules.ipv4("ip", f.requiredString("ip"));
        String mac = Rules.mac("mac", f.requiredString("mac"));
        JsonFields loc = f.requiredObject("location", LOCATION);
        String device = Rules.text(loc.path("device"), loc.requiredString("device"), 0);
        int port = Rules.port(loc.path("port"), loc.requiredInteger("port"));
        return new HostDto(id, tenantId, ip, mac, new LocationDto(device, port));
    }
}
