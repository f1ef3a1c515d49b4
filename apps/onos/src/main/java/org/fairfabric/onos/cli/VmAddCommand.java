package org.fairfabric.onos.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.json.HostJson;
import org.fairfabric.api.json.Json;
import org.fairfabric.onos.fabric.FairfabricService;
import org.onosproject.cli.net.DeviceIdCompleter;

/** Adds a VM to a tenant at an edge port; checked as POST /v1/tenants/{id}/hosts is. */
@Service
@Command(scope = "onos", name = "fairfabric-vm-add", description = "Adds a VM (host) to a fairfabric tenant")
public class VmAddCommand extends FabricCommand {
    @Argument(index = 0, name = "tenantId", required = true)
    @Completion(TenantIdCompleter.class)
    String tenantId;

    @Argument(index = 1, name = "vmId", required = true)
    String vmId;

    @Argument(index = 2, name = "ip", description = "IPv4 address", required = true)
    String ip;

    @Argument(index = 3, name = "mac", description = "MAC address (lower case)", required = true)
    String mac;

    @Argument(index = 4, name = "device", description = "Device it attaches to", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 5, name = "port", description = "Edge port number", required = true)
    int port;

    @Override
    protected void run(FairfabricService fabric) {
        fabric.fabric().tenant(tenantId);
        ObjectNode body = Json.MAPPER.createObjectNode().put("id", vmId).put("ip", ip).put("mac", mac);
        body.putObject("location").put("device", device).put("port", port);
        HostDto h = fabric.fabric().addHost(HostJson.create(body, tenantId));
        print("added VM %s to tenant %s at %s", h.id, h.tenantId, h.location);
    }
}
