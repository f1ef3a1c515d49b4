package org.fairfabric.onos.cli;

import org.fairfabric.api.error.ApiException;
import org.fairfabric.onos.fabric.FairfabricService;
import org.onosproject.cli.AbstractShellCommand;

/**
 * A fairfabric Karaf command: runs against {@link FairfabricService}; a refused request is
 * printed as the REST API would report it ("field: message") and changes nothing.
 */
public abstract class FabricCommand extends AbstractShellCommand {
    /** Set by tests; in ONOS the service comes from the OSGi registry. */
    FairfabricService service;

    @Override
    protected final void doExecute() {
        try {
            run(service != null ? service : get(FairfabricService.class));
        } catch (ApiException e) {
            error("%s (%d)", e.getMessage(), e.status());
        }
    }

    protected abstract void run(FairfabricService fabric);
}
