package org.fairfabric.onos.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.onos.fabric.FairfabricService;

/** Lists the VMs (hosts) of one tenant, or of all. */
@Service
@Command(scope = "onos", name = "fairfabric-vms", description = "Lists the VMs of a fairfabric tenant (all without an id)")
public class VmListCommand extends FabricCommand {
    @Argument(index = 0, name = "tenantId", required = false)
    @Completion(TenantIdCompleter.class)
    String tenantId;

    @Override
    protected void run(FairfabricService fabric) {
        for (HostDto h : tenantId == null ? fabric.fabric().allHosts() : fabric.fabric().hosts(tenantId)) {
            print("id=%s, tenant=%s, ip=%s, mac=%s, location=%s", h.id, h.tenantId, h.ip, h.mac, h.location);
        }
    }
}
