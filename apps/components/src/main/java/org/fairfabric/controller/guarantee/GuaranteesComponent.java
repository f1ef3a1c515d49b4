package org.fairfabric.controller.guarantee;

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
 * the core's {@code AqAdmission}); this component's slice holds their classifiers and configurations.
 */
public final class GuaranteesComponent extends Component {
    public static final String SLICE = "guarantees";

    private final AqPlanner aqs;
    private final AllocationDataPlane dataPlane;
    private final DeviceSlices<Entity> slice;

    public GuaranteesComponent(AllocationDataPlane dataPlane, DeviceProgramming<Entity, ?> devices) {
        super("guarantees");
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
            slice.replace(dataPlane.aqEntities(aqs.apply(((ControlEvent.Allocated) e).result())));
        } else {
            slice.restore();
        }
    }
}
