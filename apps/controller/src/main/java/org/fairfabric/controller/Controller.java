package org.fairfabric.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Server;
import org.fairfabric.api.dto.DeviceDto;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.error.ApiException;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.AllocationService;
import org.fairfabric.controller.arp.ArpService;
import org.fairfabric.controller.emulation.EmulatedLinks;
import org.fairfabric.controller.emulation.EmulationRoutes;
import org.fairfabric.controller.gui.EventStream;
import org.fairfabric.controller.gui.FrontDoor;
import org.fairfabric.controller.gui.StaticFiles;
import org.fairfabric.controller.kafka.ControllerTopics;
import org.fairfabric.controller.kafka.KafkaEventPublisher;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.netcfg.NetworkConfigParser;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.controller.p4rt.DeviceFleet;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.p4rt.PacketIo;
import org.fairfabric.controller.program.FabricEventHandler;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.controller.program.FabricProgrammer;
import org.fairfabric.controller.program.LinkProber;
import org.fairfabric.controller.p4rt.PipelineFiles;
import org.fairfabric.controller.persist.JournalStore;
import org.fairfabric.controller.rest.ApiRoutes;
import org.fairfabric.controller.rest.BearerAuth;
import org.fairfabric.controller.rest.HttpApi;
import org.fairfabric.controller.rest.HttpServer;
import org.fairfabric.controller.rest.OpenApiDocument;

/** The embedded controller: journal-backed provisioning, the live network view, Kafka events and the REST API. */
public final class Controller implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Controller.class);
    public static final int EVENTS_KEPT = 10_000;

    private final JournalStore store;
    private final FabricService fabric;
    private final NetworkView network;
    private final KafkaEventPublisher kafka;
    private final Devices devices;
    private final FabricProgrammer programmer;
    private final LinkProber prober;
    private final AllocationService allocation;
    /** vFab echo interval: a dead link is declared failed after three intervals without a reply. */
    public static final long ECHO_INTERVAL_MS = 250;
    /** The CPU port of fairfabric's switches (p4switch --cpu-port, the pipeline's CPU_PORT). */
    public static final int CPU_PORT = 255;
    /** Queue-depth Δ (packets) sensed on every uplink: P4TE Algorithm 1's reporting step. */
    public static final int QUEUE_DELTA = 10;
    private final Server http;
    private final String baseUrl;

    private Controller(JournalStore store, FabricService fabric, NetworkView network, KafkaEventPublisher kafka, Devices devices,
                       FabricProgrammer programmer, LinkProber prober, AllocationService allocation, Server http, String baseUrl) {
        this.allocation = allocation;
        this.programmer = programmer;
        this.prober = prober;
        this.devices = devices;
        this.store = store;
        this.fabric = fabric;
        this.network = network;
        this.kafka = kafka;
        this.http = http;
        this.baseUrl = baseUrl;
    }

    public static Controller start(ControllerSettings s) {
        BearerAuth auth = new BearerAuth(s.apiToken);
        JournalStore store = JournalStore.open(s.dataDir);
        KafkaEventPublisher kafka = null;
        LinkProber prober = null;
        AllocationService allocation = null;
        Server server = null;
        Devices devices = null;
        try {
            PipelineFiles pipeline = s.p4info == null ? null : PipelineFiles.read(s.p4info, s.p4DeviceConfig);
            NetworkConfigParser parser = new NetworkConfigParser();
            EventLog events = new EventLog(Clock.systemUTC(), EVENTS_KEPT);
            if (s.kafka != null) {
                kafka = new KafkaEventPublisher(s.kafka, ControllerTopics.DEFAULT_PREFIX);
                events.addSink(kafka);
            }
            FabricService fabric = new FabricService(store, parser, events);
            NetworkView network = new NetworkView(events);
            AtomicReference<Devices> devsRef = new AtomicReference<>();
            AtomicReference<NetworkConfig> current = new AtomicReference<>();
            P4InfoIndex p4 = pipeline == null ? null : new P4InfoIndex(pipeline.p4info);
            boolean fabricPipeline = p4 != null && FabricPlan.isFabricPipeline(p4);
            if (p4 != null && !fabricPipeline) {
                LOG.warn("the pipeline is not the fabric pipeline (pipeconfs/p4/fabric.p4): it is pushed, but no forwarding is programmed");
            }
            FabricProgrammer programmer = !fabricPipeline ? null : new FabricProgrammer(
                    new FabricPlan(p4, CPU_PORT, QUEUE_DELTA), network, fabric::allHosts);
            FabricEventHandler feedback = programmer == null ? null
                    : new FabricEventHandler(new PacketIo(pipeline.p4info), programmer::onMetricEvent, programmer::onPortFailure);
            prober = programmer == null ? null
                    : new LinkProber(new PacketIo(pipeline.p4info), programmer::probeTargets, programmer::agents);
            allocation = new AllocationService(fabric, network, events, current::get, p4,
                    programmer == null ? null : programmer::setAllocationEntities, s.kafka);
            AllocationService alloc = allocation;
            ArpService arp = pipeline == null ? null : new ArpService(new PacketIo(pipeline.p4info),
                    ip -> macOfIp(fabric, current.get(), ip), id -> devsRef.get().fleet().agent(id));
            Devices devs = new Devices(network, pipeline, DeviceAgent.electionIdNow(), (device, packet, received) -> {
                if (arp != null) {
                    arp.onPacketIn(device, packet);
                }
                if (feedback != null) {
                    feedback.onPacketIn(device, packet, received);
                }
            }, (cfg, fleet) -> {
                current.set(cfg);
                if (programmer != null) {
                    programmer.configurationApplied(cfg, fleet);
                }
                alloc.changed("network configuration applied");
            }, s.p4rtSecurity);
            devsRef.set(devs);
            devices = devs;
            events.addSink(e -> {
                if (programmer != null && (e.type.equals(EventTypes.HOST_ADDED) || e.type.equals(EventTypes.HOST_REMOVED)
                        || e.type.equals(EventTypes.TENANT_DELETED))) {
                    programmer.hostsChanged();
                }
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
            if (programmer != null) {
                programmer.sync();
                prober.start(s.echoIntervalMs);
            }
            List<org.fairfabric.controller.rest.Route> routes = new ArrayList<>(ApiRoutes.all(fabric, network, OpenApiDocument.load()));
            routes.add(EmulationRoutes.linkState(new EmulatedLinks(fabric, network)));
            server = HttpServer.create(s.httpHost, s.httpPort,
                    new FrontDoor(new HttpApi(routes, auth), new EventStream(fabric, network), new StaticFiles(StaticFiles.configuredRoot())), s.https);
            server.start();
            String url = (s.https == null ? "http://" : "https://") + s.httpHost + ":" + HttpServer.localPort(server);
            return new Controller(store, fabric, network, kafka, devices, programmer, prober, allocation, server, url);
        } catch (Exception e) {
            stopQuietly(server);
            if (allocation != null) {
                allocation.close();
            }
            if (prober != null) {
                prober.close();
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

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopQuietly(http);
        if (prober != null) {
            prober.close();
        }
        allocation.close();
        if (programmer != null) {
            programmer.close();
        }
        devices.close();
        if (kafka != null) {
            kafka.close();
        }
        store.close();
    }

    /** The allocation loop (weighted proportional-fair rates, their enforcement entries and rates tables). */
    public AllocationService allocation() {
        return allocation;
    }

    /** The P4Runtime connections of the current network configuration. */
    public DeviceFleet fleet() {
        return devices.fleet();
    }
}
