package org.fairfabric.onos.fabric;

import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;

/**
 * fairfabric inside ONOS: the shared provisioning service (tenants, hosts, sessions, network
 * configuration) and the live network view, as the REST resources, the CLI and the GUI use them.
 */
public interface FairfabricService {
    /** Tenant provisioning, backed by a cluster-wide ConsistentMap. */
    FabricService fabric();

    /** Devices, links, allocations and routing groups as this node sees them. */
    NetworkView network();

    /** This run of the component (a new id on every activation), as the GUI stream names it. */
    String run();
}
