package org.fairfabric.onos.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.onos.fabric.FairfabricService;

/** Sessions, declared over the API or detected by the monitor. */
@Service
@Command(scope = "onos", name = "fairfabric-sessions", description = "Lists fairfabric sessions")
public class SessionListCommand extends FabricCommand {
    @Override
    protected void run(FairfabricService fabric) {
        for (SessionDto s : fabric.fabric().sessions()) {
            print("id=%s, tenant=%s, %s -> %s, demandBps=%s, source=%s", s.id, s.tenantId, s.srcHost, s.dstHost,
                    s.demandBps == null ? "unknown" : s.demandBps, s.source);
        }
    }
}
