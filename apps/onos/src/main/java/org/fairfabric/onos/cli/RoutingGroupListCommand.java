package org.fairfabric.onos.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.RoutingGroupDto;
import org.fairfabric.onos.fabric.FairfabricService;

/** P4TE routing groups: per device and metric, which ports are at which level. */
@Service
@Command(scope = "onos", name = "fairfabric-routing-groups", description = "Shows the P4TE routing groups per device and metric")
public class RoutingGroupListCommand extends FabricCommand {
    @Override
    protected void run(FairfabricService fabric) {
        for (RoutingGroupDto g : fabric.network().routingGroups()) {
            print("device=%s, metric=%s, level=%d, ports=%s", g.device, g.metric, g.level, g.ports);
        }
    }
}
