package org.fairfabric.onos.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.onos.fabric.FairfabricService;

/** Lists tenants with their weights and guarantees. */
@Service
@Command(scope = "onos", name = "fairfabric-tenants", description = "Lists fairfabric tenants")
public class TenantListCommand extends FabricCommand {
    @Override
    protected void run(FairfabricService fabric) {
        for (TenantDto t : fabric.fabric().tenants()) {
            print("id=%s, name=%s, weight=%s, minBandwidthBps=%s, vms=%d", t.id, t.name, t.weight,
                    t.minBandwidthBps == null ? "none" : t.minBandwidthBps, fabric.fabric().hosts(t.id).size());
        }
    }
}
