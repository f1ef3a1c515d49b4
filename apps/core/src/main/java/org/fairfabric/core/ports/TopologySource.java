package org.fairfabric.core.ports;

import org.fairfabric.core.model.Topology;

/** Where the core reads the fabric from: ONOS topology/netcfg, or the embedded controller's config. */
public interface TopologySource {
    Topology current();

    void addListener(TopologyListener listener);

    void removeListener(TopologyListener listener);
}
