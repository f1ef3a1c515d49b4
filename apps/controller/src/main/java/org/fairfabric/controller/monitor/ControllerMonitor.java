package org.fairfabric.controller.monitor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.api.dto.SessionDto;
import org.fairfabric.api.error.ApiException;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.AllocationComponent;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.kafka.KafkaClients;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.core.routing.MetricEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.config.v1.P4InfoOuterClass.P4Info;

/**
 * The controller side of the central monitor (docs/monitor.md, "Controller side"), one object
 * for the wiring: the port-stats poller, the data-plane event and catalog publishers, and the
 * view reader that feeds detected sessions to the allocator and measured loads to the topology.
 */
public final class ControllerMonitor implements AutoCloseable {
    /** The port-stats period T in ms (environment; default 1000). */
    public static final String PERIOD_ENV = "FAIRFABRIC_PORTSTATS_PERIOD_MS";
    private static final Logger LOG = LoggerFactory.getLogger(ControllerMonitor.class);

    private final String bootstrap;
    private final KafkaProducer<String, String> producer;
    private final DataplaneEventPublisher dataplane;
    private final MonitorView view = new MonitorView();
    private PortStatsPoller poller;
    private CatalogPublisher catalog;
    private MonitorViewReader reader;

    public ControllerMonitor(String bootstrap) {
        this.bootstrap = bootstrap;
        List<NewTopic> topics = new ArrayList<>();
        topics.add(new NewTopic(MonitorTopicNames.PORTSTATS, 1, (short) 1));
        topics.add(new NewTopic(MonitorTopicNames.DATAPLANE_EVENTS, 1, (short) 1));
        topics.add(new NewTopic(MonitorTopicNames.CATALOG, 1, (short) 1).configs(Map.of("cleanup.policy", "compact")));
        KafkaClients.createTopics(bootstrap, topics);
        producer = KafkaClients.reliableProducer(bootstrap, "fairfabric-controller-monitor", 5);
        dataplane = new DataplaneEventPublisher(producer, MonitorTopicNames.DATAPLANE_EVENTS);
    }

    public static long periodMs(Map<String, String> env) {
        String v = env.get(PERIOD_ENV);
        if (v == null || v.isBlank()) {
            return 1000;
        }
        try {
            long ms = Long.parseLong(v.trim());
            if (ms > 0) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(PERIOD_ENV + " must be a whole number of ms > 0, not '" + v + "'");
    }

    /** The bus component that publishes the data-plane reports (register it on the control bus). */
    public Component dataplaneEvents() {
        return new DataplaneEventsComponent(this);
    }

    public MonitorView view() {
        return view;
    }

    /** A vFab failure report received as a packet-in. */
    public void portFailure(String device, int port, boolean failed) {
        dataplane.portState(device, port, !failed);
    }

    /** A P4TE gradient event received as a packet-in. */
    public void metricEvent(MetricEvent e) {
        String metric = switch (e.metric()) {
            case DELAY -> "hop-delay";
            case QUEUE_DEPTH -> "queue-depth";
            case LINK_UTILIZATION -> "link-utilisation";
        };
        dataplane.gradient(e.deviceId(), e.port(), metric, e.trend().toString().toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * Starts the poller (when the pipeline has the port counters), the catalog and the view reader.
     *
     * @param agents the connected switches
     * @param facks  whether the controller runs FACK: the poller then reads the FACK counters too
     */
    public void start(FabricService fabric, NetworkView network, EventLog events, Supplier<NetworkConfig> config,
                      Supplier<Map<String, DeviceAgent>> agents, P4Info p4info, boolean facks,
                      AllocationComponent allocation) {
        Optional<PortCounterIds> ids = p4info == null ? Optional.empty() : PortCounterIds.of(p4info)
                .map(found -> facks ? found : found.withoutFacks());
        if (ids.isPresent()) {
            poller = new PortStatsPoller(agents, device -> ports(config.get(), device), ids.get(), producer,
                    MonitorTopicNames.PORTSTATS, periodMs(System.getenv()));
            poller.start();
        } else {
            LOG.warn("the pipeline has no per-port counters (port_rx_counter, port_tx_counter, port_drop_counter,"
                    + " port_qdepth): no port stats are published");
        }
        catalog = new CatalogPublisher(() -> {
            synchronized (fabric) {
                List<SessionDto> sessions = new ArrayList<>(fabric.sessions());
                sessions.addAll(view.detectedSessions(fabric.allHosts(), fabric.sessions()));
                return CatalogBuilder.build(config.get(), fabric.tenants(), fabric.allHosts(), sessions,
                        network.allocations());
            }
        }, producer, MonitorTopicNames.CATALOG);
        events.addSink(this::onEvent);
        catalog.changed();
        allocation.setDetectedSessions(in -> view.detectedSessions(in.hosts(), in.sessions()));
        allocation.setIdleSessions(in -> view.idleSessions(in.hosts(), in.sessions()));
        reader = new MonitorViewReader(bootstrap, "", view, () -> {
            allocation.changed("monitor: the active sessions changed");
            catalog.changed();
        }, (linkId, link) -> {
            JsonLoad.load(link).ifPresent(load -> {
                try {
                    network.setLinkLoad(linkId.replace("->", "-"), load);
                } catch (ApiException notInTopology) {
                    // host links are not in the REST topology
                }
            });
        });
        reader.start();
    }

    /** The configuration in force changed. */
    void topologyChanged() {
        if (catalog != null) {
            catalog.changed();
        }
    }

    private void onEvent(EventDto e) {
        if (e.type.startsWith("tenant.") || e.type.startsWith("host.") || e.type.startsWith("session.")
                || e.type.equals(EventTypes.ALLOCATION_UPDATED) || e.type.equals(EventTypes.LINK_STATE)
                || e.type.equals(EventTypes.NETWORK_CONFIG_UPDATED)) {
            catalog.changed();
        }
    }

    /** The ports of a device that have a link or a host in the configuration. */
    static Collection<Integer> ports(NetworkConfig cfg, String device) {
        TreeSet<Integer> ports = new TreeSet<>();
        if (cfg == null) {
            return ports;
        }
        for (NetworkConfig.Link l : cfg.links) {
            if (l.a.device.equals(device)) {
                ports.add(l.a.port);
            }
            if (l.b.device.equals(device)) {
                ports.add(l.b.port);
            }
        }
        for (NetworkConfig.Host h : cfg.hosts) {
            if (h.location.device.equals(device)) {
                ports.add(h.location.port);
            }
        }
        return ports;
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
        }
        if (poller != null) {
            poller.close();
        }
        if (catalog != null) {
            catalog.close();
        }
        producer.close();
    }
}
