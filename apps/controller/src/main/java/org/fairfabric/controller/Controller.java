package org.fairfabric.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.Server;
import org.fairfabric.api.dto.DeviceDto;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.error.ApiException;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.AllocationComponent;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.component.ProvisioningEvents;
import org.fairfabric.controller.emulation.EmulatedLinks;
import org.fairfabric.controller.emulation.EmulationRoutes;
import org.fairfabric.controller.gui.EventStream;
import org.fairfabric.controller.gui.FrontDoor;
import org.fairfabric.controller.gui.StaticFiles;
import org.fairfabric.controller.kafka.ControllerTopics;
import org.fairfabric.controller.routing.RoutingGroupsComponent;
import org.fairfabric.controller.kafka.KafkaEventPublisher;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.controller.p4rt.DeviceFleet;
import org.fairfabric.controller.p4rt.PipelineFiles;
import org.fairfabric.controller.persist.JournalStore;
import org.fairfabric.controller.rest.ApiRoutes;
import org.fairfabric.controller.rest.BearerAuth;
import org.fairfabric.controller.rest.HttpApi;
import org.fairfabric.controller.rest.HttpServer;
import org.fairfabric.controller.rest.OpenApiDocument;
import org.fairfabric.controller.monitor.ControllerMonitor;
import org.fairfabric.controller.monitor.MonitorRoutes;
import org.fairfabric.controller.monitor.MonitorView;

