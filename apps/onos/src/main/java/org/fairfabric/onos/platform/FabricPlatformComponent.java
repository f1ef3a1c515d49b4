package org.fairfabric.onos.platform;

import static org.fairfabric.onos.platform.OsgiPropertyConstants.CAPACITY_HEADROOM_DEFAULT;
import static org.fairfabric.onos.platform.OsgiPropertyConstants.CAPACITY_HEADROOM_PROPERTY;
import static org.fairfabric.onos.platform.OsgiPropertyConstants.KAFKA_BOOTSTRAP_DEFAULT;
import static org.fairfabric.onos.platform.OsgiPropertyConstants.KAFKA_BOOTSTRAP_PROPERTY;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.api.service.EventSink;
import org.fairfabric.controller.alloc.KafkaRatesSink;
import org.fairfabric.controller.alloc.RatesSink;
import org.fairfabric.controller.kafka.ControllerTopics;
import org.fairfabric.controller.kafka.KafkaEventPublisher;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.alloc.CapacityHeadroom;
import org.fairfabric.controller.routing.RoutingMode;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.DeviceProgramming;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.core.platform.PacketService;
import org.fairfabric.onos.fabric.FairfabricService;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;
import org.onosproject.store.cluster.messaging.ClusterCommunicationService;
import org.onosproject.cfg.ComponentConfigService;
import org.onosproject.core.CoreService;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.host.HostEvent;
import org.onosproject.net.host.HostListener;
import org.onosproject.net.host.HostService;
import org.onosproject.net.link.LinkEvent;
import org.onosproject.net.link.LinkListener;
import org.onosproject.net.link.LinkService;
import org.onosproject.net.packet.PacketProcessor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * fairfabric's platform inside ONOS: builds the adapters ({@link OnosFabricTopology},
 * {@link OnosDeviceProgramming}, {@link OnosPackets}), runs for leadership of
 * {@value #LEADERSHIP_TOPIC}. On the leader it runs the controller's components
 * ({@link ComponentsRunner}: forwarding, routing groups, failure handling, probing, the allocator
 * with its pinned-path entries, the guarantees' AQ entries — the embedded controller's graph), tells them the fabric's model whenever ONOS's devices, links, hosts or
 * network configuration or the tenants' hosts change, and programs every registered
 * {@link SliceProgram} then (and once when it becomes leader, which also removes what a former
 * leader left stale). Losing leadership stops the components. Followers compute and write nothing;
 * the flow rule and group stores are ONOS's, so they survive a change of leader. All work runs on
 * one thread of its own, never on ONOS's event threads.
 *
 * <p>With the {@value #KAFKA_BOOTSTRAP} property set (Kafka's {@code host:port[,host:port...]}), the
 * leader also publishes to Kafka as in embedded mode: rates tables on
 * {@code ff.ctl.rates.v1} and dead-path tables on {@code ff.ctl.deadpaths.v1} (docs/kafka.md),
 * through the embedded controller's {@link KafkaRatesSink}, and the events of this node's event
 * log on the controller topics ({@code ff.ctl.tenants.v1}, ... through {@link KafkaEventPublisher}). Empty (the default): nothing is
 * published. Set it with
 * {@code cfg set org.fairfabric.onos.platform.FabricPlatformComponent kafkaBootstrap host:9092}.
 *
 * <p>{@value #CAPACITY_HEADROOM} (0 by default, at most 0.5) is the embedded controller's
 * {@code --headroom}: the share of every link the allocator leaves free (docs/controller.md,
 * "Capacity headroom"); a change restarts the leader's components with it.
 */
@Component(immediate = true, service = FabricPlatform.class, property = {KAFKA_BOOTSTRAP_PROPERTY + ":String=" + KAFKA_BOOTSTRAP_DEFAULT,
        CAPACITY_HEADROOM_PROPERTY + ":Double=" + CAPACITY_HEADROOM_DEFAULT})
public class FabricPlatformComponent implements FabricPlatform {
    public static final String LEADERSHIP_TOPIC = "org.fairfabric.programming";
    /** The component property naming the Kafka brokers; empty: no Kafka. */
    public static final String KAFKA_BOOTSTRAP = KAFKA_BOOTSTRAP_PROPERTY;
    /** The component property: the share of every link the allocator leaves free. */
    public static final String CAPACITY_HEADROOM = CAPACITY_HEADROOM_PROPERTY;
    private static final Pattern BOOTSTRAP = Pattern.compile("[^\\s,:]+:\\d{1,5}(,[^\\s,:]+:\\d{1,5})*");
    private static final Logger LOG = LoggerFactory.getLogger(FabricPlatformComponent.class);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LinkService linkService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected HostService hostService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService netcfgService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GroupService groupService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected org.onosproject.net.packet.PacketService packetService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LeadershipService leadershipService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterCommunicationService clusterCommunicator;
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FairfabricService fairfabric;
    /** Lists {@value #KAFKA_BOOTSTRAP} for ONOS's {@code cfg}; absent in tests. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL)
    protected ComponentConfigService cfgService;

    private final List<SliceProgram> programs = new CopyOnWriteArrayList<>();
    private final DeviceListener deviceListener = e -> {
        if (e.type() != DeviceEvent.Type.PORT_STATS_UPDATED) {
            reprogram();
        }
    };
    private final LinkListener linkListener = e -> reprogram();
    private final HostListener hostListener = e -> reprogram();
    private final NetworkConfigListener netcfgListener = e -> reprogram();
    private final LeadershipEventListener leadershipListener = this::leadershipChanged;

    private ExecutorService worker;
    private OnosFabricTopology topology;
    private OnosDeviceProgramming programming;
    private OnosPackets packets;
    private PacketProcessor processor;
    private P4InfoIndex p4;
    /** The components while this node leads; only the worker thread touches it. */
    private ComponentsRunner runner;
    private NodeId localNode;
    /** The node that leads now, null when none is known; packet-ins of switches this node masters go there. */
    private volatile NodeId leaderNode;
    private volatile boolean leader;
    /** Hands relayed packet-ins to the components, off ONOS's messaging threads. */
    private ExecutorService relayed;
    private volatile boolean active;
    /** Kafka brokers (host:port[,host:port...]) the leader publishes rates and dead paths to; empty: none. */
    private volatile String kafkaBootstrap;
    /** The share of every link the leader's allocator leaves free. */
    private volatile CapacityHeadroom capacityHeadroom = CapacityHeadroom.NONE;
    /** Opens the leader's Kafka sinks (tests record instead). */
    SinkOpener sinks = KafkaRatesSink::new;
    /** Opens the leader's publisher of the controller events on ff.ctl.* (tests record instead). */
    EventsOpener eventPublishers = bootstrap -> new KafkaEventPublisher(bootstrap, ControllerTopics.DEFAULT_PREFIX);
    /** The leader's event publisher while it runs its components with Kafka; null otherwise. */
    private volatile EventSink eventsOut;

    /** A publisher of the controller's events to the brokers {@code bootstrap} (closed with the components). */
    interface EventsOpener {
        EventSink open(String bootstrap);
    }

    /** A sink of tables keyed by host on {@code topic} of the brokers {@code bootstrap}. */
    interface SinkOpener {
        RatesSink open(String bootstrap, String topic, String clientId, String what);
    }

    @Activate
    protected void activate(Map<String, Object> properties) {
        if (cfgService != null) {
            cfgService.registerProperties(getClass());
        }
        kafkaBootstrap = bootstrapOf(properties, null);
        capacityHeadroom = headroomOf(properties, CapacityHeadroom.NONE);
        worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "fairfabric-programming"));
        localNode = clusterService.getLocalNode().id();
        topology = new OnosFabricTopology(deviceService, linkService, hostService, netcfgService,
                () -> fairfabric.fabric().allHosts());
        P4Info p4info = P4InfoNames.pipeconfP4Info();
        p4 = new P4InfoIndex(p4info);
        programming = new OnosDeviceProgramming(coreService, deviceService, flowRuleService, groupService,
                new EntityTranslator(new P4InfoNames(p4info)));
        packets = new OnosPackets(packetService, deviceService);
        packets.relayTo(this::relayToLeader);
        relayed = Executors.newSingleThreadExecutor(r -> new Thread(r, "fairfabric-packet-relay"));
        clusterCommunicator.addSubscriber(RelayedPacketIn.SUBJECT, FabricPlatformComponent::relayedOrNull, p -> {
            if (p != null) {
                packets.deliver(p);
            }
        }, relayed);
        processor = packets;
        packetService.addProcessor(processor, PacketProcessor.director(2));
        fairfabric.fabric().events().addSink(this::fabricEvent);
        deviceService.addListener(deviceListener);
        linkService.addListener(linkListener);
        hostService.addListener(hostListener);
        netcfgService.addListener(netcfgListener);
        leadershipService.addListener(leadershipListener);
        active = true;
        Leadership l = leadershipService.runForLeadership(LEADERSHIP_TOPIC);
        setLeader(l == null ? null : l.leaderNodeId());
        reprogram();
        LOG.info("Started on {} ({})", localNode, leader ? "leader" : "follower");
    }

    /**
     * A changed {@value #KAFKA_BOOTSTRAP} or {@value #CAPACITY_HEADROOM} restarts the leader's
     * components with the new sinks or headroom. A malformed value is logged and changes nothing.
     */
    @Modified
    protected void modified(Map<String, Object> properties) {
        String before = kafkaBootstrap;
        String now = bootstrapOf(properties, before);
        CapacityHeadroom headroomBefore = capacityHeadroom;
        CapacityHeadroom headroomNow = headroomOf(properties, headroomBefore);
        if (java.util.Objects.equals(before, now) && headroomBefore.equals(headroomNow)) {
            return;
        }
        kafkaBootstrap = now;
        capacityHeadroom = headroomNow;
        LOG.info("{} is now {}, {} {}", KAFKA_BOOTSTRAP, now == null ? "off" : now, CAPACITY_HEADROOM, headroomNow);
        ExecutorService w = worker;
        if (w != null && !w.isShutdown()) {
            w.execute(this::stopComponents);
        }
        reprogram();
    }

    /** The brokers named by the properties; {@code current} when the value is malformed. */
    static String bootstrapOf(Map<String, Object> properties, String current) {
        Object v = properties == null ? null : properties.get(KAFKA_BOOTSTRAP);
        String s = v == null ? "" : v.toString().trim();
        if (s.isEmpty()) {
            return null;
        }
        if (!BOOTSTRAP.matcher(s).matches()) {
            LOG.error("{} '{}' ignored: expected host:port[,host:port...]; still {}", KAFKA_BOOTSTRAP, s,
                    current == null ? "off" : current);
            return current;
        }
        return s;
    }

    /** The headroom the properties set (absent: none); {@code current} when the value is malformed. */
    static CapacityHeadroom headroomOf(Map<String, Object> properties, CapacityHeadroom current) {
        Object v = properties == null ? null : properties.get(CAPACITY_HEADROOM);
        if (v == null || v.toString().isBlank()) {
            return CapacityHeadroom.NONE;
        }
        try {
            return CapacityHeadroom.parse(CAPACITY_HEADROOM, v.toString().trim());
        } catch (IllegalArgumentException e) {
            LOG.error("{} ignored; still {}", e.getMessage(), current);
            return current;
        }
    }

    /** The share of every link the leader's allocator leaves free (tests). */
    CapacityHeadroom headroom() {
        return capacityHeadroom;
    }

    /** The brokers the leader publishes to, null when off (tests). */
    String kafkaBootstrap() {
        return kafkaBootstrap;
    }

    @Deactivate
    protected void deactivate() {
        active = false;
        if (cfgService != null) {
            cfgService.unregisterProperties(getClass(), false);
        }
        leadershipService.removeListener(leadershipListener);
        leadershipService.withdraw(LEADERSHIP_TOPIC);
        netcfgService.removeListener(netcfgListener);
        hostService.removeListener(hostListener);
        linkService.removeListener(linkListener);
        deviceService.removeListener(deviceListener);
        packetService.removeProcessor(processor);
        clusterCommunicator.removeSubscriber(RelayedPacketIn.SUBJECT);
        relayed.shutdown();
        worker.execute(this::stopComponents);
        worker.shutdown();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("Stopped");
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    protected void bindSliceProgram(SliceProgram program) {
        programs.add(program);
        reprogram();
    }

    protected void unbindSliceProgram(SliceProgram program) {
        programs.remove(program);
    }

    @Override
    public FabricTopology topology() {
        return topology;
    }

    @Override
    public DeviceProgramming<Entity, SliceWrite> devices() {
        return this::leaderSetSlice;
    }

    @Override
    public PacketService packets() {
        return packets;
    }

    @Override
    public boolean isLeader() {
        return leader;
    }

    private CompletionStage<SliceWrite> leaderSetSlice(String slice, String deviceId, List<Entity> entities) {
        if (!leader) {
            return CompletableFuture.completedFuture(null);
        }
        return programming.setSlice(slice, deviceId, entities);
    }

    private void leadershipChanged(LeadershipEvent e) {
        if (!LEADERSHIP_TOPIC.equals(e.subject().topic())) {
            return;
        }
        boolean was = leader;
        setLeader(e.subject().leaderNodeId());
        if (leader != was) {
            reprogram(); // the new leader starts the components and programs; a former one stops them
        }
    }

    private void setLeader(NodeId node) {
        boolean now = localNode.equals(node);
        if (now != leader) {
            LOG.info("{} {} leadership of {}", localNode, now ? "takes" : "loses", LEADERSHIP_TOPIC);
        }
        leaderNode = node;
        leader = now;
    }

    /** The packet-in another node relayed, or null (logged) when the message is not one. */
    static RelayedPacketIn relayedOrNull(byte[] message) {
        try {
            return RelayedPacketIn.decode(message);
        } catch (IllegalArgumentException e) {
            LOG.warn("a relayed packet-in was dropped: {}", e.getMessage());
            return null;
        }
    }

    /**
     * A packet-in of a switch this node masters while its components do not run: to the leader,
     * whose components handle it. Dropped when no other node leads (no leader yet, or this node
     * leads but its components are not up yet).
     */
    private void relayToLeader(RelayedPacketIn p) {
        NodeId to = leaderNode;
        if (to == null || to.equals(localNode)) {
            LOG.debug("{} dropped: no leader to relay it to", p);
            return;
        }
        try {
            clusterCommunicator.unicast(p, RelayedPacketIn.SUBJECT, RelayedPacketIn::encode, to)
                    .whenComplete((v, err) -> {
                        if (err != null) {
                            LOG.debug("{} not relayed to {}: {}", p, to, err.toString());
                        }
                    });
        } catch (RuntimeException e) {
            LOG.warn("{} not relayed to {}: {}", p, to, e.toString());
        }
    }

    private void fabricEvent(EventDto e) {
        EventSink out = eventsOut;
        if (out != null) {
            try {
                out.publish(e);
            } catch (RuntimeException ex) {
                LOG.warn("event {} ({}) not published: {}", e.seq, e.type, ex.toString());
            }
        }
        ExecutorService w = worker;
        if (active && w != null && !w.isShutdown()) {
            try {
                w.execute(() -> {
                    if (runner != null) {
                        runner.provisioning(e);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException ex) {
                LOG.debug("event after shutdown ignored");
            }
        }
        if (e.type.equals(EventTypes.HOST_ADDED) || e.type.equals(EventTypes.HOST_REMOVED)
                || e.type.equals(EventTypes.TENANT_DELETED)) {
            reprogram();
        }
    }

    /** Queues one pass over every slice program (on the leader). */
    void reprogram() {
        ExecutorService w = worker;
        if (w == null || !active || w.isShutdown()) {
            return;
        }
        try {
            w.execute(this::programAll);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("programming after shutdown ignored");
        }
    }

    /** Waits until every queued pass is done (tests). */
    void awaitIdle() throws Exception {
        worker.submit(() -> { }).get(10, TimeUnit.SECONDS);
    }

    /** How many listeners hear the packet-ins (tests). */
    int packetListeners() {
        return packets.listenerCount();
    }

    /** Whether this node runs the components now (tests). */
    boolean componentsRunning() throws Exception {
        return worker.submit(() -> runner != null).get(10, TimeUnit.SECONDS);
    }

    /** The components while this node leads, else null (tests; read on the worker thread). */
    ComponentsRunner runner() throws Exception {
        return worker.submit(() -> runner).get(10, TimeUnit.SECONDS);
    }

    private void programAll() {
        Topology topo = topology.refresh();
        if (!leader) {
            stopComponents();
            return;
        }
        if (topo == null) {
            return;
        }
        if (runner == null) {
            try {
                String kafka = kafkaBootstrap;
                SinkOpener opener = sinks;
                runner = new ComponentsRunner(p4, topology, devices(), packets, fairfabric.fabric(), fairfabric.network(),
                        topology::configuration, RoutingMode.PINNED, capacityHeadroom, kafka == null ? null : (topic, clientId, what) -> opener.open(kafka, topic, clientId, what));
                if (kafka != null) {
                    try {
                        eventsOut = eventPublishers.open(kafka);
                    } catch (RuntimeException e) {
                        LOG.error("events are not published to Kafka at {}: {}", kafka, e.toString());
                    }
                }
                LOG.info("{} runs the components{}", localNode, kafka == null ? "" : ", publishing to Kafka at " + kafka);
            } catch (RuntimeException e) {
                LOG.error("the components did not start (slice programs still run): {}", e.toString());
            }
        }
        if (runner != null) {
            runner.topology(topo);
        }
        for (SliceProgram p : programs) {
            try {
                Map<String, List<Entity>> wanted = p.entities(topo, topology);
                Set<String> switches = new TreeSet<>(topo.devices().keySet());
                switches.addAll(wanted.keySet());
                for (String d : switches) {
                    programming.setSlice(p.slice(), d, wanted.getOrDefault(d, List.of()))
                            .whenComplete((w, err) -> {
                                if (err != null) {
                                    LOG.warn("slice {} on {}: {}", p.slice(), d, err.getMessage());
                                }
                            });
                }
            } catch (RuntimeException e) {
                LOG.warn("slice {} not programmed: {}", p.slice(), e.getMessage());
            }
        }
    }

    private void stopComponents() {
        EventSink out = eventsOut;
        eventsOut = null;
        if (out instanceof AutoCloseable) {
            try {
                ((AutoCloseable) out).close();
            } catch (Exception e) {
                LOG.warn("closing the event publisher: {}", e.toString());
            }
        }
        if (runner != null) {
            runner.close();
            runner = null;
            LOG.info("{} stopped its components", localNode);
        }
    }
}
