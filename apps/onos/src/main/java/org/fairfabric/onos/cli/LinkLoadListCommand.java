package org.fairfabric.onos.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.onos.fabric.FairfabricService;

/** Each directed link's measured load against its capacity. */
@Service
@Command(scope = "onos", name = "fairfabric-link-loads", description = "Shows the load of every fabric link")
public class LinkLoadListCommand extends FabricCommand {
    @Override
    protected void run(FairfabricService fabric) {
        for (LinkDto l : fabric.network().topology(java.util.List.of()).links) {
            String share = l.capacityBps > 0 ? String.format("%.1f%%", 100.0 * l.loadBps / l.capacityBps) : "capacity unknown";
            print("link=%s, up=%s, loadBps=%.0f, capacityBps=%d, %s", l.id, l.up, l.loadBps, l.capacityBps, share);
        }
    }
}
