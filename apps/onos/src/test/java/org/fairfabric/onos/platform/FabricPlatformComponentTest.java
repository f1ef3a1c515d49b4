package org.fairfabric.onos.platform;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fairfabric.controller.alloc.CapacityHeadroom;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.TenantDto;
import org.fairfabric.controller.forwarding.ForwardingComponent;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.controller.routing.RoutingGroupsComponent;
import org.fairfabric.core.service.RoutingGroupService;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.onos.fabric.FabricComponent;
import org.fairfabric.onos.fabric.TestFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.Leader;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.LeadershipEvent;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipServiceAdapter;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketServiceAdapter;
import p4.v1.P4RuntimeOuterClass.Entity;

/** Only the leader computes and programs; leadership moving makes the new leader program (and clean up). */
class FabricPlatformComponentTest {
    static final NodeId ME = new NodeId("node-a");
    static final NodeId OTHER = new NodeId("node-b");

    final TestFabric fabric = new TestFabric();
    final TestHosts hosts = new TestHosts();
    final RecordingFlowRules flows = new RecordingFlowRules();
    final RecordingGroups groups = new RecordingGroups();
    final Leaderships leaderships = new Leaderships();
    final List<PacketProcessor> processors = new ArrayList<>();
    final List<org.onosproject.net.packet.OutboundPacket> emitted = new java.util.concurrent.CopyOnWriteArrayList<>();
    final Messages messages = new Messages();
    final P4Entities p4 = new P4Entities();
    final List<Integer> computed = new ArrayList<>();
    FabricComponent fairfabric;
    FabricPlatformComponent platform;

    /** The mocked LeadershipService: the test says who leads; listeners hear the change as in ONOS. */
    static final class Leaderships extends LeadershipServiceAdapter {
        NodeId leader;
        final List<LeadershipEventListener> listeners = new ArrayList<>();
        final List<String> calls = new ArrayList<>();

        Leadership leadership(String topic) {
            return new Leadership(topic, leader == null ? null : new Leader(leader, 1, 1), List.of(ME, OTHER));
        }

        @Override
        public Leadership runForLeadership(String topic) {
            calls.add("run " + topic);
            return leadership(topic);
        }

        @Override
        public void withdraw(String topic) {
            calls.add("withdraw " + topic);
        }

        @Override
        public void addListener(LeadershipEventListener l) {
            listeners.add(l);
        }

        @Override
        public void removeListener(LeadershipEventListener l) {
            listeners.remove(l);
        }

        void elect(NodeId node) {
            leader = node;
            LeadershipEvent e = new LeadershipEvent(LeadershipEvent.Type.LEADER_CHANGED,
                    leadership(FabricPlatformComponent.LEADERSHIP_TOPIC));
            listeners.forEach(l -> l.event(e));
        }
    }

    /** ONOS's cluster messaging as one node sees it: what it unicasts, and its subscribers (the test delivers to them). */
    static final class Messages extends org.onosproject.store.cluster.messaging.ClusterCommunicationServiceAdapter {
        final List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<byte[]> payloads = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Map<String, java.util.function.Consumer<byte[]>> subscribers = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public <M> java.util.concurrent.CompletableFuture<Void> unicast(M message, org.onosproject.store.cluster.messaging.MessageSubject subject,
                                                                      java.util.function.Function<M, byte[]> encoder, NodeId to) {
            sent.add(to + " " + subject.value());
            payloads.add(encoder.apply(message));
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }

        @Override
        public <M> void addSubscriber(org.onosproject.store.cluster.messaging.MessageSubject subject, java.util.function.Function<byte[], M> decoder,
                                      java.util.function.Consumer<M> handler, java.util.concurrent.Executor executor) {
            subscribers.put(subject.value(), bytes -> executor.execute(() -> handler.accept(decoder.apply(bytes))));
        }

        @Override
        public void removeSubscriber(org.onosproject.store.cluster.messaging.MessageSubject subject) {
            subscribers.remove(subject.value());
        }
    }

    /** A slice program: the route to every host on its leaf (what the forwarding component writes, in small). */
    final SliceProgram routes = new SliceProgram() {
        @Override
        public String slice() {
            return "routes";
        }

        @Override
        public Map<String, List<Entity>> entities(Topology topology, FabricTopology fabricTopology) {
            computed.add(topology.hosts().size());
            Map<String, List<Entity>> out = new TreeMap<>();
            String table = P4Entities.IN + "downward_routing.routing_down";
            for (org.fairfabric.core.model.Host h : topology.hosts().values()) {
                String[] ip = h.ip().split("\\.");
                out.computeIfAbsent(h.attachment().elementId(), d -> new ArrayList<>()).add(p4.entry(table,
                        List.of(p4.lpm(table, "hdr.ipv4.dst_addr", P4Entities.ipv4(Integer.parseInt(ip[0]),
                                Integer.parseInt(ip[1]), Integer.parseInt(ip[2]), Integer.parseInt(ip[3])), 32)), 0,
                        p4.action(P4Entities.IN + "downward_routing.route_down", "port",
                                P4Entities.bytes(h.attachment().port()))));
            }
            return out;
        }
    };

    /** The component's properties at activation. */
    final Map<String, Object> properties = new java.util.HashMap<>();
    /** The Kafka sinks the platform opened: bootstrap, topic, then the sink. */
    final List<RecordingSink> opened = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** The event publishers the platform opened. */
    final List<RecordingEvents> publishers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** An event publisher that records the event types it is given and whether it was closed. */
    static final class RecordingEvents implements org.fairfabric.api.service.EventSink, AutoCloseable {
        final String bootstrap;
        final List<String> types = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile boolean closed;

        RecordingEvents(String bootstrap) {
            this.bootstrap = bootstrap;
        }

