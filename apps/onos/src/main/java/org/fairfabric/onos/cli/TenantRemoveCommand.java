package org.fairfabric.onos.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.onos.fabric.FairfabricService;

/** Removes a tenant with its VMs and sessions. */
@Service
@Command(scope = "onos", name = "fairfabric-tenant-remove", description = "Removes a fairfabric tenant, its VMs and sessions")
public class TenantRemoveCommand extends FabricCommand {
    @Argument(index = 0, name = "tenantId", required = true)
    @Completion(TenantIdCompleter.class)
    String tenantId;

    @Override
    protected void run(FairfabricService fabric) {
        fabric.fabric().deleteTenant(tenantId);
        print("removed tenant %s", tenantId);
    }
}
