package org.fairfabric.controller.wiring;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.RatesSink;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.failure.DeadPathsComponent;
import org.fairfabric.controller.failure.FailureComponent;
import org.fairfabric.controller.forwarding.ForwardingComponent;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.probing.ProbingComponent;
import org.fairfabric.controller.program.FabricEventHandler;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.controller.routing.RoutingGroupsComponent;
import org.fairfabric.controller.routing.RoutingMode;
import org.fairfabric.core.platform.DeviceProgramming;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.core.platform.PacketService;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * The components that program the fabric from its topology and its switches' reports, registered
 * on one bus over a platform's topology, slice programming and packet I/O: forwarding (with ARP),
 * routing groups, failure handling, dead paths, link probing and the P4TE/vFab report handler
 * (docs/architecture.md "Controller components"). The embedded controller and the ONOS app both
 * register them here, so both run the same graph; allocation is added by each (the ONOS app's
 * leader with Kafka configured, over a network configuration built from ONOS's view), guarantees and
 * FACK by the embedded controller only.
 */
public final class FabricComponents {
    /** The pinned-path table (path id to uplink), left out of forwarding under ECMP routing. */
    public static final String PINNED_PATH_TABLE = "FabricIngress.pinned_path.pinned_path";

    /** Null when the pipeline is not the fabric pipeline. */
    public final RoutingGroupsComponent routingGroups;

    private FabricComponents(RoutingGroupsComponent routingGroups) {
        this.routingGroups = routingGroups;
    }

    /**
     * @param p4        the pipeline's P4Info
     * @param plan      the fabric pipeline's plan; null with another pipeline: forwarding answers ARP only
     * @param packets   the switches' packet I/O; null without a pipeline: nothing is registered
     * @param macOfIp   the MAC of a host's IP address, for ARP answers
     * @param deadPaths where the shims' dead-path tables go; null: not published
     */
    public static FabricComponents register(ControlBus bus, P4InfoIndex p4, FabricPlan plan, FabricTopology topology,
                                            DeviceProgramming<Entity, ?> slices, PacketService packets, NetworkView network,
                                            Function<String, Optional<String>> macOfIp, RoutingMode routing,
                                            RatesSink deadPaths, long echoIntervalMs) {
        if (packets == null) {
            return new FabricComponents(null);
        }
        bus.register(new ForwardingComponent(plan, topology, slices, packets, macOfIp,
                forwardingKept(plan == null ? null : p4, routing)));
        if (plan == null) {
            return new FabricComponents(null);
        }
        RoutingGroupsComponent groups = bus.register(new RoutingGroupsComponent(plan, slices, network, routing));
        bus.register(new FailureComponent(topology, network, bus));
        if (deadPaths != null) { // dead paths to the shims (contract C3)
            bus.register(new DeadPathsComponent(network, deadPaths, System::currentTimeMillis));
        }
        bus.register(new ProbingComponent(topology, packets, echoIntervalMs));
        FabricEventHandler reports = new FabricEventHandler(
                (e, receivedNanos) -> bus.post(new ControlEvent.MetricReported(e, receivedNanos)),
                (device, port, failed) -> bus.post(new ControlEvent.PortStateReported(device, port, failed)));
        packets.addListener(reports::onPacket);
        return new FabricComponents(groups);
    }

    /** ECMP routing leaves the pinned-path entries (path id to uplink) out of forwarding. */
    static Predicate<Entity> forwardingKept(P4InfoIndex p4, RoutingMode mode) {
        if (mode != RoutingMode.ECMP || p4 == null) {
            return e -> true;
        }
        int pinnedPath = p4.tableId(PINNED_PATH_TABLE);
        return e -> !(e.hasTableEntry() && e.getTableEntry().getTableId() == pinnedPath);
    }
}