        @Override
        public void publish(org.fairfabric.api.dto.EventDto e) {
            types.add(e.type + " " + e.subject);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** A sink that records what it is sent and whether it was closed. */
    static final class RecordingSink implements org.fairfabric.controller.alloc.RatesSink, AutoCloseable {
        final String bootstrap;
        final String topic;
        final List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile boolean closed;

        RecordingSink(String bootstrap, String topic) {
            this.bootstrap = bootstrap;
            this.topic = topic;
        }

        @Override
        public void send(String host, String json) {
            sent.add(host + " " + json);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    void start(NodeId leader) {
        leaderships.leader = leader;
        fairfabric = fabric.start();
        platform = new FabricPlatformComponent();
        platform.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(name.hashCode() & 0x7fff, name);
            }
        };
        platform.deviceService = fabric.devices;
        platform.linkService = fabric.links;
        platform.hostService = hosts;
        platform.netcfgService = fabric.netcfg;
        platform.flowRuleService = flows;
        platform.groupService = groups;
        platform.packetService = new PacketServiceAdapter() {
            @Override
            public void addProcessor(PacketProcessor processor, int priority) {
                processors.add(processor);
            }

            @Override
            public void removeProcessor(PacketProcessor processor) {
                processors.remove(processor);
            }

            @Override
            public void emit(org.onosproject.net.packet.OutboundPacket packet) {
                emitted.add(packet);
            }
        };
        platform.clusterCommunicator = messages;
        platform.leadershipService = leaderships;
        platform.clusterService = new ClusterServiceAdapter() {
            @Override
            public ControllerNode getLocalNode() {
                return new DefaultControllerNode(ME, IpAddress.valueOf("127.0.0.1"));
            }
        };
        platform.fairfabric = fairfabric;
        platform.sinks = (bootstrap, topic, clientId, what) -> {
            RecordingSink sink = new RecordingSink(bootstrap, topic);
            opened.add(sink);
            return sink;
        };
        platform.eventPublishers = bootstrap -> {
            RecordingEvents out = new RecordingEvents(bootstrap);
            publishers.add(out);
            return out;
        };
        platform.activate(properties);
        platform.bindSliceProgram(routes);
    }

    @AfterEach
    void stop() {
        if (platform != null) {
            platform.deactivate();
            TestFabric.stop(fairfabric);
        }
    }

    /** The entries of the test's "routes" slice on {@code device} (the components write slices of their own). */
    int routesOn(String device) {
        return flows.rules(DeviceId.deviceId(device), sliceApp("routes")).size();
    }

    ApplicationId sliceApp(String slice) {
        return platform.coreService.registerApplication(OnosDeviceProgramming.SLICE_APP_PREFIX + slice);
    }

    /** The forwarding slice's flow rules on every switch. */
    Map<String, List<org.onosproject.net.flow.FlowRule>> forwardingRules() {
        Map<String, List<org.onosproject.net.flow.FlowRule>> out = new TreeMap<>();
        for (String d : List.of("device:leaf1", "device:leaf2", "device:spine1")) {
            out.put(d, flows.rules(DeviceId.deviceId(d), sliceApp(ForwardingComponent.SLICE)));
        }
        return out;
    }

    /** What the embedded controller's forwarding writes for the same model, as flow rules. */
    Map<String, List<org.onosproject.net.flow.FlowRule>> embeddedForwarding(Topology topo) {
        FabricPlan plan = new FabricPlan(new P4InfoIndex(P4InfoNames.pipeconfP4Info()), ComponentsRunner.CPU_PORT,
                ComponentsRunner.QUEUE_DELTA);
        EntityTranslator translator = new EntityTranslator(P4InfoNames.ofPipeconf());
        Map<String, List<org.onosproject.net.flow.FlowRule>> out = new TreeMap<>();
        for (String d : List.of("device:leaf1", "device:leaf2", "device:spine1")) {
            out.put(d, translator.translate(DeviceId.deviceId(d), sliceApp(ForwardingComponent.SLICE),
                    plan.entitiesOf(topo, d, platform.topology()::routerMac, null)).rules());
        }
        return out;
    }

    static void assertSameRules(List<org.onosproject.net.flow.FlowRule> expected, List<org.onosproject.net.flow.FlowRule> actual,
                                String device) {
        assertEquals(expected.size(), actual.size(), device + ": " + actual);
        for (org.onosproject.net.flow.FlowRule e : expected) {
            assertTrue(actual.stream().anyMatch(a -> a.exactMatch(e)), device + " lacks " + e);
        }
    }

    static List<org.onosproject.net.flow.FlowId> ruleIds(List<org.onosproject.net.flow.FlowRule> rules) {
        List<org.onosproject.net.flow.FlowId> out = new ArrayList<>();
        rules.forEach(r -> out.add(r.id()));
        return out;
    }

    /** Every entry on {@code device}: application id, table and match (for failure messages). */
    String describe(String device) {
        StringBuilder b = new StringBuilder();
        flows.getFlowEntries(DeviceId.deviceId(device)).forEach(e -> b.append("\n  app ").append(e.appId()).append(' ')
                .append(e.table()).append(' ').append(e.selector().criteria()));
        return b.toString();
    }

    /** Waits for the platform's worker and then for the components it runs (their own threads write). */
    void awaitComponents() throws Exception {
        platform.awaitIdle();
        ComponentsRunner r = platform.runner();
        if (r != null) {
            r.sync();
        }
        platform.awaitIdle();
    }

    @Test
    void theLeaderProgramsEverySliceProgramAndFollowsTheTenantsHosts() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(ME);
        awaitComponents();
        assertTrue(platform.isLeader());
        assertEquals(List.of("run " + FabricPlatformComponent.LEADERSHIP_TOPIC), leaderships.calls);
        assertEquals(1, routesOn("device:leaf1"));
        assertEquals(1, processors.size(), "the packet processor is registered");

        fairfabric.fabric().createTenant(new TenantDto("t1", "tenant one", 1.0, 0L));
        fairfabric.fabric().addHost(new HostDto("vm2", "t1", "10.0.2.1", "00:00:00:00:00:02", new LocationDto("device:leaf2", 2)));
        awaitComponents();
        assertEquals(1, routesOn("device:leaf2"), "a tenant's new host is routed");
    }

