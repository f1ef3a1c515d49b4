package org.fairfabric.onos.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.onos.fabric.FairfabricService;
import org.junit.jupiter.api.Test;

/** A failing service is a 500 with an Error body, not Jersey's HTML page. */
class InternalErrorTest {
    @Test
    void unexpectedFailureIsA500ErrorBody() throws Exception {
        RestServer http = new RestServer(new FairfabricService() {
            @Override
            public FabricService fabric() {
                throw new IllegalStateException("store unavailable");
            }

            @Override
            public NetworkView network() {
                throw new IllegalStateException("store unavailable");
            }

            @Override
            public String run() {
                return "r";
            }
        });
        http.start();
        try {
            RestServer.Answer a = http.get("/v1/tenants");
            assertEquals(500, a.status, a.body);
            assertEquals(500, a.json().get("status").asInt());
            assertTrue(a.json().get("message").asText().contains("store unavailable"), a.body);
            assertEquals(404, http.get("/v1/nothing-here").status, "Jersey's own refusals keep their status");
        } finally {
            http.stop();
        }
    }
}
