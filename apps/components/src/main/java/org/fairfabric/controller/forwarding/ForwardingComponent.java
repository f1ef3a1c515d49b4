package org.fairfabric.controller.forwarding;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.fairfabric.controller.arp.ArpService;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.core.model.Device;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.DeviceProgramming;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.core.platform.PacketService;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * Forwarding: every switch's ports, router MAC, downward routes, pinned uplinks and proxy-ARP
 * entries for the current fabric ({@link FabricPlan} without routing groups), and the ARP
 * requests the switches cannot answer themselves.
 */
public final class ForwardingComponent extends Component {
    public static final String SLICE = "forwarding";

    private final FabricPlan plan;
    private final FabricTopology fabric;
    private final DeviceProgramming<Entity, ?> devices;
    private final Predicate<Entity> kept;

    /** {@code plan} null: the pipeline is not the fabric pipeline, so only ARP is answered. */
    public ForwardingComponent(FabricPlan plan, FabricTopology fabric, DeviceProgramming<Entity, ?> devices,
                               PacketService packets, Function<String, Optional<String>> macOfIp) {
        this(plan, fabric, devices, packets, macOfIp, e -> true);
    }

    /** {@code kept}: which of the plan's entities are programmed (ECMP mode leaves the pinned paths out). */
    public ForwardingComponent(FabricPlan plan, FabricTopology fabric, DeviceProgramming<Entity, ?> devices,
                               PacketService packets, Function<String, Optional<String>> macOfIp, Predicate<Entity> kept) {
        super("forwarding");
        this.kept = kept;
        this.plan = plan;
        this.fabric = fabric;
        this.devices = devices;
        // The fabric routes: its switches' ARP tables answer every host's address with the
        // switch's router MAC, and so must the controller while a new host's entry is not written
        // yet (a host that cached the target's own MAC sends frames no switch accepts, for
        // as long as the kernel keeps the entry: up to a minute).
        ArpService arp = new ArpService(packets, plan == null ? (device, ip) -> macOfIp.apply(ip)
                : (device, ip) -> macOfIp.apply(ip).map(mac -> fabric.routerMac(device)));
        packets.addListener(p -> {
            if (ArpService.isArp(p)) {
                run(() -> arp.onPacket(p));
            }
        });
    }

    @Override
    protected boolean hears(ControlEvent e) {
        return plan != null && e instanceof ControlEvent.TopologyChanged;
    }

    @Override
    protected void handle(ControlEvent e) {
        Topology topo = ((ControlEvent.TopologyChanged) e).topology();
        for (Device d : topo.devices().values()) {
            List<Entity> mine = new java.util.ArrayList<>(plan.entitiesOf(topo, d.id(), fabric::routerMac, null));
            mine.removeIf(kept.negate());
            devices.setSlice(SLICE, d.id(), mine);
        }
    }
}
