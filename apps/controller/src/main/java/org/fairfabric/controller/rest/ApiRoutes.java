package org.fairfabric.controller.rest;

import java.util.List;
import java.util.Map;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.HostJson;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.SessionJson;
import org.fairfabric.api.json.TenantJson;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;

/** The REST API, version 1: every route of the embedded controller (documented in docs/api/openapi.yaml). */
public final class ApiRoutes {
    public static final String BASE = "/api/v1";

    private ApiRoutes() {
    }

    public static List<Route> all(FabricService fabric, NetworkView network, OpenApiDocument doc) {
        return List.of(
                new Route("GET", BASE + "/openapi.yaml", c -> Reply.text("application/yaml", doc.yaml)),
                new Route("GET", BASE + "/openapi.json", c -> Reply.text(Reply.JSON, doc.json)),
                new Route("GET", BASE + "/health", c -> Reply.ok(Map.of("status", "up"))),

                new Route("GET", BASE + "/tenants", c -> Reply.ok(fabric.tenants())),
                new Route("POST", BASE + "/tenants", c -> {
                    TenantDto t = fabric.createTenant(TenantJson.create(Json.parse(c.body())));
                    return Reply.created(t, BASE + "/tenants/" + t.id);
                }),
                new Route("GET", BASE + "/tenants/{tenantId}", c -> Reply.ok(fabric.tenant(c.path("tenantId")))),
                new Route("PATCH", BASE + "/tenants/{tenantId}", c -> Reply.ok(
                        fabric.updateTenant(c.path("tenantId"), cur -> TenantJson.update(Json.parse(c.body()), cur)))),
                new Route("DELETE", BASE + "/tenants/{tenantId}", c -> {
                    fabric.deleteTenant(c.path("tenantId"));
                    return Reply.noContent();
                }),

                new Route("GET", BASE + "/tenants/{tenantId}/hosts", c -> Reply.ok(fabric.hosts(c.path("tenantId")))),
                new Route("POST", BASE + "/tenants/{tenantId}/hosts", c -> {
                    String tenant = c.path("tenantId");
                    fabric.tenant(tenant); // 404 before body validation
                    HostDto h = fabric.addHost(HostJson.create(Json.parse(c.body()), tenant));
                    return Reply.created(h, BASE + "/tenants/" + tenant + "/hosts/" + h.id);
                }),
                new Route("GET", BASE + "/tenants/{tenantId}/hosts/{hostId}", c -> Reply.ok(fabric.host(c.path("tenantId"), c.path("hostId")))),
                new Route("DELETE", BASE + "/tenants/{tenantId}/hosts/{hostId}", c -> {
                    fabric.removeHost(c.path("tenantId"), c.path("hostId"));
                    return Reply.noContent();
                }),

                new Route("GET", BASE + "/sessions", c -> Reply.ok(fabric.sessions())),
                new Route("POST", BASE + "/sessions", c -> {
                    SessionDto s = fabric.declareSession(SessionJson.create(Json.parse(c.body())));
                    return Reply.created(s, BASE + "/sessions/" + s.id);
                }),
                new Route("GET", BASE + "/sessions/{sessionId}", c -> Reply.ok(fabric.session(c.path("sessionId")))),
                new Route("PUT", BASE + "/sessions/{sessionId}/weight", c ->
                        Reply.ok(fabric.setSessionWeight(c.path("sessionId"), SessionJson.weight(Json.parse(c.body()))))),
                new Route("DELETE", BASE + "/sessions/{sessionId}", c -> {
                    fabric.removeSession(c.path("sessionId"));
                    return Reply.noContent();
                }),

                new Route("GET", BASE + "/allocations", c -> Reply.ok(network.allocations())),
                new Route("GET", BASE + "/topology", c -> Reply.ok(network.topology(fabric.allHosts()))),
                new Route("GET", BASE + "/routing-groups", c -> Reply.ok(network.routingGroups())),
                new Route("GET", BASE + "/aqs", c -> Reply.ok(network.aqs())),
                new Route("GET", BASE + "/events", c -> Reply.ok(fabric.events().since(
                        c.queryLong("after", 0, 0, Long.MAX_VALUE), (int) c.queryLong("limit", 100, 1, EventLog.MAX_PAGE)))),

                new Route("GET", BASE + "/network-config", c -> Reply.text(Reply.JSON, fabric.networkConfig()
                        .orElseThrow(() -> new org.fairfabric.api.error.NotFoundException(null, "no network configuration is loaded")))),
                new Route("PUT", BASE + "/network-config", c -> {
                    fabric.putNetworkConfig(c.body());
                    return Reply.noContent();
                }));
    }
}
