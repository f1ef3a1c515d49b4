package org.fairfabric.onos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.PathRateDto;
import org.fairfabric.api.dto.RoutingGroupDto;
import org.fairfabric.onos.fabric.FabricComponent;
import org.fairfabric.onos.fabric.TestFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Karaf commands and completers over a fabric on onos-api's adapters. */
class CommandsTest {
    FabricComponent fabric;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stdout;
    PrintStream stderr;

    @BeforeEach
    void start() {
        fabric = new TestFabric().start();
        stdout = System.out;
        stderr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void stop() {
        System.setOut(stdout);
        System.setErr(stderr);
        TestFabric.stop(fabric);
    }

    String run(FabricCommand c) throws Exception {
        out.reset();
        err.reset();
        c.service = fabric;
        c.doExecute(); // execute() would first look up ONOS's AuditService
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    TenantAddCommand tenantAdd(String id, double weight, String name, Long min) {
        TenantAddCommand c = new TenantAddCommand();
        c.id = id;
        c.weight = weight;
        c.name = name;
        c.minBps = min;
        return c;
    }

    VmAddCommand vmAdd(String tenant, String vm, String ip, String mac, String device, int port) {
        VmAddCommand c = new VmAddCommand();
        c.tenantId = tenant;
        c.vmId = vm;
        c.ip = ip;
        c.mac = mac;
        c.device = device;
        c.port = port;
        return c;
    }

    @Test
    void tenantsAndVmsAreAddedListedAndRemoved() throws Exception {
        assertEquals("created tenant blue (weight 2.0)\n", run(tenantAdd("blue", 2, "Blue", 5_000_000L)));
        run(tenantAdd("red", 1, null, null));
        assertEquals("added VM vm1 to tenant blue at device:leaf1/1\n",
                run(vmAdd("blue", "vm1", "10.0.1.1", "00:00:0a:00:01:01", "device:leaf1", 1)));
        assertEquals("id=blue, name=Blue, weight=2.0, minBandwidthBps=5000000, vms=1\n"
                + "id=red, name=red, weight=1.0, minBandwidthBps=none, vms=0\n", run(new TenantListCommand()));

        VmListCommand vms = new VmListCommand();
        vms.tenantId = "blue";
        assertEquals("id=vm1, tenant=blue, ip=10.0.1.1, mac=00:00:0a:00:01:01, location=device:leaf1/1\n", run(vms));

        TenantIdCompleter tenants = new TenantIdCompleter();
        tenants.service = fabric;
        assertEquals(List.of("blue", "red"), tenants.choices());
        VmIdCompleter vmIds = new VmIdCompleter();
        vmIds.service = fabric;
        assertEquals(List.of("vm1"), vmIds.choices());

        VmRemoveCommand rmVm = new VmRemoveCommand();
        rmVm.tenantId = "blue";
        rmVm.vmId = "vm1";
        assertEquals("removed VM vm1 of tenant blue\n", run(rmVm));
        TenantRemoveCommand rm = new TenantRemoveCommand();
        rm.tenantId = "red";
        assertEquals("removed tenant red\n", run(rm));
        assertEquals(List.of("blue"), tenants.choices());
    }

    @Test
    void refusedInputIsReportedAsTheApiDoesAndChangesNothing() throws Exception {
        run(tenantAdd("blue", 1, null, null));
        assertEquals("weight: must be a number > 0 and <= 1000000, got -1.0 (422)\n", run(tenantAdd("green", -1, null, null)));
        assertEquals("id: tenant 'blue' already exists (409)\n", run(tenantAdd("blue", 1, null, null)));
        assertTrue(run(vmAdd("blue", "vm1", "10.0.1.1", "00:00:0a:00:01:01", "device:leaf1", 3))
                .startsWith("location.port: device:leaf1/3 carries a fabric link"));
        assertEquals("tenantId: no tenant 'nobody' (404)\n", run(vmAdd("nobody", "vm1", "10.0.1.1", "00:00:0a:00:01:01", "device:leaf1", 1)));
        assertEquals("id=blue, name=blue, weight=1.0, minBandwidthBps=none, vms=0\n", run(new TenantListCommand()));
    }

    @Test
    void sessionsAllocationsRoutingGroupsAndLinkLoadsAreShown() throws Exception {
        run(tenantAdd("blue", 1, null, null));
        run(vmAdd("blue", "vm1", "10.0.1.1", "00:00:0a:00:01:01", "device:leaf1", 1));
        run(vmAdd("blue", "vm2", "10.0.2.1", "00:00:0a:00:02:01", "device:leaf2", 1));
        fabric.fabric().detectSession("vm1", "vm2");
        assertEquals("id=s1, tenant=blue, vm1 -> vm2, demandBps=unknown, source=monitor\n", run(new SessionListCommand()));

        fabric.network().publishAllocations(List.of(new AllocationDto("s1", "blue", 6e7,
                List.of(new PathRateDto(1, List.of("device:leaf1", "device:spine1", "device:leaf2"), 6e7)), "2026-11-26T13:00:00Z", true)));
        assertEquals("session=s1, tenant=blue, totalBps=60000000, computedAt=2026-11-26T13:00:00Z, exact=true\n"
                + "    path=1, devices=[device:leaf1, device:spine1, device:leaf2], rateBps=60000000\n", run(new AllocationListCommand()));

        fabric.network().setRoutingGroup(new RoutingGroupDto("device:leaf1", "queue-depth", 0, List.of(3)));
        assertEquals("device=device:leaf1, metric=queue-depth, level=0, ports=[3]\n", run(new RoutingGroupListCommand()));

        fabric.network().setLinkLoad("device:leaf1/3-device:spine1/1", 25e6);
        String loads = run(new LinkLoadListCommand());
        assertTrue(loads.contains("link=device:leaf1/3-device:spine1/1, up=true, loadBps=25000000, capacityBps=100000000, 25.0%\n"), loads);
        assertEquals(4, loads.lines().count());
    }
}
