package org.fairfabric.controller.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.controller.rest.ApiRoutes;
import org.fairfabric.controller.rest.Reply;
import org.fairfabric.controller.rest.Route;

/**
 * The monitor's view over HTTP (docs/api/openapi.yaml): {@code GET /api/v1/monitor/sessions},
 * {@code /links}, {@code /tenants} (the latest ff.mon.* record of every key), and
 * {@code GET /api/v1/tenants} with each tenant's measured rates ({@code achievedBps},
 * {@code allocatedBps}: null until the monitor closed a period of the tenant).
 */
public final class MonitorRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String TENANTS = ApiRoutes.BASE + "/tenants";

    private MonitorRoutes() {
    }

    /** The API's routes with the monitor's added and GET /tenants carrying the measured rates. */
    public static List<Route> with(List<Route> api, MonitorView view, FabricService fabric) {
        List<Route> out = new ArrayList<>();
        out.add(new Route("GET", ApiRoutes.BASE + "/monitor/sessions", c -> Reply.ok(view.sessions())));
        out.add(new Route("GET", ApiRoutes.BASE + "/monitor/links", c -> Reply.ok(view.links())));
        out.add(new Route("GET", ApiRoutes.BASE + "/monitor/tenants", c -> Reply.ok(view.tenants())));
        for (Route r : api) {
            if (r.method.equals("GET") && r.template.equals(TENANTS)) {
                out.add(new Route("GET", TENANTS, c -> Reply.ok(withRates(fabric.tenants(), view))));
            } else {
                out.add(r);
            }
        }
        return out;
    }

    static List<ObjectNode> withRates(List<TenantDto> tenants, MonitorView view) {
        List<ObjectNode> out = new ArrayList<>();
        for (TenantDto t : tenants) {
            ObjectNode o = JSON.valueToTree(t);
            JsonNode m = view.tenant(t.id);
            if (m == null) {
                o.putNull("achievedBps");
                o.putNull("allocatedBps");
            } else {
                o.put("achievedBps", m.path("achieved_bps").asDouble());
                o.put("allocatedBps", m.path("allocated_bps").asDouble());
            }
            out.add(o);
        }
        return out;
    }
}
