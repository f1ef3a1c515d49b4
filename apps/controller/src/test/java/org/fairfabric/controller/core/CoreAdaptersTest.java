package org.fairfabric.controller.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.store.InMemoryFabricStore;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.core.model.DeviceRole;
import org.fairfabric.core.model.Tenant;
import org.fairfabric.core.model.Topology;
import org.junit.jupiter.api.Test;

class CoreAdaptersTest {
    static String leafSpine() throws Exception {
        return Files.readString(Path.of("../../docs/examples/netcfg-leafspine-4x4.json"));
    }

    @Test
    void theCoreTopologyComesFromTheConfigurationAndTheTenantsHosts() throws Exception {
        NetworkConfig cfg = new NetworkConfigParser().parse(leafSpine());
        // "web1" claims the configuration's h1 by MAC; tenant red claims h16 by name
        List<HostDto> tenantHosts = List.of(
                new HostDto("web1", "blue", "10.0.1.1", "00:00:0a:00:01:01", new LocationDto("device:leaf1", 1)),
                new HostDto("h16", "red", "10.0.4.4", "00:00:0a:00:04:04", new LocationDto("device:leaf4", 4)));
        Topology t = CoreTopology.build(cfg, tenantHosts);
        assertEquals(8, t.devices().size());
        assertEquals(DeviceRole.SPINE, t.device("device:spine2").role());
        assertEquals(16, t.hosts().size());
        assertFalse(t.hosts().containsKey("h1"));
        assertEquals("blue", t.host("web1").tenantId().orElseThrow());
        assertEquals("red", t.host("h16").tenantId().orElseThrow());
        assertTrue(t.host("h2").tenantId().isEmpty());
        assertEquals(4, t.upwardLinks("device:leaf1").size());
        assertEquals(2 * 16 + 2 * 16, t.links().size());
        assertEquals(100_000_000L, t.links().get(0).capacityBps());
    }
}
