package org.fairfabric.controller.guarantee;

import java.util.ArrayList;
import java.util.List;
import org.fairfabric.api.dto.AqDto;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.AllocationDataPlane;
import org.fairfabric.controller.alloc.AqPlanner;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.component.DeviceSlices;
import org.fairfabric.core.platform.DeviceProgramming;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * Guarantees and Augmented Queues: after each allocation, every host of a tenant with a guarantee
 * gets an outbound and an inbound AQ at the rate it was allocated ({@link AqPlanner}, admission by
 * the core's {@code AqAdmission}); this component's slice holds their classifiers and configurations,
 * and the network view lists them ({@code GET /aqs}).
 */
public final class GuaranteesComponent extends Component {
    public static final String SLICE = "guarantees";

    private final AqPlanner aqs;
    private final AllocationDataPlane dataPlane;
    private final DeviceSlices<Entity> slice;
    private final NetworkView network;

    public GuaranteesComponent(AllocationDataPlane dataPlane, DeviceProgramming<Entity, ?> devices) {
        this(dataPlane, devices, null);
    }

    /** {@code network}: where the placed AQs are listed, or null. */
    public GuaranteesComponent(AllocationDataPlane dataPlane, DeviceProgramming<Entity, ?> devices, NetworkView network) {
        super("guarantees");
        this.network = network;
        this.aqs = new AqPlanner(System::currentTimeMillis);
        this.dataPlane = dataPlane;
        this.slice = new DeviceSlices<>(SLICE, devices);
    }

    @Override
    protected boolean hears(ControlEvent e) {
        return e instanceof ControlEvent.Allocated
                || (e instanceof ControlEvent.TopologyChanged && ((ControlEvent.TopologyChanged) e).configurationReplaced());
    }

    @Override
    protected void handle(ControlEvent e) {
        if (e instanceof ControlEvent.Allocated) {
            List<AqPlanner.PlacedAq> placed = aqs.apply(((ControlEvent.Allocated) e).result());
            slice.replace(dataPlane.aqEntities(placed));
            if (network != null) {
                List<AqDto> dtos = new ArrayList<>();
                placed.forEach(a -> dtos.add(a.dto()));
                network.setAqs(dtos);
            }
        } else {
            slice.restore();
        }
    }
}
