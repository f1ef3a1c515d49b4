package org.fairfabric.onos.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.api.json.Json;
import org.fairfabric.api.json.TenantJson;
import org.fairfabric.onos.fabric.FairfabricService;

/** Creates a tenant; the fields are checked by the same rules as POST /v1/tenants. */
@Service
@Command(scope = "onos", name = "fairfabric-tenant-add", description = "Creates a fairfabric tenant")
public class TenantAddCommand extends FabricCommand {
    @Argument(index = 0, name = "id", description = "Tenant id (a-z 0-9 _ -)", required = true)
    String id;

    @Argument(index = 1, name = "weight", description = "Share of the fabric (> 0)", required = true)
    double weight;

    @Option(name = "--name", description = "Display name (default: the id)")
    String name;

    @Option(name = "--min-bps", description = "Guaranteed bandwidth in bit/s")
    Long minBps;

    @Override
    protected void run(FairfabricService fabric) {
        ObjectNode body = Json.MAPPER.createObjectNode().put("id", id).put("weight", weight);
        if (name != null) {
            body.put("name", name);
        }
        if (minBps != null) {
            body.put("minBandwidthBps", minBps);
        }
        TenantDto t = fabric.fabric().createTenant(TenantJson.create(body));
        print("created tenant %s (weight %s)", t.id, t.weight);
    }
}
