package org.fairfabric.controller.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.fairfabric.controller.Controller;
import org.fairfabric.controller.ControllerSettings;
import org.fairfabric.controller.rest.HttpJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guarantees over REST (contract C1): a guarantee the fabric cannot carry is refused with 409 and the
 * reason, and nothing changes — no stored state, no event. Leaf-spine 4x4 at 100 Mbit/s per link.
 */
class GuaranteeAdmissionRestTest {
    static final String TOKEN = "test-token-0123456789";
    static final Path LEAF_SPINE = Path.of("../../docs/examples/netcfg-leafspine-4x4.json");
    static final String H1 = "{\"id\":\"h1\",\"ip\":\"10.0.1.1\",\"mac\":\"00:00:0a:00:01:01\",\"location\":{\"device\":\"device:leaf1\",\"port\":1}}";
    static final String H5 = "{\"id\":\"h5\",\"ip\":\"10.0.2.1\",\"mac\":\"00:00:0a:00:02:01\",\"location\":{\"device\":\"device:leaf2\",\"port\":1}}";
    /** A VM on h1's server (same port, own addresses). */
    static final String VM1 = "{\"id\":\"vm1\",\"ip\":\"10.0.9.1\",\"mac\":\"00:00:0a:00:09:01\",\"location\":{\"device\":\"device:leaf1\",\"port\":1}}";

    @TempDir
    Path dir;
    Controller controller;
    HttpJson http;

    @BeforeEach
    void start() {
        controller = Controller.start(ControllerSettings.of(dir, LEAF_SPINE, "127.0.0.1", 0, null, TOKEN));
        http = new HttpJson(controller.baseUrl(), TOKEN);
    }

    @AfterEach
    void stop() {
        controller.close();
    }

    private String snapshot() {
        return http.get("/api/v1/tenants").body + http.get("/api/v1/sessions").body
                + http.get("/api/v1/events").json().size();
    }

    private void assertRefused(HttpJson.Answer a, String field, String... reasonParts) {
        assertEquals(409, a.status, a.body);
        JsonNode err = a.json();
        assertEquals(409, err.get("status").asInt());
        assertEquals(field, err.get("field").asText());
        for (String part : reasonParts) {
            assertTrue(err.get("message").asText().contains(part), a.body);
        }
    }

    @Test
    void aGuaranteeAboveTheHostLinkIsRefusedAndChangesNothing() {
        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"blue\",\"weight\":1}").status);
        assertEquals(201, http.send("POST", "/api/v1/tenants/blue/hosts", H1).status);
        assertEquals(201, http.send("POST", "/api/v1/tenants/blue/hosts", H5).status);
        String before = snapshot();

        assertRefused(http.send("PATCH", "/api/v1/tenants/blue", "{\"minBandwidthBps\":250000000}"),
                "minBandwidthBps", "stage 1 (edge)", "100 Mbit/s", "'blue' 250 Mbit/s");
        assertEquals(before, snapshot());

        HttpJson.Answer ok = http.send("PATCH", "/api/v1/tenants/blue", "{\"minBandwidthBps\":40000000}");
        assertEquals(200, ok.status, ok.body);
        assertEquals(40000000, http.get("/api/v1/tenants/blue").json().get("minBandwidthBps").asLong());
    }

    @Test
    void theSumOfGuaranteesOnASharedServerCableIsBounded() {
        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"blue\",\"weight\":1,\"minBandwidthBps\":60000000}").status);
        assertEquals(201, http.send("POST", "/api/v1/tenants/blue/hosts", H1).status);
        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"red\",\"weight\":3}").status);
        assertEquals(201, http.send("POST", "/api/v1/tenants/red/hosts", VM1).status);
        String before = snapshot();

        // red's VM shares h1's 100 Mbit/s cable with blue's 60 Mbit/s
        assertRefused(http.send("PATCH", "/api/v1/tenants/red", "{\"minBandwidthBps\":50000000}"),
                "minBandwidthBps", "'blue' 60 Mbit/s + 'red' 50 Mbit/s = 110 Mbit/s");
        assertEquals(before, snapshot());
        assertEquals(200, http.send("PATCH", "/api/v1/tenants/red", "{\"minBandwidthBps\":40000000}").status);

        // a guaranteed tenant's new host on a full cable is refused too, and so is a new tenant
        String full = snapshot();
        assertEquals(201, http.send("POST", "/api/v1/tenants", "{\"id\":\"green\",\"weight\":1,\"minBandwidthBps\":10000000}").status);
        String withGreen = snapshot();
        assertRefused(http.send("POST", "/api/v1/tenants/green/hosts",
                VM1.replace("vm1", "vm2").replace("10.0.9.1", "10.0.9.2").replace("09:01", "09:02")), "location", "= 110 Mbit/s");
        assertEquals(withGreen, snapshot());
        assertTrue(!full.equals(withGreen));
    }
}
