package org.fairfabric.onos.platform;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.controller.netcfg.GrpcAddress;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Device;
import org.fairfabric.core.model.DeviceRole;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.onos.netcfg.FabricDeviceConfig;
import org.fairfabric.onos.netcfg.FabricHostConfig;
import org.onlab.packet.IpAddress;
import org.onosproject.net.AnnotationKeys;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.host.HostService;
import org.onosproject.net.link.LinkService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link FabricTopology} over ONOS: the switches with a valid {@code fairfabric} netcfg block (role,
 * pod), ONOS's links between them (capacity from the netcfg {@code basic.bandwidth}, Mbit/s; up
 * when ACTIVE), ONOS's hosts at their switch ports, and the tenants' hosts by the embedded
 * controller's rule (controller/core/CoreTopology): a tenant's host claims the ONOS host with its
 * MAC or name; one at the port of another host is a VM on that server. A host link gets the
 * capacity of the fastest fabric link of its switch. Rebuilt by {@link #refresh} on ONOS events.
 */
public final class OnosFabricTopology implements FabricTopology {
    private static final Logger LOG = LoggerFactory.getLogger(OnosFabricTopology.class);
    private final DeviceService devices;
    private final LinkService links;
    private final HostService hosts;
    private final NetworkConfigService netcfg;
    private final Supplier<List<HostDto>> tenantHosts;
    private volatile Topology topology;
    private volatile NetworkConfig configuration;

    public OnosFabricTopology(DeviceService devices, LinkService links, HostService hosts, NetworkConfigService netcfg,
                              Supplier<List<HostDto>> tenantHosts) {
        this.devices = devices;
        this.links = links;
        this.hosts = hosts;
        this.netcfg = netcfg;
        this.tenantHosts = tenantHosts;
    }

    /** Rebuilds the model from ONOS's services; returns it (the previous one stays if the new one is inconsistent). */
    public synchronized Topology refresh() {
        try {
            Topology t = build();
            configuration = configurationOf(t);
            topology = t;
        } catch (IllegalArgumentException e) {
            LOG.warn("ONOS's topology is not a consistent fabric, keeping the previous model: {}", e.getMessage());
        }
        return topology;
    }

    @Override
    public Topology topology() {
        return topology;
    }

    /**
     * The fabric as the embedded controller's network configuration (what its allocator reads),
     * from ONOS's view at the last {@link #refresh}: the model's switches (role, pod, P4Runtime
     * address), one cable per pair of ONOS links, and ONOS's hosts on them with the {@code shim} flag
     * of their {@code fairfabric} netcfg block. Null before the first model.
     */
    public NetworkConfig configuration() {
        return configuration;
    }

    private NetworkConfig configurationOf(Topology t) {
        Map<String, NetworkConfig.Device> devs = new java.util.LinkedHashMap<>();
        for (Device d : t.devices().values()) {
            GrpcAddress address;
            try {
                address = GrpcAddress.parse(d.address());
            } catch (IllegalArgumentException e) {
                address = new GrpcAddress("", 0, 0); // routerMac() reports the missing address
            }
            devs.put(d.id(), new NetworkConfig.Device(d.id(), d.role().name().toLowerCase(Locale.ROOT), address, null, d.pod()));
        }
        List<NetworkConfig.Link> cables = new ArrayList<>();
        Set<NetworkConfig.Point> linkPorts = new HashSet<>();
        Set<String> cableIds = new HashSet<>();
        for (Link l : t.links()) {
            NetworkConfig.Point a = new NetworkConfig.Point(l.src().elementId(), l.src().port());
            NetworkConfig.Point b = new NetworkConfig.Point(l.dst().elementId(), l.dst().port());
            String id = a.toString().compareTo(b.toString()) < 0 ? a + " " + b : b + " " + a;
            if (!devs.containsKey(a.device) || !devs.containsKey(b.device) || !cableIds.add(id)) {
                continue; // a host's cable, or the other direction of a cable already taken
            }
            linkPorts.add(a);
            linkPorts.add(b);
            cables.add(new NetworkConfig.Link(a, b, l.capacityBps() / 1_000_000L));
        }
        List<NetworkConfig.Host> servers = new ArrayList<>();
        for (org.onosproject.net.Host h : hosts.getHosts()) {
            String ip = ipv4(h);
            if (ip == null || !devs.containsKey(h.location().deviceId().toString())) {
                continue;
            }
            FabricHostConfig c = netcfg.getConfig(h.id(), FabricHostConfig.class);
            servers.add(new NetworkConfig.Host(h.mac().toString().toLowerCase(Locale.ROOT), name(h), List.of(ip),
                    new NetworkConfig.Point(h.location().deviceId().toString(), (int) h.location().port().toLong()),
                    c != null && c.isValid() && c.shim(), c != null && c.isValid() ? c.bandwidthMbps() : 0));
        }
        return new NetworkConfig(devs, Map.of(), cables, servers, linkPorts);
    }

    /**
     * Locally administered, from the switch's P4Runtime device id (the {@code device_id} of its
     * {@code basic.managementAddress}), as the embedded controller derives it.
     */
    @Override
    public String routerMac(String deviceId) {
        long id = p4DeviceId(deviceId);
        return String.format("02:aa:00:00:%02x:%02x", (id >> 8) & 0xff, id & 0xff);
    }

    long p4DeviceId(String deviceId) {
        org.onosproject.net.Device d = devices.getDevice(DeviceId.deviceId(deviceId));
        String address = d == null ? null : d.annotations().value(AnnotationKeys.MANAGEMENT_ADDRESS);
        if (address == null) {
            throw new IllegalArgumentException(deviceId + ": no basic.managementAddress (grpc://HOST:PORT?device_id=N)");
        }
        String query = URI.create(address).getQuery();
        if (query != null) {
            for (String kv : query.split("&")) {
                if (kv.startsWith("device_id=")) {
                    try {
                        return Long.parseLong(kv.substring("device_id=".length()));
                    } catch (NumberFormatException e) {
                        break;
                    }
                }
            }
        }
        throw new IllegalArgumentException(deviceId + ": managementAddress " + address + " has no numeric device_id");
    }

    private Topology build() {
        Topology.Builder b = Topology.builder();
        Set<String> fabric = new HashSet<>();
        for (org.onosproject.net.Device d : devices.getDevices()) {
            FabricDeviceConfig cfg = netcfg.getConfig(d.id(), FabricDeviceConfig.class);
            if (cfg == null || !cfg.isValid()) {
                continue;
            }
            String address = d.annotations().value(AnnotationKeys.MANAGEMENT_ADDRESS);
            b.device(new Device(d.id().toString(), DeviceRole.valueOf(cfg.role().toUpperCase(Locale.ROOT)), cfg.pod(),
                    address == null ? "" : address));
            fabric.add(d.id().toString());
        }
        Map<String, Long> fastest = new HashMap<>();
        for (org.onosproject.net.Link l : links.getLinks()) {
            String src = l.src().deviceId().toString();
            String dst = l.dst().deviceId().toString();
            if (!fabric.contains(src) || !fabric.contains(dst)) {
                continue;
            }
            long bps = capacityBps(l);
            b.link(new Link(new ConnectPoint(src, (int) l.src().port().toLong()),
                    new ConnectPoint(dst, (int) l.dst().port().toLong()), bps,
                    l.state() == org.onosproject.net.Link.State.ACTIVE ? LinkState.UP : LinkState.DOWN));
            fastest.merge(src, bps, Math::max);
        }

        // ONOS's hosts stand where the embedded controller has the configuration's hosts
        Map<String, org.onosproject.net.Host> onosAtPort = new HashMap<>();
        for (org.onosproject.net.Host h : hosts.getHosts()) {
            if (fabric.contains(h.location().deviceId().toString()) && ipv4(h) != null) {
                onosAtPort.put(at(h).toString(), h);
            }
        }
        for (org.onosproject.net.Host h : onosAtPort.values()) {
            FabricHostConfig c = netcfg.getConfig(h.id(), FabricHostConfig.class);
            if (c != null && c.isValid() && c.bandwidthMbps() > 0) {
                fastest.put(at(h).toString(), c.bandwidthMbps() * 1_000_000L);
            }
        }
        Set<org.onosproject.net.Host> claimed = new HashSet<>();
        Map<ConnectPoint, String> serverAt = new HashMap<>();
        List<HostDto> vms = new ArrayList<>();
        for (HostDto h : tenantHosts.get()) {
            ConnectPoint at = new ConnectPoint(h.location.device, h.location.port);
            org.onosproject.net.Host server = onosAtPort.get(at.toString());
            boolean claims = server != null && (server.mac().toString().equalsIgnoreCase(h.mac) || name(server).equals(h.id))
                    && !serverAt.containsKey(at);
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
        for (org.onosproject.net.Host h : onosAtPort.values()) {
            if (!claimed.contains(h)) {
                ConnectPoint at = at(h);
                serverAt.put(at, name(h));
                addHost(b, fastest, new Host(name(h), ipv4(h), h.mac().toString().toLowerCase(Locale.ROOT), at, null));
            }
        }
        for (HostDto h : vms) {
            ConnectPoint at = new ConnectPoint(h.location.device, h.location.port);
            b.host(new Host(h.id, h.ip, h.mac, at, h.tenantId, serverAt.get(at)));
        }
        return b.build();
    }

    private static void addHost(Topology.Builder b, Map<String, Long> fastest, Host h) {
        b.host(h);
        long bps = fastest.getOrDefault(h.attachment().toString(), fastest.getOrDefault(h.attachment().elementId(), 0L));
        if (bps > 0) {
            b.cable(new ConnectPoint(h.id(), 0), h.attachment(), bps);
        }
    }

    private static ConnectPoint at(org.onosproject.net.Host h) {
        return new ConnectPoint(h.location().deviceId().toString(), (int) h.location().port().toLong());
    }

    /** The host's netcfg {@code basic.name}, else its MAC. */
    static String name(org.onosproject.net.Host h) {
        String name = h.annotations().value(AnnotationKeys.NAME);
        return name == null ? h.mac().toString().toLowerCase(Locale.ROOT) : name;
    }

    private static String ipv4(org.onosproject.net.Host h) {
        for (IpAddress ip : h.ipAddresses()) {
            if (ip.isIp4()) {
                return ip.toString();
            }
        }
        return null;
    }

    /** The netcfg's {@code basic.bandwidth} (Mbit/s) in bit/s; 0 without one. */
    static long capacityBps(org.onosproject.net.Link l) {
        String mbps = l.annotations().value(AnnotationKeys.BANDWIDTH);
        if (mbps == null) {
            return 0;
        }
        try {
            return Math.round(Double.parseDouble(mbps) * 1e6);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