    @Test
    void aFollowerComputesAndWritesNothing() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(OTHER);
        awaitComponents();
        assertFalse(platform.isLeader());
        assertEquals(List.of(), computed);
        assertEquals(0, flows.entries.size());
        assertNull(platform.devices().setSlice("routes", "device:leaf1", List.of()).toCompletableFuture().get());
    }

    @Test
    void becomingLeaderProgramsAndRemovesWhatAFormerLeaderLeftStale() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(OTHER);
        awaitComponents();
        // what the former leader wrote for a host that has gone since
        hosts.hosts.clear();
        hosts.add("h3", "00:00:00:00:00:03", "10.0.3.1", "device:leaf1", 2);
        String table = P4Entities.IN + "downward_routing.routing_down";
        OnosDeviceProgramming former = new OnosDeviceProgramming(platform.coreService, fabric.devices, flows, groups,
                new EntityTranslator(P4InfoNames.ofPipeconf()));
        Entity toH1 = p4.entry(table, List.of(p4.lpm(table, "hdr.ipv4.dst_addr", P4Entities.ipv4(10, 0, 1, 1), 32)), 0,
                p4.action(P4Entities.IN + "downward_routing.route_down", "port", P4Entities.bytes(1)));
        former.setSlice("routes", "device:leaf1", List.of(toH1)).toCompletableFuture().get();

        leaderships.elect(ME);
        awaitComponents();

        assertTrue(platform.isLeader());
        assertEquals(1, routesOn("device:leaf1"));
        Entity toH3 = p4.entry(table, List.of(p4.lpm(table, "hdr.ipv4.dst_addr", P4Entities.ipv4(10, 0, 3, 1), 32)), 0,
                p4.action(P4Entities.IN + "downward_routing.route_down", "port", P4Entities.bytes(2)));
        org.onosproject.net.flow.FlowRule expected = new EntityTranslator(P4InfoNames.ofPipeconf())
                .translate(DeviceId.deviceId("device:leaf1"), former.sliceApp("routes"), List.of(toH3)).rules().get(0);
        // the test's slice holds exactly the route to h3 (the components' slices are beside it on leaf1)
        List<org.onosproject.net.flow.FlowRule> routes = flows.rules(DeviceId.deviceId("device:leaf1"), former.sliceApp("routes"));
        assertEquals(List.of(expected.id()), ruleIds(routes), "the route to h3 replaced the stale one: " + describe("device:leaf1"));
        assertTrue(routes.get(0).exactMatch(expected), routes.toString());
        org.onosproject.net.flow.TrafficSelector stale = new EntityTranslator(P4InfoNames.ofPipeconf())
                .translate(DeviceId.deviceId("device:leaf1"), former.sliceApp("routes"), List.of(toH1)).rules().get(0).selector();
        List<org.onosproject.net.flow.FlowEntry> onLeaf1 = new ArrayList<>();
        flows.getFlowEntries(DeviceId.deviceId("device:leaf1")).forEach(onLeaf1::add);
        assertTrue(onLeaf1.stream().noneMatch(e -> e.selector().equals(stale)), "no slice routes to h1 any more: " + describe("device:leaf1"));
        assertTrue(forwardingRules().get("device:leaf1").stream().anyMatch(r -> r.selector().equals(expected.selector())),
                "the components' forwarding routes to h3 too: " + describe("device:leaf1"));

