package org.fairfabric.onos.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.LocationDto;
import org.fairfabric.api.dto.TenantDto;
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
        };
        platform.leadershipService = leaderships;
        platform.clusterService = new ClusterServiceAdapter() {
            @Override
            public ControllerNode getLocalNode() {
                return new DefaultControllerNode(ME, IpAddress.valueOf("127.0.0.1"));
            }
        };
        platform.fairfabric = fairfabric;
        platform.activate();
        platform.bindSliceProgram(routes);
    }

    @AfterEach
    void stop() {
        if (platform != null) {
            platform.deactivate();
            TestFabric.stop(fairfabric);
        }
    }

    int routesOn(String device) {
        int n = 0;
        for (org.onosproject.net.flow.FlowEntry e : flows.getFlowEntries(DeviceId.deviceId(device))) {
            n++;
        }
        return n;
    }

    @Test
    void theLeaderProgramsEverySliceProgramAndFollowsTheTenantsHosts() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(ME);
        platform.awaitIdle();
        assertTrue(platform.isLeader());
        assertEquals(List.of("run " + FabricPlatformComponent.LEADERSHIP_TOPIC), leaderships.calls);
        assertEquals(1, routesOn("device:leaf1"));
        assertEquals(1, processors.size(), "the packet processor is registered");

        fairfabric.fabric().createTenant(new TenantDto("t1", "tenant one", 1.0, 0L));
        fairfabric.fabric().addHost(new HostDto("vm2", "t1", "10.0.2.1", "00:00:00:00:00:02", new LocationDto("device:leaf2", 2)));
        platform.awaitIdle();
        assertEquals(1, routesOn("device:leaf2"), "a tenant's new host is routed");
    }

    @Test
    void aFollowerComputesAndWritesNothing() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(OTHER);
        platform.awaitIdle();
        assertFalse(platform.isLeader());
        assertEquals(List.of(), computed);
        assertEquals(0, flows.entries.size());
        assertNull(platform.devices().setSlice("routes", "device:leaf1", List.of()).toCompletableFuture().get());
    }

    @Test
    void becomingLeaderProgramsAndRemovesWhatAFormerLeaderLeftStale() throws Exception {
        hosts.add("h1", "00:00:00:00:00:01", "10.0.1.1", "device:leaf1", 1);
        start(OTHER);
        platform.awaitIdle();
        // what the former leader wrote for a host that has gone since
        hosts.hosts.clear();
        hosts.add("h3", "00:00:00:00:00:03", "10.0.3.1", "device:leaf1", 2);
        String table = P4Entities.IN + "downward_routing.routing_down";
        OnosDeviceProgramming former = new OnosDeviceProgramming(platform.coreService, fabric.devices, flows, groups,
                new EntityTranslator(P4InfoNames.ofPipeconf()));
        former.setSlice("routes", "device:leaf1", List.of(p4.entry(table,
                List.of(p4.lpm(table, "hdr.ipv4.dst_addr", P4Entities.ipv4(10, 0, 1, 1), 32)), 0,
                p4.action(P4Entities.IN + "downward_routing.route_down", "port", P4Entities.bytes(1))))).toCompletableFuture().get();

        leaderships.elect(ME);
        platform.awaitIdle();

        assertTrue(platform.isLeader());
        assertEquals(1, routesOn("device:leaf1"));
        Entity toH3 = p4.entry(table, List.of(p4.lpm(table, "hdr.ipv4.dst_addr", P4Entities.ipv4(10, 0, 3, 1), 32)), 0,
                p4.action(P4Entities.IN + "downward_routing.route_down", "port", P4Entities.bytes(2)));
        org.onosproject.net.flow.FlowRule expected = new EntityTranslator(P4InfoNames.ofPipeconf())
                .translate(DeviceId.deviceId("device:leaf1"), former.sliceApp("routes"), List.of(toH3)).rules().get(0);
        assertTrue(flows.getFlowEntries(DeviceId.deviceId("device:leaf1")).iterator().next().exactMatch(expected),
                "the route to h3 replaced the stale one");

        leaderships.elect(OTHER);
        platform.awaitIdle();
        assertFalse(platform.isLeader());
        int before = computed.size();
        hosts.add("h4", "00:00:00:00:00:04", "10.0.4.1", "device:leaf2", 1);
        platform.reprogram();
        platform.awaitIdle();
        assertEquals(before, computed.size(), "a former leader stops computing");
        assertEquals(0, routesOn("device:leaf2"));
    }

    @Test
    void deactivationWithdrawsAndUnregisters() throws Exception {
        start(ME);
        platform.deactivate();
        assertEquals(List.of("run " + FabricPlatformComponent.LEADERSHIP_TOPIC, "withdraw " + FabricPlatformComponent.LEADERSHIP_TOPIC),
                leaderships.calls);
        assertEquals(List.of(), processors);
        assertEquals(List.of(), leaderships.listeners);
        platform = null;
        TestFabric.stop(fairfabric);
    }
}
