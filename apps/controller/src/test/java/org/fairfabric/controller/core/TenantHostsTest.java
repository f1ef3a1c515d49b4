package org.fairfabric.controller.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.List;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.error.ApiException;
import org.fairfabric.api.error.ConflictException;
import org.fairfabric.api.error.ValidationException;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.store.InMemoryFabricStore;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Path;
import org.fairfabric.core.model.PathEnumerator;
import org.fairfabric.core.model.Topology;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tenants' hosts are VMs: several share a server of the network configuration and its cable; a
 * host that takes what the configuration's hosts have (address, MAC elsewhere, a fabric port) is
 * refused naming the clash, and nothing changes.
 */
class TenantHostsTest {
    FabricService fabric;
    NetworkConfig cfg;

    @BeforeEach
    void setUp() throws Exception {
        fabric = new FabricService(new InMemoryFabricStore(), new NetworkConfigParser(), new EventLog(Clock.systemUTC(), 100));
        fabric.putNetworkConfig(CoreAdaptersTest.leafSpine());
        cfg = new NetworkConfigParser().parse(CoreAdaptersTest.leafSpine());
        for (String t : List.of("red", "blue", "green")) {
            fabric.createTenant(new TenantDto(t, t, 1.0, null));
        }
    }

    static HostDto vm(String id, String tenant, String ip, String mac, String device, int port) {
        return new HostDto(id, tenant, ip, mac, new LocationDto(device, port));
    }

    @Test
    void threeTenantsShareOneServerAndItsCable() {
        fabric.addHost(vm("red-a", "red", "10.1.1.1", "02:00:00:00:01:01", "device:leaf1", 1));
        fabric.addHost(vm("blue-a", "blue", "10.1.1.2", "02:00:00:00:01:02", "device:leaf1", 1));
        fabric.addHost(vm("green-a", "green", "10.1.1.3", "02:00:00:00:01:03", "device:leaf1", 1));
        fabric.addHost(vm("red-b", "red", "10.1.4.1", "02:00:00:00:04:01", "device:leaf4", 1));
        Topology t = CoreTopology.build(cfg, fabric.allHosts());
        assertEquals("h1", t.host("red-a").server().orElseThrow());
        assertEquals("h1", t.host("green-a").cableOwner());
        assertTrue(t.host("h1").server().isEmpty(), "the server stays, with its own cable");
        PathEnumerator paths = new PathEnumerator(t);
        Link red = paths.paths("red-a", "red-b").get(0).links().get(0);
        Link blue = paths.paths("blue-a", "red-b").get(0).links().get(0);
        assertEquals(red, blue, "both VMs' traffic leaves over h1's cable");
        assertEquals("h1", red.src().elementId());
        for (Path p : paths.paths("red-a", "red-b")) {
            assertEquals("h13", p.links().get(p.links().size() - 1).dst().elementId(), "delivered over the server's cable");
        }
    }

    @Test
    void clashesWithTheConfigurationsHostsAreRefusedAndChangeNothing() {
        fabric.addHost(vm("red-a", "red", "10.1.1.1", "02:00:00:00:01:01", "device:leaf1", 1));
        List<HostDto> before = fabric.allHosts();
        ApiException ip = assertThrows(ConflictException.class,
                () -> fabric.addHost(vm("x", "blue", "10.0.1.2", "02:00:00:00:09:01", "device:leaf1", 3)));
        assertEquals("ip", ip.field());
        assertTrue(ip.getMessage().contains("'h2'"), ip.getMessage());
        ApiException mac = assertThrows(ConflictException.class,
                () -> fabric.addHost(vm("x", "blue", "10.1.9.1", "00:00:0a:00:01:02", "device:leaf2", 1)));
        assertEquals("mac", mac.field());
        assertTrue(mac.getMessage().contains("'h2'"), mac.getMessage());
        ApiException fabricPort = assertThrows(ValidationException.class,
                () -> fabric.addHost(vm("x", "blue", "10.1.9.1", "02:00:00:00:09:01", "device:leaf1", 5)));
        assertEquals("location.port", fabricPort.field());
        ApiException taken = assertThrows(ConflictException.class,
                () -> fabric.addHost(vm("x", "blue", "10.1.1.1", "02:00:00:00:09:01", "device:leaf1", 2)));
        assertEquals("ip", taken.field(), "another tenant's VM address");
        assertEquals(before, fabric.allHosts());
        assertEquals(List.of("h1"), List.of(CoreTopology.build(cfg, fabric.allHosts()).host("red-a").server().orElseThrow()));
    }

    @Test
    void aHostWithAServersMacOrNameIsThatServerAndStaysWhereItIs() {
        fabric.addHost(vm("web1", "red", "10.0.1.1", "00:00:0a:00:01:01", "device:leaf1", 1));
        Topology t = CoreTopology.build(cfg, fabric.allHosts());
        assertTrue(t.host("web1").server().isEmpty());
        assertTrue(!t.hosts().containsKey("h1"));
        fabric.addHost(vm("vm2", "blue", "10.1.1.2", "02:00:00:00:01:02", "device:leaf1", 1));
        assertEquals("web1", CoreTopology.build(cfg, fabric.allHosts()).host("vm2").server().orElseThrow(),
                "a VM on a claimed server runs on the tenant's host");
    }
}
