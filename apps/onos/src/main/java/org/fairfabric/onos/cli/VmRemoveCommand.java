package org.fairfabric.onos.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.onos.fabric.FairfabricService;

/** Removes a VM and its sessions. */
@Service
@Command(scope = "onos", name = "fairfabric-vm-remove", description = "Removes a VM (host) of a fairfabric tenant")
public class VmRemoveCommand extends FabricCommand {
    @Argument(index = 0, name = "tenantId", required = true)
    @Completion(TenantIdCompleter.class)
    String tenantId;

    @Argument(index = 1, name = "vmId", required = true)
    @Completion(VmIdCompleter.class)
    String vmId;

    @Override
    protected void run(FairfabricService fabric) {
        fabric.fabric().removeHost(tenantId, vmId);
        print("removed VM %s of tenant %s", vmId, tenantId);
    }
}
