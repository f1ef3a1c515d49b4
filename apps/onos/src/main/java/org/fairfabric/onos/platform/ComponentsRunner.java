package org.fairfabric.onos.platform;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.controller.alloc.AllocationComponent;
import org.fairfabric.controller.alloc.CapacityHeadroom;
import org.fairfabric.controller.alloc.AllocationDataPlane;
import org.fairfabric.controller.alloc.KafkaRatesSink;
import org.fairfabric.controller.alloc.RatesSink;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.component.ProvisioningEvents;
import org.fairfabric.controller.failure.DeadPathsComponent;
import org.fairfabric.controller.guarantee.GuaranteesComponent;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.program.AllocationEntities;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.controller.routing.RoutingMode;
import org.fairfabric.controller.wiring.FabricComponents;
import org.fairfabric.core.model.Host;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.DeviceProgramming;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.core.platform.PacketListener;
import org.fairfabric.core.platform.PacketService;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * The controller's components (apps/components) over this node's ONOS adapters, on a bus of their
 * own: the graph the embedded controller registers ({@link FabricComponents}: forwarding with ARP,
 * routing groups, failure handling, link probing, the P4TE/vFab reports), plus what the embedded
 * controller adds to it: the allocator (the embedded {@link AllocationComponent}, over the network
 * configuration built from ONOS's view; it writes the pinned-path entries, slice
 * {@value AllocationComponent#SLICE}) and the guarantees' Augmented Queues ({@link GuaranteesComponent},
 * slice {@value GuaranteesComponent#SLICE}). One runner lives while this node leads; {@link #close}
 * stops its components and detaches them from the packet-ins. With Kafka, rates tables go to the
 * shims on {@value KafkaRatesSink#TOPIC} and dead-path tables on {@value DeadPathsComponent#TOPIC};
 * the sinks are closed with their components.
 */
final class ComponentsRunner implements AutoCloseable {
    /** The pipeline's CPU port and the AQ queue delta, as in the embedded controller (fabric.p4). */
    static final int CPU_PORT = 255;
    static final int QUEUE_DELTA = 10;
    /** Link probing interval, the embedded controller's default. */
    static final long ECHO_INTERVAL_MS = 250;

    private final ControlBus bus = new ControlBus();
    private final RunnerPackets packets;
    private final FabricComponents components;
    private final AllocationComponent allocation;
    private final GuaranteesComponent guarantees;
    private final ProvisioningEvents provisioning;
    private Topology posted;

    /** Opens a sink on one Kafka topic of the configured brokers. */
    interface KafkaSinks {
        RatesSink open(String topic, String clientId, String what);
    }

    /**
     * @param config the fabric as a network configuration (the allocator's input)
     * @param headroom the share of every link the allocator leaves free
     * @param kafka  the sinks to the shims; null: nothing is published (the allocator still runs)
     */
    ComponentsRunner(P4InfoIndex p4, FabricTopology topology, DeviceProgramming<Entity, ?> devices, OnosPackets packets,
                     FabricService fabric, NetworkView network, Supplier<NetworkConfig> config, RoutingMode routing,
                     CapacityHeadroom headroom, KafkaSinks kafka) {
        this.packets = new RunnerPackets(packets);
        FabricPlan plan = FabricPlan.isFabricPipeline(p4) ? new FabricPlan(p4, CPU_PORT, QUEUE_DELTA) : null;
        RatesSink deadPaths = plan != null && kafka != null
                ? kafka.open(DeadPathsComponent.TOPIC, "fairfabric-onos-deadpaths", "dead paths") : null;
        components = FabricComponents.register(bus, p4, plan, topology, devices, this.packets, network,
                ip -> macOfIp(topology.topology(), ip), routing, deadPaths, ECHO_INTERVAL_MS);
        allocation = bus.register(new AllocationComponent(fabric, network, fabric.events(), config,
                p4, plan == null ? null : devices,
                kafka == null ? null : kafka.open(KafkaRatesSink.TOPIC, "fairfabric-onos-rates", "rates table"), bus, routing,
                headroom));
        guarantees = plan != null && AllocationEntities.supported(p4)
                ? bus.register(new GuaranteesComponent(new AllocationDataPlane(new AllocationEntities(p4)), devices, network)) : null;
        provisioning = new ProvisioningEvents(bus, () -> null); // host changes arrive as topology() calls
    }

    /** A provisioning event of the fabric service (tenants, weights, sessions): the allocator runs again. */
    void provisioning(EventDto e) {
        provisioning.publish(e);
    }

    /** The allocator (it runs on every leader; Kafka only adds its rates sink). */
    AllocationComponent allocation() {
        return allocation;
    }

    /** The guarantees' AQ component, null when the pipeline has no AQ tables. */
    GuaranteesComponent guarantees() {
        return guarantees;
    }

    /**
     * Tells the components the fabric's model. A changed set of switches or links is a new
     * configuration to them (as a new network configuration is in embedded mode, where links do not
     * come and go): routing groups are installed afresh over the links there are now.
     */
    void topology(Topology t) {
        if (t == null || t == posted) {
            return;
        }
        boolean replaced = posted == null || !posted.devices().keySet().equals(t.devices().keySet())
                || !linkIds(posted).equals(linkIds(t));
        posted = t;
        bus.post(new ControlEvent.TopologyChanged(t, replaced));
    }

    private static Set<String> linkIds(Topology t) {
        Set<String> ids = new HashSet<>();
        for (Link l : t.links()) {
            ids.add(l.id());
        }
        return ids;
    }

    /** Waits until every component has handled what was posted so far (tests). */
    void sync() {
        bus.sync();
    }

    /** The registered components (routing groups null when the pipeconf's P4Info is not the fabric pipeline's). */
    FabricComponents components() {
        return components;
    }

    @Override
    public void close() {
        packets.detach();
        bus.close();
    }

    static Optional<String> macOfIp(Topology t, String ip) {
        if (t == null) {
            return Optional.empty();
        }
        for (Host h : t.hosts().values()) {
            if (ip.equals(h.ip())) {
                return Optional.of(h.mac());
            }
        }
        return Optional.empty();
    }

    /** The components' view of the packet I/O: their listeners are removed again when the runner closes. */
    static final class RunnerPackets implements PacketService {
        private final OnosPackets packets;
        private final List<PacketListener> added = new CopyOnWriteArrayList<>();

        RunnerPackets(OnosPackets packets) {
            this.packets = packets;
        }

        @Override
        public void addListener(PacketListener listener) {
            added.add(listener);
            packets.addListener(listener);
        }

        @Override
        public boolean send(String deviceId, byte[] frame, Map<String, Long> metadata) {
            return packets.send(deviceId, frame, metadata);
        }

        void detach() {
            for (PacketListener l : added) {
                packets.removeListener(l);
            }
            added.clear();
        }
    }
}
