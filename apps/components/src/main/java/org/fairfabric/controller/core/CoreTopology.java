package org.fairfabric.controller.core;

import java.util.ArrayList;
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
 * own, and its traffic shares the server's. A host link gets the capacity of
 * the fastest fabric link of its switch (the configuration has no host-link capacity).
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
        List<Server> servers = new ArrayList<>();
        for (NetworkConfig.Host h : cfg.hosts) {
            servers.add(new Server(h.name, h.ips.get(0), h.mac, new ConnectPoint(h.location.device, h.location.port)));
        }
        addHosts(b, fastest, servers, tenantHosts);
        return b.build();
    }

    /** A host the platform knows at a switch port (the configuration's, or ONOS's). */
    public static final class Server {
        final String name;
        final String ip;
        final String mac;
        final ConnectPoint at;

        public Server(String name, String ip, String mac, ConnectPoint at) {
            this.name = name;
            this.ip = ip;
            this.mac = mac;
            this.at = at;
        }
    }

    /**
     * Adds the hosts: a tenant's host claims the platform's host at its port with its MAC or name;
     * a tenant's host at the port of a host it does not claim is a VM on that server (it shares
     * the server's cable); platform hosts nobody claimed stay, without a tenant. {@code fastest}:
     * the fastest fabric link of each switch, the capacity its host links get.
     */
    public static void addHosts(Topology.Builder b, Map<String, Long> fastest, List<Server> servers, List<HostDto> tenantHosts) {
        Map<ConnectPoint, Server> serverAtPort = new HashMap<>();
        for (Server s : servers) {
            serverAtPort.put(s.at, s);
        }
        Set<Server> claimed = new HashSet<>();
        Map<ConnectPoint, String> serverAt = new HashMap<>();
        List<HostDto> vms = new ArrayList<>();
        for (HostDto h : tenantHosts) {
            ConnectPoint at = new ConnectPoint(h.location.device, h.location.port);
            Server server = serverAtPort.get(at);
            boolean claims = server != null && (server.mac.equalsIgnoreCase(h.mac) || server.name.equals(h.id)) && !serverAt.containsKey(at);
            if (server != null && !claims) {
                vms.add(h);
                continue;
            }
            if (server != null) {
                claimed.add(server);
            }
            serverAt.put(at, h.id);
            addHost(b, fastest, new Host(h.id, h.ip, h.mac, at, h.tenantId));
        }
        for (Server s : servers) {
            if (!claimed.contains(s)) {
                serverAt.put(s.at, s.name);
                addHost(b, fastest, new Host(s.name, s.ip, s.mac, s.at, null));
            }
        }
        for (HostDto h : vms) {
            ConnectPoint at = new ConnectPoint(h.location.device, h.location.port);
            b.host(new Host(h.id, h.ip, h.mac, at, h.tenantId, serverAt.get(at)));
        }
    }

    private static void addHost(Topology.Builder b, Map<String, Long> fastest, Host h) {
        b.host(h);
        long bps = fastest.getOrDefault(h.attachment().elementId(), 0L);
        if (bps > 0) {
            b.cable(new ConnectPoint(h.id(), 0), h.attachment(), bps);
        }
    }
}
