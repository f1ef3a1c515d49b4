package org.fairfabric.core.ports;

import org.fairfabric.core.model.Topology;

/** Told when the fabric changes (devices, links, link states). */
public interface TopologyListener {
    void topologyChanged(Topology topology);
}
