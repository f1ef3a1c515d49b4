package org.fairfabric.controller.platform;

import java.util.List;
import java.util.function.Supplier;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.FabricTopology;

/**
 * The embedded {@link FabricTopology}: the network configuration in force plus the tenants'
 * hosts (REST), rebuilt when either changes.
 */
public final class EmbeddedTopology implements FabricTopology {
    private final Supplier<List<HostDto>> tenantHosts;
    private volatile NetworkConfig cfg;
    private volatile Topology topology;

    public EmbeddedTopology(Supplier<List<HostDto>> tenantHosts) {
        this.tenantHosts = tenantHosts;
    }

    /** A configuration is in force; returns the new model. */
    public synchronized Topology configurationApplied(NetworkConfig newCfg) {
        cfg = newCfg;
        topology = CoreTopology.build(newCfg, tenantHosts.get());
        return topology;
    }

    /** The tenants' hosts changed; returns the new model (null without a configuration). */
    public synchronized Topology hostsChanged() {
        if (cfg == null) {
            return null;
        }
        topology = CoreTopology.build(cfg, tenantHosts.get());
        return topology;
    }

    public NetworkConfig configuration() {
        return cfg;
    }

    @Override
    public Topology topology() {
        return topology;
    }

    /** Locally administered, from the switch's P4Runtime device id. */
    @Override
    public String routerMac(String deviceId) {
        long id = cfg.devices.get(deviceId).address.deviceId;
        return String.format("02:aa:00:00:%02x:%02x", (id >> 8) & 0xff, id & 0xff);
    }
}
