package org.fairfabric.core.platform;

import org.fairfabric.core.model.Topology;

/**
 * The fabric as the platform knows it (embedded: the network configuration plus the tenants'
 * hosts; ONOS: its device, link and host services), as the core's model.
 */
public interface FabricTopology {
    /** The current switches, cables and hosts; null before the first configuration is in force. */
    Topology topology();

    /** The MAC a switch routes with (its {@code my_station} entry and the source of routed frames). */
    String routerMac(String deviceId);
}
