package org.fairfabric.onos.rest;

import java.net.URI;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.UriInfo;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.onos.fabric.FairfabricService;
import org.onosproject.rest.AbstractWebResource;

/** What every fairfabric resource needs: the shared services (from ONOS's service directory) and its URIs. */
abstract class FabricResource extends AbstractWebResource {
    @Context
    protected UriInfo uriInfo;

    protected FabricService fabric() {
        return get(FairfabricService.class).fabric();
    }

    protected NetworkView network() {
        return get(FairfabricService.class).network();
    }

    /** An absolute URI under the API, e.g. {@code location("tenants", "blue")}. */
    protected URI location(String... segments) {
        javax.ws.rs.core.UriBuilder b = uriInfo.getBaseUriBuilder().path(ApiPaths.VERSION);
        for (String s : segments) {
            b.path(s);
        }
        return b.build();
    }
}
