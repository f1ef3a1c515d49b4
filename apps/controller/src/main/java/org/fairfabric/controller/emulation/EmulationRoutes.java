package org.fairfabric.controller.emulation;

import org.fairfabric.controller.rest.ApiRoutes;
import org.fairfabric.controller.rest.Reply;
import org.fairfabric.controller.rest.Route;

/** The emulation-only operations of the REST API (documented in docs/api/openapi.yaml and docs/gui.md). */
public final class EmulationRoutes {
    public static final String LINK_STATE = ApiRoutes.BASE + "/emulation/link-state";

    private EmulationRoutes() {
    }

    /** {@code POST /api/v1/emulation/link-state {"device", "port", "up"}}: fails or restores a link of the emulated fabric. */
    public static Route linkState(EmulatedLinks links) {
        return new Route("POST", LINK_STATE, c -> Reply.ok(links.set(EmulatedLinks.Request.parse(c.body()))));
    }
}
