package org.fairfabric.onos.gui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.onos.fabric.FairfabricService;
import org.onosproject.ui.RequestHandler;
import org.onosproject.ui.UiMessageHandler;
import org.onosproject.ui.topo.TopoJson;

/**
 * The overlay's server side: the tenant selector's list, and link-load / tenant-path highlights
 * for the topology view (the client asks again every second while the overlay is active).
 */
public class FabricTopoMessageHandler extends UiMessageHandler {
    static final String TENANTS_REQUEST = "fairfabricTenantsRequest";
    static final String TENANTS = "fairfabricTenants";
    static final String HIGHLIGHTS_REQUEST = "fairfabricHighlightsRequest";
    static final String TENANT_ID = "tenantId";

    @Override
    protected List<RequestHandler> createRequestHandlers() {
        return List.of(new TenantsRequest(), new HighlightsRequest());
    }

    private final class TenantsRequest extends RequestHandler {
        TenantsRequest() {
            super(TENANTS_REQUEST);
        }

        @Override
        public void process(ObjectNode payload) {
            ArrayNode tenants = arrayNode();
            for (TenantDto t : get(FairfabricService.class).fabric().tenants()) {
                tenants.addObject().put("id", t.id).put("name", t.name).put("weight", t.weight);
            }
            ObjectNode reply = objectNode();
            reply.set("tenants", tenants);
            sendMessage(TENANTS, reply);
        }
    }

    private final class HighlightsRequest extends RequestHandler {
        HighlightsRequest() {
            super(HIGHLIGHTS_REQUEST);
        }

        @Override
        public void process(ObjectNode payload) {
            String tenant = string(payload, TENANT_ID, null);
            if (tenant != null && tenant.isEmpty()) {
                tenant = null;
            }
            sendMessage(TopoJson.highlightsMessage(FabricHighlights.of(get(FairfabricService.class).network(), tenant)));
        }
    }
}