        leaderships.elect(OTHER);
        awaitComponents();
        assertFalse(platform.isLeader());
        int before = computed.size();
        hosts.add("h4", "00:00:00:00:00:04", "10.0.4.1", "device:leaf2", 1);
        platform.reprogram();
        awaitComponents();
        assertEquals(before, computed.size(), "a former leader stops computing");
        assertEquals(0, routesOn("device:leaf2"));
    }

    @Test
    void theLeaderRunsTheComponentsAndWritesWhatTheEmbeddedForwardingWrites() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(ME);
        awaitComponents();
        assertTrue(platform.componentsRunning());
        Topology topo = platform.topology().topology();
        assertEquals(1, topo.hosts().size());
        Map<String, List<org.onosproject.net.flow.FlowRule>> written = forwardingRules();
        Map<String, List<org.onosproject.net.flow.FlowRule>> expected = embeddedForwarding(topo);
        for (String d : expected.keySet()) {
            assertFalse(expected.get(d).isEmpty(), d);
            assertSameRules(expected.get(d), written.get(d), d);
        }

        // a tenant's VM declared through the fabric service: its leaf gets its route
        int before = written.get("device:leaf2").size();
        fairfabric.fabric().createTenant(new TenantDto("t1", "tenant one", 1.0, 0L));
        fairfabric.fabric().addHost(new HostDto("vm2", "t1", "10.0.2.1", "00:00:00:00:00:02", new LocationDto("device:leaf2", 2)));
        awaitComponents();
        Topology withVm = platform.topology().topology();
        assertEquals(2, withVm.hosts().size());
        written = forwardingRules();
        assertTrue(written.get("device:leaf2").size() > before, "the VM's leaf has more forwarding entries");
        expected = embeddedForwarding(withVm);
        for (String d : expected.keySet()) {
            assertSameRules(expected.get(d), written.get(d), d);
        }
        assertTrue(platform.packetListeners() > 0, "the components hear packet-ins (ARP, P4TE reports, probes)");
    }

    @Test
    void theLeadersRoutingGroupsAreTheEmbeddedOnes() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(ME);
        awaitComponents();
        Topology topo = platform.topology().topology();
        // what the embedded routing-groups component writes for a fresh configuration
        java.util.Map<org.fairfabric.core.routing.Metric, Integer> levels = new java.util.EnumMap<>(org.fairfabric.core.routing.Metric.class);
        for (org.fairfabric.core.routing.Metric m : org.fairfabric.core.routing.Metric.values()) {
            levels.put(m, RoutingGroupsComponent.GROUP_LEVELS);
        }
        RoutingGroupService service = new RoutingGroupService(levels);
        service.install(topo);
        FabricPlan plan = new FabricPlan(new P4InfoIndex(P4InfoNames.pipeconfP4Info()), ComponentsRunner.CPU_PORT,
                ComponentsRunner.QUEUE_DELTA);
        EntityTranslator translator = new EntityTranslator(P4InfoNames.ofPipeconf());
        ApplicationId app = sliceApp(RoutingGroupsComponent.SLICE);
        assertEquals(List.of("device:leaf1", "device:leaf2"), service.devices().stream().sorted().collect(java.util.stream.Collectors.toList()));
        for (String d : service.devices()) {
            PiEntities expected = translator.translate(DeviceId.deviceId(d), app,
                    plan.upwardEntitiesOf(topo, d, service.membership(d), java.util.Set.of()));
            assertFalse(expected.groups().isEmpty(), d + " has routing groups");
            assertSameRules(expected.rules(), flows.rules(DeviceId.deviceId(d), app), d);
            List<org.onosproject.net.group.Group> written = new ArrayList<>();
            groups.getGroups(DeviceId.deviceId(d), app).forEach(written::add);
            assertEquals(expected.groups().size(), written.size(), d + ": " + written);
            for (org.onosproject.net.group.GroupDescription g : expected.groups()) {
                assertTrue(written.stream().anyMatch(w -> w.appCookie().equals(g.appCookie()) && w.buckets().equals(g.buckets())
                        && w.type() == g.type()), d + " lacks group " + g);
            }
        }
        assertEquals(List.of(), flows.rules(DeviceId.deviceId("device:spine1"), app), "a spine has no routing groups");
    }

    @Test
    void aFollowerRunsNoComponents() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(OTHER);
        awaitComponents();
        assertFalse(platform.componentsRunning());
        assertEquals(0, platform.packetListeners());
        assertEquals(0, flows.entries.size());
    }

    @Test
    void losingLeadershipStopsTheComponentsAndRegainingItStartsThemAgain() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(ME);
        awaitComponents();
        assertTrue(platform.componentsRunning());
        int listeners = platform.packetListeners();
        int forwarding = forwardingRules().get("device:leaf1").size();
        assertTrue(forwarding > 0);

        leaderships.elect(OTHER);
        awaitComponents();
        assertFalse(platform.componentsRunning());
        assertEquals(0, platform.packetListeners(), "the stopped components no longer hear packet-ins");
        hosts.add("h4", "00:00:00:00:00:04", "10.0.4.1", "device:leaf2", 1);
        int leaf2 = forwardingRules().get("device:leaf2").size();
        platform.reprogram();
        awaitComponents();
        assertEquals(leaf2, forwardingRules().get("device:leaf2").size(), "a former leader writes nothing");

        leaderships.elect(ME);
        awaitComponents();
        assertTrue(platform.componentsRunning());
        assertEquals(listeners, platform.packetListeners(), "one set of components, not two");
        assertSameRules(embeddedForwarding(platform.topology().topology()).get("device:leaf2"),
                forwardingRules().get("device:leaf2"), "device:leaf2");
    }

    @Test
    void deactivationWithdrawsAndUnregisters() throws Exception {
        start(ME);
        platform.deactivate();
        assertEquals(List.of("run " + FabricPlatformComponent.LEADERSHIP_TOPIC, "withdraw " + FabricPlatformComponent.LEADERSHIP_TOPIC),
                leaderships.calls);
        assertEquals(List.of(), processors);
        assertEquals(List.of(), leaderships.listeners);
        assertEquals(0, platform.packetListeners(), "the components stopped with the platform");
        platform = null;
        TestFabric.stop(fairfabric);
    }

    @Test
    void withKafkaConfiguredTheLeaderOpensItsSinksAndAFollowerOpensNone() throws Exception {
        properties.put(FabricPlatformComponent.KAFKA_BOOTSTRAP, " kafka1:9092,kafka2:9092 ");
        start(ME);
        awaitComponents();
        assertEquals("kafka1:9092,kafka2:9092", platform.kafkaBootstrap());
        assertEquals(List.of(org.fairfabric.controller.failure.DeadPathsComponent.TOPIC, org.fairfabric.controller.alloc.KafkaRatesSink.TOPIC),
                opened.stream().map(o -> o.topic).collect(java.util.stream.Collectors.toList()), "the leader opens the dead-path and rates sinks");
        RecordingSink deadPaths = opened.get(0);
        RecordingSink rates = opened.get(1);
        assertEquals("kafka1:9092,kafka2:9092", rates.bootstrap);
        assertEquals("kafka1:9092,kafka2:9092", deadPaths.bootstrap);
        assertEquals(org.fairfabric.controller.failure.DeadPathsComponent.TOPIC, deadPaths.topic);
        assertFalse(deadPaths.closed);

        leaderships.elect(OTHER);
        awaitComponents();
        assertTrue(deadPaths.closed && rates.closed, "a follower publishes nothing: the sinks closed with the components");
        platform.reprogram();
        awaitComponents();
        assertEquals(2, opened.size(), "a follower opens no sink");

        leaderships.elect(ME);
        awaitComponents();
        assertEquals(4, opened.size());
        assertFalse(opened.get(2).closed || opened.get(3).closed);
    }

    @Test
    void theCapacityHeadroomIsNoneByDefaultAndAChangeRestartsTheComponentsWithIt() throws Exception {
        start(ME);
        awaitComponents();
        assertEquals(CapacityHeadroom.NONE, platform.headroom());
        ComponentsRunner first = platform.runner();

        platform.modified(Map.of(FabricPlatformComponent.CAPACITY_HEADROOM, 0.03));
        awaitComponents();
        assertEquals(0.03, platform.headroom().fraction());
        assertTrue(platform.componentsRunning());
        assertNotSame(first, platform.runner(), "the components restart with the new headroom");

        for (Object bad : List.of(0.6, -0.1, "a lot")) {
            ComponentsRunner before = platform.runner();
            platform.modified(Map.of(FabricPlatformComponent.CAPACITY_HEADROOM, bad));
            awaitComponents();
            assertEquals(0.03, platform.headroom().fraction(), bad + " changes nothing");
            assertSame(before, platform.runner(), bad + " restarted nothing");
        }
    }

    @Test
    void changingKafkaBootstrapRestartsTheSinksAndABadValueChangesNothing() throws Exception {
        start(ME);
        awaitComponents();
        assertTrue(platform.componentsRunning());
        assertNull(platform.kafkaBootstrap(), "empty by default: no Kafka");
        assertEquals(List.of(), opened);

        platform.modified(Map.of(FabricPlatformComponent.KAFKA_BOOTSTRAP, "kafka:9092"));
        awaitComponents();
        assertEquals(2, opened.size(), "dead paths and rates");
        assertEquals("kafka:9092", opened.get(0).bootstrap);
        assertNotNull(platform.runner().allocation(), "the allocator runs with Kafka");
        assertTrue(platform.componentsRunning());

        for (String bad : List.of("kafka", "kafka:port", "a b:9092", "kafka:9092,")) {
            platform.modified(Map.of(FabricPlatformComponent.KAFKA_BOOTSTRAP, bad));
            awaitComponents();
            assertEquals("kafka:9092", platform.kafkaBootstrap(), bad);
            assertEquals(2, opened.size(), bad + " restarted nothing");
            assertFalse(opened.get(0).closed || opened.get(1).closed, bad);
        }

        platform.modified(Map.of(FabricPlatformComponent.KAFKA_BOOTSTRAP, ""));
        awaitComponents();
        assertNull(platform.kafkaBootstrap());
        assertTrue(opened.get(0).closed && opened.get(1).closed);
        assertEquals(2, opened.size());
        assertTrue(platform.componentsRunning(), "the components run on without Kafka");
        assertNotNull(platform.runner().allocation(), "the allocator runs on too, as in embedded mode (pinned paths, AQs)");
    }

    /**
     * The allocator and the guarantees run on the leader without Kafka, as in embedded mode: the
     * pinned-path entries (slice "allocation": the first-hop path classifier of a sender without a
     * shim, the tag-keeping host port of a receiver with one) and the AQ entries of a tenant with a
     * guarantee (slice "guarantees": outbound AQ and classifier at the sender's leaf, inbound at the
     * receiver's) are the flow rules the embedded code writes for the same allocation.
     */
    @Test
    void theLeadersPinnedPathAndAqEntriesAreTheEmbeddedOnes() throws Exception {
        hosts.add("s1", "00:00:00:00:01:01", "10.0.1.1", "device:leaf1", 1);
        hosts.add("s2", "00:00:00:00:02:01", "10.0.2.1", "device:leaf2", 1);
        fabric.netcfg.hostBlock(hosts.hosts.get(1).id(), "{\"shim\": true}");
        start(ME);
        awaitComponents();
        assertNull(platform.kafkaBootstrap());
        fairfabric.fabric().createTenant(new TenantDto("t1", "tenant one", 1.0, 10_000_000L));
        fairfabric.fabric().addHost(new HostDto("s1", "t1", "10.0.1.1", "00:00:00:00:01:01", new LocationDto("device:leaf1", 1)));
        fairfabric.fabric().addHost(new HostDto("s2", "t1", "10.0.2.1", "00:00:00:00:02:01", new LocationDto("device:leaf2", 1)));
        org.fairfabric.api.dto.SessionDto session = fairfabric.fabric().declareSession(org.fairfabric.api.json.SessionJson.create(
                new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"srcHost\":\"s1\",\"dstHost\":\"s2\"}")));

        Map<String, List<org.onosproject.net.flow.FlowRule>> paths = Map.of();
        Map<String, List<org.onosproject.net.flow.FlowRule>> aqs = Map.of();
        boolean same = false;
        for (int i = 0; i < 100 && !same; i++) { // the allocator waits for a quiet period, then the guarantees write
            Thread.sleep(100);
            awaitComponents();
            org.fairfabric.controller.alloc.AllocationResult r = platform.runner().allocation().loop().current();
            if (r == null || r.sessions().stream().noneMatch(a -> a.session().id.equals(session.id))) {
                continue;
            }
            paths = embeddedRules(org.fairfabric.controller.alloc.AllocationComponent.SLICE, embeddedPathEntities(r));
            aqs = embeddedRules(org.fairfabric.controller.guarantee.GuaranteesComponent.SLICE, embeddedAqEntities(r));
            same = paths.equals(writtenRules(org.fairfabric.controller.alloc.AllocationComponent.SLICE, paths))
                    && aqs.equals(writtenRules(org.fairfabric.controller.guarantee.GuaranteesComponent.SLICE, aqs));
        }
        for (String d : List.of("device:leaf1", "device:leaf2", "device:spine1")) {
            assertSameRules(paths.getOrDefault(d, List.of()), flows.rules(DeviceId.deviceId(d),
                    sliceApp(org.fairfabric.controller.alloc.AllocationComponent.SLICE)), d + " pinned paths");
            assertSameRules(aqs.getOrDefault(d, List.of()), flows.rules(DeviceId.deviceId(d),
                    sliceApp(org.fairfabric.controller.guarantee.GuaranteesComponent.SLICE)), d + " AQs");
        }
        assertEquals(java.util.Set.of(P4Entities.IN + "path_classifier.path_classifier"), tables(paths.get("device:leaf1")));
        assertEquals(java.util.Set.of(P4Entities.EG + "rewrite.host_port_keep_tag"), tables(paths.get("device:leaf2")));
        assertEquals(java.util.Set.of(P4Entities.IN + "aq_ingress.aq_table", P4Entities.IN + "aq_classify_outbound.aq_classify_outbound"),
                tables(aqs.get("device:leaf1")), "the sender's outbound AQ");
        assertEquals(java.util.Set.of(P4Entities.EG + "aq_egress.aq_table", P4Entities.EG + "aq_classify_inbound.aq_classify_inbound"),
                tables(aqs.get("device:leaf2")), "the receiver's inbound AQ");
        assertTrue(same);

        // a follower's node, after losing leadership, writes no more of them
        leaderships.elect(OTHER);
        awaitComponents();
        int batches = flows.batches.size();
        fairfabric.fabric().declareSession(org.fairfabric.api.json.SessionJson.create(
                new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"srcHost\":\"s2\",\"dstHost\":\"s1\"}")));
        Thread.sleep(300);
        awaitComponents();
        assertEquals(batches, flows.batches.size());
    }

    P4InfoIndex p4Index() {
        return new P4InfoIndex(P4InfoNames.pipeconfP4Info());
    }

    /** What the embedded allocation applier writes for {@code r} (AllocationDataPlane, as AllocationApplier calls it). */
    Map<String, List<Entity>> embeddedPathEntities(org.fairfabric.controller.alloc.AllocationResult r) {
        return new org.fairfabric.controller.alloc.AllocationDataPlane(new org.fairfabric.controller.program.AllocationEntities(p4Index()))
                .pathEntities(r);
    }

    /** What the embedded guarantees component writes for {@code r}: a fresh one on a bus of its own, told the allocation. */
    Map<String, List<Entity>> embeddedAqEntities(org.fairfabric.controller.alloc.AllocationResult r) {
        Map<String, List<Entity>> out = new java.util.concurrent.ConcurrentSkipListMap<>();
        try (org.fairfabric.controller.component.ControlBus bus = new org.fairfabric.controller.component.ControlBus()) {
            bus.register(new org.fairfabric.controller.guarantee.GuaranteesComponent(
                    new org.fairfabric.controller.alloc.AllocationDataPlane(new org.fairfabric.controller.program.AllocationEntities(p4Index())),
                    (slice, device, entities) -> {
                        out.put(device, entities);
                        return java.util.concurrent.CompletableFuture.completedFuture(null);
                    }));
            bus.post(new org.fairfabric.controller.component.ControlEvent.Allocated(r));
            bus.sync();
        }
        return out;
    }

    /** {@code entities} as ONOS flow rules of {@code slice}, per switch (non-empty switches only). */
    Map<String, List<org.onosproject.net.flow.FlowRule>> embeddedRules(String slice, Map<String, List<Entity>> entities) {
        EntityTranslator translator = new EntityTranslator(P4InfoNames.ofPipeconf());
        Map<String, List<org.onosproject.net.flow.FlowRule>> out = new TreeMap<>();
        entities.forEach((d, es) -> {
            if (!es.isEmpty()) {
                out.put(d, translator.translate(DeviceId.deviceId(d), sliceApp(slice), es).rules());
            }
        });
        return out;
    }

    /** The rules of {@code slice} on the switches of {@code like}, or {@code like}'s own list where they are the same rules. */
    Map<String, List<org.onosproject.net.flow.FlowRule>> writtenRules(String slice, Map<String, List<org.onosproject.net.flow.FlowRule>> like) {
        Map<String, List<org.onosproject.net.flow.FlowRule>> out = new TreeMap<>();
        for (String d : List.of("device:leaf1", "device:leaf2", "device:spine1")) {
            List<org.onosproject.net.flow.FlowRule> have = flows.rules(DeviceId.deviceId(d), sliceApp(slice));
            List<org.onosproject.net.flow.FlowRule> want = like.getOrDefault(d, List.of());
            boolean equal = have.size() == want.size() && want.stream().allMatch(w -> have.stream().anyMatch(h -> h.exactMatch(w)));
            if (!have.isEmpty() || !want.isEmpty()) {
                out.put(d, equal ? want : have);
            }
        }
        return out;
    }

    static java.util.Set<String> tables(List<org.onosproject.net.flow.FlowRule> rules) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (org.onosproject.net.flow.FlowRule r : rules == null ? List.<org.onosproject.net.flow.FlowRule>of() : rules) {
            out.add(r.table().toString());
        }
        return out;
    }

    /**
     * ONOS hands a packet-in to the switch's master only. A node that does not lead relays the
     * fabric's packet-ins to the leader over cluster messaging (blocking them for other apps); once
     * it leads, its components hear them and nothing is relayed.
     */
    @Test
    void aFollowerRelaysTheFabricsPacketInsToTheLeader() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(OTHER);
        awaitComponents();
        byte[] frame = OnosPacketsTest.arpRequest();
        org.onosproject.net.packet.PacketContextAdapter ctx = new org.onosproject.net.packet.PacketContextAdapter(0,
                OnosPacketsTest.viaInterpreter(frame), null, false);

        processors.get(0).process(ctx);

        assertTrue(ctx.isHandled(), "blocked: no other app answers it on the master");
        assertEquals(List.of("node-b " + RelayedPacketIn.SUBJECT.value()), messages.sent);
        RelayedPacketIn relayed = RelayedPacketIn.decode(messages.payloads.get(0));
        assertEquals("device:leaf1", relayed.deviceId);
        org.junit.jupiter.api.Assertions.assertArrayEquals(frame, relayed.frame);
        assertEquals(2L, relayed.metadata.get("ingress_port"));
        assertEquals(1L, relayed.metadata.get("reason"));
        assertEquals(List.of(), emitted, "a follower answers nothing itself");

        leaderships.elect(ME);
        awaitComponents();
        processors.get(0).process(new org.onosproject.net.packet.PacketContextAdapter(0, OnosPacketsTest.viaInterpreter(frame), null, false));
        assertEquals(1, messages.sent.size(), "the leader handles its own packet-ins");

        leaderships.elect(null);
        awaitComponents();
        processors.get(0).process(new org.onosproject.net.packet.PacketContextAdapter(0, OnosPacketsTest.viaInterpreter(frame), null, false));
        assertEquals(1, messages.sent.size(), "no leader: dropped, not relayed");
    }

    /** The leader's components hear a packet-in another node relayed: its ARP request is answered out of the port it came in on. */
    @Test
    void theLeaderAnswersAnArpRequestRelayedFromAnotherNode() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 2);
        hosts.add("h2", "00:00:00:00:00:02", "10.0.2.1", "device:leaf2", 1);
        start(ME);
        awaitComponents();
        java.util.function.Consumer<byte[]> subscriber = messages.subscribers.get(RelayedPacketIn.SUBJECT.value());
        assertNotNull(subscriber, "every node subscribes to relayed packet-ins");

        byte[] request = RelayedPacketIn.encode(new RelayedPacketIn("device:leaf1", OnosPacketsTest.arpRequest(),
                Map.of("ingress_port", 2L, "reason", 1L, "event_port", 0L, "metric", 0L, "direction", 0L, "value", 0L)));
        subscriber.accept(request);

        List<org.onosproject.net.packet.OutboundPacket> replies = awaitArpReplies(1);
        assertEquals(1, replies.size(), "an ARP reply was sent: " + emitted.size() + " packet-outs");
        org.onosproject.net.packet.OutboundPacket reply = replies.get(0);
        assertEquals(DeviceId.deviceId("device:leaf1"), reply.sendThrough());
        assertEquals(org.onosproject.net.flow.DefaultTrafficTreatment.builder()
                .setOutput(org.onosproject.net.PortNumber.portNumber(2)).build(), reply.treatment());
        org.onlab.packet.ARP arp = arpOf(reply);
        assertEquals(org.onlab.packet.ARP.OP_REPLY, arp.getOpCode());
        // leaf1's router MAC (device_id 1), as leaf1's ARP table answers: the fabric routes, h2's own MAC would be dropped
        assertEquals(org.onlab.packet.MacAddress.valueOf("02:aa:00:00:00:01"),
                org.onlab.packet.MacAddress.valueOf(arp.getSenderHardwareAddress()), "leaf1's router MAC answers for 10.0.2.1");

        // messages that are not relayed packet-ins are dropped; the next good one is answered again
        subscriber.accept(new byte[] {9, 9});
        subscriber.accept(new byte[0]);
        subscriber.accept(request);
        assertEquals(2, awaitArpReplies(2).size());

        platform.deactivate();
        assertNull(messages.subscribers.get(RelayedPacketIn.SUBJECT.value()), "deactivation unsubscribes");
        platform = null;
        TestFabric.stop(fairfabric);
    }

    /** The ARP packet-outs sent so far, once there are {@code n} (bounded wait: the relay thread, then forwarding's). */
    List<org.onosproject.net.packet.OutboundPacket> awaitArpReplies(int n) throws Exception {
        List<org.onosproject.net.packet.OutboundPacket> out = List.of();
        for (int i = 0; i < 250 && out.size() < n; i++) {
            Thread.sleep(20);
            out = emitted.stream().filter(o -> arpOf(o) != null).collect(java.util.stream.Collectors.toList());
        }
        return out;
    }

    static org.onlab.packet.ARP arpOf(org.onosproject.net.packet.OutboundPacket o) {
        byte[] b = new byte[o.data().remaining()];
        o.data().duplicate().get(b);
        try {
            org.onlab.packet.Ethernet eth = org.onlab.packet.Ethernet.deserializer().deserialize(b, 0, b.length);
            return eth.getEtherType() == org.onlab.packet.Ethernet.TYPE_ARP ? (org.onlab.packet.ARP) eth.getPayload() : null;
        } catch (org.onlab.packet.DeserializationException e) {
            return null;
        }
    }

    /**
     * With Kafka the leader publishes its event log on the controller topics as the embedded
     * controller does (each event through KafkaEventPublisher's topic mapping); a follower opens no
     * publisher; losing leadership closes it and later events are not published.
     */
    @Test
    void withKafkaTheLeaderPublishesTheControllerEventsAndAFollowerDoesNot() throws Exception {
        properties.put(FabricPlatformComponent.KAFKA_BOOTSTRAP, "kafka:9092");
        start(OTHER);
        awaitComponents();
        fairfabric.fabric().createTenant(new TenantDto("t0", "before", 1.0, 0L));
        awaitComponents();
        assertEquals(List.of(), publishers, "a follower publishes nothing");

        leaderships.elect(ME);
        awaitComponents();
        assertEquals(1, publishers.size());
        RecordingEvents out = publishers.get(0);
        assertEquals("kafka:9092", out.bootstrap);
        fairfabric.fabric().createTenant(new TenantDto("t1", "tenant one", 1.0, 0L));
        fairfabric.fabric().addHost(new HostDto("vm1", "t1", "10.0.1.1", "00:00:00:00:00:01", new LocationDto("device:leaf1", 2)));
        awaitComponents();
        assertTrue(out.types.contains("tenant.created t1"), out.types.toString());
        assertTrue(out.types.contains("host.added vm1"), out.types.toString());
        for (String t : out.types) { // every event the leader publishes has its controller topic
            org.fairfabric.controller.kafka.ControllerTopics.forType(t.split(" ")[0]);
        }

        leaderships.elect(OTHER);
        awaitComponents();
        assertTrue(out.closed, "closed with the components");
        int before = out.types.size();
        fairfabric.fabric().createTenant(new TenantDto("t2", "after", 1.0, 0L));
        awaitComponents();
        assertEquals(before, out.types.size());
        assertEquals(1, publishers.size());
    }

    /** Two servers with host shims (ONOS hosts with {@code "fairfabric": {"shim": true}}), one on each leaf. */
    void twoShimServers() {
        hosts.add("s1", "00:00:00:00:01:01", "10.0.1.1", "device:leaf1", 1);
        hosts.add("s2", "00:00:00:00:02:01", "10.0.2.1", "device:leaf2", 1);
        for (org.onosproject.net.Host h : hosts.hosts) {
            fabric.netcfg.hostBlock(h.id(), "{\"shim\": true}");
        }
    }

    RecordingSink sinkOn(String topic) {
        return opened.stream().filter(s -> s.topic.equals(topic)).reduce((a, b) -> b).orElse(null);
    }

    /** Waits (bounded) for a rates table of {@code host} that rates {@code sessionId}; returns it. */
    static String awaitRates(RecordingSink rates, String host, String sessionId) throws Exception {
        for (int i = 0; i < 200; i++) {
            for (String r : rates.sent) {
                if (!r.startsWith(host + " ")) {
                    continue;
                }
                String table = r.substring(host.length() + 1);
                for (com.fasterxml.jackson.databind.JsonNode e : new com.fasterxml.jackson.databind.ObjectMapper().readTree(table).path("sessions")) {
                    if (sessionId.equals(e.path("id").asText())) {
                        return table;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no rates table of " + host + " rates session " + sessionId + ": " + rates.sent);
    }

    @Test
    void theLeaderAllocatesADeclaredSessionAndPublishesTheRatesTables() throws Exception {
        twoShimServers();
        properties.put(FabricPlatformComponent.KAFKA_BOOTSTRAP, "kafka:9092");
        start(ME);
        awaitComponents();
        org.fairfabric.controller.netcfg.NetworkConfig cfg = platform.topology() instanceof OnosFabricTopology
                ? ((OnosFabricTopology) platform.topology()).configuration() : null;
        assertEquals(java.util.Set.of("device:leaf1", "device:leaf2", "device:spine1"), cfg.devices.keySet());
        assertEquals(2, cfg.links.size(), "one cable per pair of ONOS links");
        assertEquals(100, cfg.links.get(0).bandwidthMbps);
        assertTrue(cfg.hosts.stream().allMatch(h -> h.shim), "the netcfg's shim flag");

        fairfabric.fabric().createTenant(new TenantDto("t1", "tenant one", 1.0, 0L));
        fairfabric.fabric().addHost(new HostDto("s1", "t1", "10.0.1.1", "00:00:00:00:01:01", new LocationDto("device:leaf1", 1)));
        fairfabric.fabric().addHost(new HostDto("s2", "t1", "10.0.2.1", "00:00:00:00:02:01", new LocationDto("device:leaf2", 1)));
        org.fairfabric.api.dto.SessionDto session = fairfabric.fabric().declareSession(org.fairfabric.api.json.SessionJson.create(
                new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"srcHost\":\"s1\",\"dstHost\":\"s2\"}")));

        RecordingSink rates = sinkOn(org.fairfabric.controller.alloc.KafkaRatesSink.TOPIC);
        assertTrue(rates != null && "kafka:9092".equals(rates.bootstrap), "the leader opens the rates sink: " + opened);
        String table = awaitRates(rates, "s1", session.id);
        org.fairfabric.controller.alloc.RatesTableJson.check("s1", "s1", table); // what the shim accepts
        assertTrue(platform.runner().allocation().ratesPublished() > 0);
        assertEquals(List.of(session.id), fairfabric.network().allocations().stream().map(a -> a.sessionId)
                .collect(java.util.stream.Collectors.toList()), "the allocation view (REST, CLI, GUI) has the session");
        assertTrue(fairfabric.network().allocations().get(0).totalBps > 0);
    }

    @Test
    void aFollowerWithKafkaConfiguredAllocatesNothing() throws Exception {
        twoShimServers();
        properties.put(FabricPlatformComponent.KAFKA_BOOTSTRAP, "kafka:9092");
        start(OTHER);
        awaitComponents();
        fairfabric.fabric().createTenant(new TenantDto("t1", "tenant one", 1.0, 0L));
        fairfabric.fabric().addHost(new HostDto("s1", "t1", "10.0.1.1", "00:00:00:00:01:01", new LocationDto("device:leaf1", 1)));
        fairfabric.fabric().addHost(new HostDto("s2", "t1", "10.0.2.1", "00:00:00:00:02:01", new LocationDto("device:leaf2", 1)));
        fairfabric.fabric().declareSession(org.fairfabric.api.json.SessionJson.create(
                new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"srcHost\":\"s1\",\"dstHost\":\"s2\"}")));
        Thread.sleep(500); // longer than the allocator's quiet period: a leader would have published by now
        awaitComponents();
        assertEquals(List.of(), opened, "a follower opens no sink");
        assertTrue(fairfabric.network().allocations().isEmpty());
    }
}
