package org.fairfabric.onos.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.AllocationDto;
import org.fairfabric.api.dto.PathRateDto;
import org.fairfabric.onos.fabric.FairfabricService;

/** The allocator's last round: per session, its total and per-path rates. */
@Service
@Command(scope = "onos", name = "fairfabric-allocations", description = "Shows the per-session, per-path rates of the last allocation")
public class AllocationListCommand extends FabricCommand {
    @Override
    protected void run(FairfabricService fabric) {
        for (AllocationDto a : fabric.network().allocations()) {
            print("session=%s, tenant=%s, totalBps=%.0f, computedAt=%s, exact=%s", a.sessionId, a.tenantId, a.totalBps, a.computedAt, a.exact);
            for (PathRateDto p : a.paths) {
                print("    path=%d, devices=%s, rateBps=%.0f", p.pathId, p.devices, p.rateBps);
            }
        }
    }
}
