package org.fairfabric.onos.cli;

import java.util.ArrayList;
import java.util.List;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.onos.fabric.FairfabricService;
import org.onosproject.cli.AbstractChoicesCompleter;

/** Completes tenant ids. */
@Service
public class TenantIdCompleter extends AbstractChoicesCompleter {
    /** Set by tests; in ONOS the service comes from the OSGi registry. */
    FairfabricService service;

    @Override
    protected List<String> choices() {
        FairfabricService s = service != null ? service : org.onosproject.cli.AbstractShellCommand.get(FairfabricService.class);
        List<String> ids = new ArrayList<>();
        for (TenantDto t : s.fabric().tenants()) {
            ids.add(t.id);
        }
        return ids;
    }
}