/** The embedded controller: journal-backed provisioning, the live network view, Kafka events and the REST API. */
public final class Controller implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Controller.class);
    public static final int EVENTS_KEPT = 10_000;

    private final JournalStore store;
    private final FabricService fabric;
    private final NetworkView network;
    private final KafkaEventPublisher kafka;
    private final Devices devices;
    private final ControlBus bus;
    private final AllocationComponent allocation;
    private final RoutingGroupsComponent routingGroups;
    /** vFab echo interval: a dead link is declared failed after three intervals without a reply. */
    public static final long ECHO_INTERVAL_MS = 250;
    /** The CPU port of fairfabric's switches (p4switch --cpu-port, the pipeline's CPU_PORT). */
    public static final int CPU_PORT = 255;
    /** Queue-depth Δ (packets) sensed on every uplink: P4TE Algorithm 1's reporting step. */
    public static final int QUEUE_DELTA = 10;
    private final Server http;
    private final String baseUrl;

    private Controller(JournalStore store, FabricService fabric, NetworkView network, KafkaEventPublisher kafka, Devices devices,
                       ControlBus bus, AllocationComponent allocation, RoutingGroupsComponent routingGroups, Server http,
                       String baseUrl) {
        this.store = store;
        this.fabric = fabric;
        this.network = network;
        this.kafka = kafka;
        this.devices = devices;
        this.bus = bus;
        this.allocation = allocation;
        this.routingGroups = routingGroups;
        this.http = http;
        this.baseUrl = baseUrl;
    }

    /**
     * Starts the controller: the journal and the REST services, the platform (P4Runtime fleet,
     * slice composer, packet I/O, topology), the components on their bus, then the configuration
     * and the HTTP server.
     */
    public static Controller start(ControllerSettings s) {
        JournalStore store = JournalStore.open(s.dataDir);
        KafkaEventPublisher kafka = null;
        ControlBus bus = new ControlBus();
        Devices devices = null;
        Server server = null;
        ControllerMonitor monitor = null;
        try {
            PipelineFiles pipeline = s.p4info == null ? null : PipelineFiles.read(s.p4info, s.p4DeviceConfig);
            EventLog events = new EventLog(Clock.systemUTC(), EVENTS_KEPT);
            if (s.kafka != null) {
                kafka = new KafkaEventPublisher(s.kafka, ControllerTopics.DEFAULT_PREFIX);
                events.addSink(kafka);
                monitor = new ControllerMonitor(s.kafka);
            }
            NetworkConfigParser parser = new NetworkConfigParser();
            FabricService fabric = new FabricService(store, parser, events);
            NetworkView network = new NetworkView(events);
            Platform platform = new Platform(fabric, pipeline);
            fabric.setAdmission(new org.fairfabric.controller.guarantee.TwoStageAdmission(platform.topology::configuration,
                    () -> org.fairfabric.controller.guarantee.TwoStageAdmission.downLinks(network), s.headroom));
            Components components = Components.start(bus, platform, fabric, network, events, s);
            devices = new Devices(network, pipeline, DeviceAgent.electionIdNow(), platform::onPacketIn, (cfg, fleet) -> {
                platform.slices.fleetReplaced(fleet);
                bus.post(new ControlEvent.TopologyChanged(platform.topology.configurationApplied(cfg), true));
                bus.sync(); // every slice is handed to the new agents before they connect
            }, s.p4rtSecurity);
            Devices devs = devices;
            events.addSink(new ProvisioningEvents(bus, platform.topology::hostsChanged));
            events.addSink(e -> {
                if (e.type.equals(EventTypes.NETWORK_CONFIG_UPDATED)) {
                    // off the event thread: reconnecting closes agents, whose callbacks emit events too
                    devs.applyLater(() -> fabric.networkConfig().map(parser::parse).orElseThrow());
                }
            });
            fabric.networkConfig().ifPresent(json -> devs.apply(parser.parse(json)));
            if (s.netcfg != null) {
                String json = Files.readString(s.netcfg);
                if (!fabric.networkConfig().map(json::equals).orElse(false)) {
                    try {
                        fabric.putNetworkConfig(json);
                    } catch (ApiException e) {
                        throw new IllegalArgumentException(s.netcfg + ": " + e.getMessage(), e);
                    }
                }
            }
            devs.sync();
            if (monitor != null) {
                bus.register(monitor.dataplaneEvents());
                monitor.start(fabric, network, events, platform.topology::configuration,
                        () -> devs.fleet() == null ? java.util.Map.of() : devs.fleet().agents(),
                        pipeline == null ? null : pipeline.p4info, s.fack.enabled(), components.allocation);
            }
            bus.sync();
            List<org.fairfabric.controller.rest.Route> routes = new ArrayList<>(ApiRoutes.all(fabric, network, OpenApiDocument.load()));
            routes.add(EmulationRoutes.linkState(new EmulatedLinks(fabric, network)));
            routes = MonitorRoutes.with(routes, monitor == null ? new MonitorView() : monitor.view(), fabric);
            server = HttpServer.create(s.httpHost, s.httpPort, new FrontDoor(new HttpApi(routes, new BearerAuth(s.apiToken)),
                    new EventStream(fabric, network), new StaticFiles(StaticFiles.configuredRoot())), s.https);
            server.start();
            String url = (s.https == null ? "http://" : "https://") + s.httpHost + ":" + HttpServer.localPort(server);
            Controller c = new Controller(store, fabric, network, kafka, devices, bus, components.allocation,
                    components.routingGroups, server, url);
            c.monitor = monitor;
            return c;
        } catch (Exception e) {
            stopQuietly(server);
            bus.close();
            if (monitor != null) {
                monitor.close();
            }
            if (devices != null) {
                devices.close();
            }
            if (kafka != null) {
                kafka.close();
            }
            store.close();
            if (e instanceof IOException) {
                throw new UncheckedIOException((IOException) e);
            }
            if (e instanceof RuntimeException) {
                throw (RuntimeException) e;
            }
            throw new IllegalStateException(e);
        }
    }

    /** The MAC of a host address: tenants' hosts first, then the configuration's hosts. */
    static java.util.Optional<String> macOfIp(FabricService fabric, NetworkConfig cfg, String ip) {
        for (org.fairfabric.api.dto.HostDto h : fabric.allHosts()) {
            if (h.ip.equals(ip)) {
                return java.util.Optional.of(h.mac);
            }
        }
        if (cfg != null) {
            for (NetworkConfig.Host h : cfg.hosts) {
                if (h.ips.contains(ip)) {
                    return java.util.Optional.of(h.mac);
                }
            }
        }
        return java.util.Optional.empty();
    }

    /** Devices start unavailable until their P4Runtime session is up; links start up. */
    public static void resetTopology(NetworkView network, NetworkConfig cfg) {
        List<DeviceDto> devices = new ArrayList<>();
        cfg.devices.values().forEach(d -> devices.add(new DeviceDto(d.id, d.role, d.address.toString(), false)));
        List<LinkDto> links = new ArrayList<>();
        for (NetworkConfig.Link l : cfg.links) {
            LocationDto a = new LocationDto(l.a.device, l.a.port);
            LocationDto b = new LocationDto(l.b.device, l.b.port);
            links.add(new LinkDto(a, b, l.bandwidthMbps * 1_000_000L, 0, true));
            links.add(new LinkDto(b, a, l.bandwidthMbps * 1_000_000L, 0, true));
        }
        network.resetTopology(devices, links);
    }

    public String baseUrl() {
        return baseUrl;
    }

    public FabricService fabric() {
        return fabric;
    }

    public NetworkView network() {
        return network;
    }

    public List<org.fairfabric.controller.rest.Route> routes() {
        return ((FrontDoor) http.getHandler()).routes();
    }

    private static void stopQuietly(Server server) {
        if (server != null) {
            try {
                server.stop();
            } catch (Exception ignored) {
                // already failing; the original error is reported
            }
        }
    }

    private boolean closed;
    /** The controller side of the central monitor (null without Kafka). */
    private ControllerMonitor monitor;

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopQuietly(http);
        bus.close();
        if (monitor != null) {
            monitor.close();
        }
        devices.close();
        if (kafka != null) {
            kafka.close();
        }
        store.close();
    }

    /** The allocation component (weighted proportional-fair rates, their enforcement entries and rates tables). */
    public AllocationComponent allocation() {
        return allocation;
    }

    /** The routing-groups component (the P4TE loop); null without the fabric pipeline. */
    public RoutingGroupsComponent routingGroups() {
        return routingGroups;
    }

    /** The components' bus (to wait until they have handled what happened so far). */
    public ControlBus bus() {
        return bus;
    }

    /** The P4Runtime connections of the current network configuration. */
    public DeviceFleet fleet() {
        return devices.fleet();
    }
}
