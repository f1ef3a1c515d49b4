package org.fairfabric.onos.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.DeviceRole;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.Topology;
import org.fairfabric.onos.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/** ONOS's devices, links, hosts and netcfg as the core's model, by the embedded controller's rules. */
class OnosFabricTopologyTest {
    final TestFabric fabric = new TestFabric();
    final TestHosts hosts = new TestHosts();
    final List<HostDto> tenantHosts = new ArrayList<>();
    final OnosFabricTopology topology = new OnosFabricTopology(fabric.devices, fabric.links, hosts, fabric.netcfg,
            () -> tenantHosts);

    @Test
    void switchesWithARoleCablesAndHosts() {
        fabric.devices.add("device:unmanaged", 2); // no fairfabric block: not part of the fabric
        fabric.links.cable("device:unmanaged", 1, "device:spine1", 2 + 1);
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        hosts.add(null, "00:00:00:00:00:02", "10.0.2.1", "device:leaf2", 1);
        hosts.add("h9", "00:00:00:00:00:09", "10.0.9.1", "device:unmanaged", 1);

        Topology t = topology.refresh();

        assertEquals(List.of("device:leaf1", "device:leaf2", "device:spine1"), new ArrayList<>(t.devices().keySet()));
        assertEquals(DeviceRole.SPINE, t.device("device:spine1").role());
        assertEquals(List.of("00:00:00:00:00:02", "h1"), t.hosts().keySet().stream().sorted().collect(java.util.stream.Collectors.toList()));
        assertEquals(100_000_000L, t.linkFrom(new ConnectPoint("device:leaf1", 3)).orElseThrow().capacityBps());
        assertEquals(new ConnectPoint("device:spine1", 1), t.linkFrom(new ConnectPoint("device:leaf1", 3)).orElseThrow().dst());
        assertEquals(Optional.empty(), t.linkFrom(new ConnectPoint("device:unmanaged", 1)));
        // host links get the fastest fabric link of their switch
        assertEquals(100_000_000L, t.linkFrom(new ConnectPoint("h1", 0)).orElseThrow().capacityBps());
        assertEquals(LinkState.UP, t.linkFrom(new ConnectPoint("device:leaf1", 1)).orElseThrow().state());
        assertSame(t, topology.topology());
    }

    @Test
    void tenantHostsClaimOnosHostsAndOthersAtTheirPortAreVms() {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        tenantHosts.add(new HostDto("server1", "t1", "10.0.1.1", "00:00:00:00:00:01", new LocationDto("device:leaf1", 1)));
        tenantHosts.add(new HostDto("vm1", "t2", "10.0.1.2", "00:00:00:00:01:01", new LocationDto("device:leaf1", 1)));
        tenantHosts.add(new HostDto("h2", "t2", "10.0.2.1", "00:00:00:00:00:02", new LocationDto("device:leaf2", 2)));

        Topology t = topology.refresh();

        assertEquals(List.of("server1", "h2", "vm1"), new ArrayList<>(t.hosts().keySet()));
        assertEquals(Optional.of("t1"), t.host("server1").tenantId());
        assertEquals(Optional.of("server1"), t.host("vm1").server());
        assertEquals(Optional.empty(), t.linkFrom(new ConnectPoint("vm1", 0)), "a VM shares its server's cable");
    }

    @Test
    void anInconsistentFabricKeepsThePreviousModel() {
        Topology before = topology.refresh();
        tenantHosts.add(new HostDto("device:leaf1", "t1", "10.0.1.1", "00:00:00:00:00:01", new LocationDto("device:leaf2", 1)));
        assertSame(before, topology.refresh());
    }

    @Test
    void routerMacFromTheP4RuntimeDeviceIdOfTheManagementAddress() {
        assertEquals("02:aa:00:00:00:01", topology.routerMac("device:leaf1"));
        assertEquals("02:aa:00:00:00:03", topology.routerMac("device:spine1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> topology.routerMac("device:none"));
        assertEquals("device:none: no basic.managementAddress (grpc://HOST:PORT?device_id=N)", e.getMessage());
    }

    @Test
    void nothingBeforeTheFirstRefresh() {
        assertNull(topology.topology());
    }
}
