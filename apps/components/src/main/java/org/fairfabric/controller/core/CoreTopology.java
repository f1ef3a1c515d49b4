package org.fairfabric.controller.core;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Device;
import org.fairfabric.core.model.DeviceRole;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Topology;

/**
 * The core's model of the fabric built from the network configuration and the tenants' hosts:
 * switches with their roles, cables with capacities (Mbit/s in the configuration, bit/s in the
 * core), and hosts. A tenant's host (REST) replaces the configuration's host with the same MAC
 * or name; configuration hosts nobody claimed stay, without a tenant. A tenant's host at the port
 * of a configuration host that it does not claim is a VM on that server: it has no cable of its
 * own, and its traffic shares the server's. A host link gets the capacity the configuration
 * declares for the host at that port ({@code "fairfabric": {"bandwidth": MBPS}}), else that of the
 * fastest fabric link of its switch.
 */
public final class CoreTopology {
    private CoreTopology() {
    }

    public static Topology build(NetworkConfig cfg, List<HostDto> tenantHosts) {
        Topology.Builder b = Topology.builder();
        Map<String, Long> fastest = new HashMap<>();
        for (NetworkConfig.Device d : cfg.devices.values()) {
            b.device(new Device(d.id, DeviceRole.valueOf(d.role.toUpperCase(Locale.ROOT)), d.pod == null ? 0 : d.pod, d.address.toString()));
        }
        for (NetworkConfig.Link l : cfg.links) {
            long bps = l.bandwidthMbps * 1_000_000L;
            b.cable(new ConnectPoint(l.a.device, l.a.port), new ConnectPoint(l.b.device, l.b.port), bps);
            fastest.merge(l.a.device, bps, Math::max);
            fastest.merge(l.b.device, bps, Math::max);
        }
        // a tenant's host claims the configuration's host with its MAC or name; a tenant's host at
        // the port of another host is a VM on that server (it shares the server's cable)
        Set<String> claimed = new HashSet<>();
        Map<ConnectPoint, String> serverAt = new HashMap<>();
        Map<String, NetworkConfig.Host> configAtPort = new HashMap<>();
        for (NetworkConfig.Host h : cfg.hosts) {
            configAtPort.put(h.location.device + "/" + h.location.port, h);
            if (h.bandwidthMbps > 0) {
                fastest.put(new ConnectPoint(h.location.device, h.location.port).toString(), h.bandwidthMbps * 1_000_000L);
            }
        }
        List<HostDto> vms = new java.util.ArrayList<>();
        for (HostDto h : tenantHosts) {
            ConnectPoint at = new ConnectPoint(h.location.device, h.location.port);
            NetworkConfig.Host server = configAtPort.get(h.location.device + "/" + h.location.port);
            boolean claims = server != null && (server.mac.equals(h.mac) || server.name.equals(h.id)) && !serverAt.containsKey(at);
            if (server != null && !claims) {
                vms.add(h);
                continue;
            }
            if (server != null) {
                claimed.add(server.name);
            }
            serverAt.put(at, h.id);
            addHost(b, fastest, new Host(h.id, h.ip, h.mac, at, h.tenantId));
        }
        for (NetworkConfig.Host h : cfg.hosts) {
            if (!claimed.contains(h.name)) {
                ConnectPoint at = new ConnectPoint(h.location.device, h.location.port);
                serverAt.put(at, h.name);
                addHost(b, fastest, new Host(h.name, h.ips.get(0), h.mac, at, null));
            }
        }
        for (HostDto h : vms) {
            ConnectPoint at = new ConnectPoint(h.location.device, h.location.port);
            b.host(new Host(h.id, h.ip, h.mac, at, h.tenantId, serverAt.get(at)));
        }
        return b.build();
    }

    /** {@code fastest}: by device id its fastest fabric link, by "device/port" a declared host link. */
    private static void addHost(Topology.Builder b, Map<String, Long> fastest, Host h) {
        b.host(h);
        long bps = fastest.getOrDefault(h.attachment().toString(), fastest.getOrDefault(h.attachment().elementId(), 0L));
        if (bps > 0) {
            b.cable(new ConnectPoint(h.id(), 0), h.attachment(), bps);
        }
    }
}
