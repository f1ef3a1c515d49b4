package org.fairfabric.controller;

import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.AllocationComponent;
import org.fairfabric.controller.alloc.AllocationDataPlane;
import org.fairfabric.controller.alloc.KafkaRatesSink;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.failure.DeadPathsComponent;
import org.fairfabric.controller.guarantee.GuaranteesComponent;
import org.fairfabric.controller.program.AllocationEntities;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.controller.routing.RoutingGroupsComponent;
import org.fairfabric.controller.wiring.FabricComponents;

/** The controller's components (docs/architecture.md "Controller components"), registered on one bus. */
final class Components {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Components.class);

    final AllocationComponent allocation;
    /** Null without the fabric pipeline. */
    final RoutingGroupsComponent routingGroups;

    private Components(AllocationComponent allocation, RoutingGroupsComponent routingGroups) {
        this.allocation = allocation;
        this.routingGroups = routingGroups;
    }

    /**
     * Without a pipeline only allocation runs (rates for the shims); with a pipeline other than the
     * fabric's, forwarding answers ARP but nothing is programmed.
     */
    static Components start(ControlBus bus, Platform p, FabricService fabric, NetworkView network, EventLog events,
                            ControllerSettings s) {
        if (p.p4 != null && !p.fabricPipeline) {
            LOG.warn("the pipeline is not the fabric pipeline (pipeconfs/p4/fabric.p4): it is pushed, but no forwarding is programmed");
        }
        FabricPlan plan = p.fabricPipeline ? new FabricPlan(p.p4, Controller.CPU_PORT, Controller.QUEUE_DELTA) : null;
        RoutingGroupsComponent groups = FabricComponents.register(bus, p.p4, plan, p.topology, p.slices, p.packets, network,
                ip -> Controller.macOfIp(fabric, p.topology.configuration(), ip), s.routing,
                plan != null && s.kafka != null ? new KafkaRatesSink(s.kafka, DeadPathsComponent.TOPIC,
                        "fairfabric-controller-deadpaths", "dead paths") : null, s.echoIntervalMs).routingGroups;
        AllocationComponent allocation = bus.register(new AllocationComponent(fabric, network, events,
                p.topology::configuration, p.p4, plan == null ? null : p.slices,
                s.kafka == null ? null : new KafkaRatesSink(s.kafka, KafkaRatesSink.TOPIC), bus, s.routing, s.headroom));
        if (plan != null && AllocationEntities.supported(p.p4)) {
            bus.register(new GuaranteesComponent(new AllocationDataPlane(new AllocationEntities(p.p4)), p.slices, network));
        }
        if (plan != null && s.fack.enabled() && org.fairfabric.controller.fack.FackComponent.supported(p.p4)) {
            bus.register(new org.fairfabric.controller.fack.FackComponent(p.p4, p.slices, s.fack));
        }
        return new Components(allocation, groups);
    }
}
