package org.fairfabric.onos.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fairfabric.api.dto.DeviceDto;
import org.fairfabric.api.dto.TenantDto;
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
