package org.fairfabric.onos.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.api.dto.DeviceDto;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.SessionJson;
import org.fairfabric.onos.netcfg.FabricDeviceConfig;
import org.fairfabric.onos.netcfg.FabricHostConfig;
import org.junit.jupiter.api.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.HostId;

/** The fabric component over onos-api's adapters: netcfg classes, topology view, durable tenants. */
class FabricComponentTest {

    @Test
    void registersItsConfigClassesAndTakesRolesFromTheNetcfg() {
        TestFabric net = new TestFabric();
        FabricComponent c = net.start();
        assertEquals(2, net.netcfg.factories.size());
        Map<String, String> roles = new LinkedHashMap<>();
        for (DeviceDto d : c.network().topology(List.of()).devices) {
            roles.put(d.id, d.role);
        }
        assertEquals(Map.of("device:leaf1", "leaf", "device:leaf2", "leaf", "device:spine1", "spine"), roles);
        TestFabric.stop(c);
        assertTrue(net.netcfg.factories.isEmpty(), "unregistered on deactivation");
    }

    @Test
    void configClassesAcceptWhatTheEmbeddedControllerAcceptsAndNothingElse() throws Exception {
        assertTrue(device("{\"role\": \"spine\", \"pod\": 2}").isValid());
        assertEquals(2, device("{\"role\": \"spine\", \"pod\": 2}").pod());
        assertFalse(device("{\"role\": \"router\"}").isValid());
        assertFalse(device("{\"pod\": 1}").isValid());
        assertFalse(device("{\"role\": \"leaf\", \"pod\": -1}").isValid());
        assertFalse(device("{\"role\": \"leaf\", \"colour\": 1}").isValid());
        assertTrue(host("{\"shim\": true}").isValid());
        assertTrue(host("{\"shim\": true}").shim());
        assertFalse(host("{\"shim\": \"yes\"}").isValid());
        assertTrue(host("{\"bandwidth\": 10}").isValid());
        assertEquals(10, host("{\"shim\": true, \"bandwidth\": 10}").bandwidthMbps());
        assertEquals(0, host("{\"shim\": true}").bandwidthMbps());
        assertFalse(host("{\"bandwidth\": 0}").isValid());
        assertFalse(host("{\"bandwidth\": 2.5}").isValid());
        assertFalse(host("{\"shim\": true, \"colour\": 1}").isValid());
    }

    @Test
    void tenantsSurviveARestartInTheConsistentMapInCreationOrder() {
        TestFabric net = new TestFabric();
        FabricComponent first = net.start();
        first.fabric().createTenant(new TenantDto("zeta", "Zeta", 1, null));
        first.fabric().createTenant(new TenantDto("alpha", "Alpha", 2, 1000L));
        first.fabric().updateTenant("zeta", t -> new TenantDto("zeta", "Zeta", 3, null));
        TestFabric.stop(first);

        FabricComponent second = net.start(); // same StorageService: the same map, as on another node
        assertEquals(List.of(new TenantDto("zeta", "Zeta", 3, null), new TenantDto("alpha", "Alpha", 2, 1000L)),
                second.fabric().tenants());
        TestFabric.stop(second);
    }

    @Test
    void declaredSessionsSurviveARestartInTheConsistentMapAndSoDoTheirDeletes() {
        TestFabric net = new TestFabric();
        FabricComponent first = net.start();
        first.fabric().createTenant(new TenantDto("blue", "Blue", 1, null));
        first.fabric().createTenant(new TenantDto("red", "Red", 1, null));
        first.fabric().addHost(new HostDto("h1", "blue", "10.0.1.1", "00:00:0a:00:01:01", new LocationDto("device:leaf1", 1)));
        first.fabric().addHost(new HostDto("h2", "blue", "10.0.2.1", "00:00:0a:00:02:01", new LocationDto("device:leaf2", 1)));
        first.fabric().addHost(new HostDto("h3", "blue", "10.0.1.2", "00:00:0a:00:01:02", new LocationDto("device:leaf1", 2)));
        first.fabric().addHost(new HostDto("r1", "red", "10.0.2.2", "00:00:0a:00:02:02", new LocationDto("device:leaf2", 2)));
        first.fabric().addHost(new HostDto("r2", "red", "10.0.1.3", "00:00:0a:00:01:03", new LocationDto("device:leaf1", 4)));
        SessionDto s1 = first.fabric().declareSession(request("h1", "h2", ",\"demandBps\":5000000"));
        SessionDto s2 = first.fabric().declareSession(request("h2", "h1", ""));
        SessionDto s3 = first.fabric().declareSession(request("h3", "h2", ""));
        SessionDto s4 = first.fabric().declareSession(request("r1", "r2", ""));
        first.fabric().detectSession("h1", "h3"); // detected: not stored
        s2 = first.fabric().setSessionWeight(s2.id, 0.5);
        first.fabric().removeSession(s1.id);
        TestFabric.stop(first);

        FabricComponent second = net.start();
        assertEquals(List.of(s2, s3, s4), second.fabric().sessions());
        assertEquals(5000000L, s1.demandBps);
        second.fabric().removeHost("blue", "h3");
        second.fabric().deleteTenant("red");
        TestFabric.stop(second);

        FabricComponent third = net.start();
        assertEquals(List.of(s2), third.fabric().sessions());
        assertEquals("s6", third.fabric().declareSession(request("h1", "h2", "")).id);
        TestFabric.stop(third);
    }

    private static SessionJson.Request request(String src, String dst, String more) {
        return SessionJson.create(Json.parse("{\"srcHost\":\"" + src + "\",\"dstHost\":\"" + dst + "\"" + more + "}"));
    }

    private static FabricDeviceConfig device(String json) throws Exception {
        FabricDeviceConfig c = new FabricDeviceConfig();
        c.init(DeviceId.deviceId("device:x"), FabricDeviceConfig.KEY, new ObjectMapper().readTree(json), new ObjectMapper(), null);
        return c;
    }

    private static FabricHostConfig host(String json) throws Exception {
        FabricHostConfig c = new FabricHostConfig();
        c.init(HostId.hostId("00:00:0a:00:01:01/None"), FabricHostConfig.KEY, new ObjectMapper().readTree(json), new ObjectMapper(), null);
        return c;
    }
}
