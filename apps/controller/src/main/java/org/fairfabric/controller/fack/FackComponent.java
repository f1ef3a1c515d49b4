package org.fairfabric.controller.fack;

import java.util.HashMap;
import java.util.Map;
import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.controller.alloc.SessionAllocation;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.component.DeviceSlices;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.DeviceProgramming;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * P4TE's FACK rate control (issue 22), when {@link FackSettings#enabled}: after each allocation,
 * every leaf gets the FACK classes, clone sessions, safe-rate meters at the allocated rates and
 * uplink utilisation meters of {@link FackPlan}, in this component's slice.
 */
public final class FackComponent extends Component {
    public static final String SLICE = "fack";

    private final FackPlan plan;
    private final DeviceSlices<Entity> slice;

    public FackComponent(P4InfoIndex p4, DeviceProgramming<Entity, ?> devices, FackSettings settings) {
        super("fack");
        if (!settings.enabled()) {
            throw new IllegalArgumentException("FACK is not enabled for any traffic class");
        }
        if (!FackEntities.supported(p4)) {
            throw new IllegalArgumentException("the pipeline has no FACK tables (fack_classes, class_safe_rate, link_util)");
        }
        this.plan = new FackPlan(new FackEntities(p4), settings);
        this.slice = new DeviceSlices<>(SLICE, devices);
    }

    /** Whether the pipeline of {@code p4} can run FACK. */
    public static boolean supported(P4InfoIndex p4) {
        return p4 != null && FackEntities.supported(p4);
    }

    @Override
    protected boolean hears(ControlEvent e) {
        return e instanceof ControlEvent.Allocated
                || (e instanceof ControlEvent.TopologyChanged t && t.configurationReplaced());
    }

    @Override
    protected void handle(ControlEvent e) {
        if (e instanceof ControlEvent.Allocated a) {
            Topology topo = a.result().model().topology();
            slice.replace(plan.entities(topo, portRates(topo, a.result())));
        } else {
            slice.restore();
        }
    }

    /** The allocated rate leaving each host port: the sum over the sessions sent from hosts attached there. */
    static Map<ConnectPoint, Double> portRates(Topology topo, AllocationResult r) {
        Map<ConnectPoint, Double> out = new HashMap<>();
        for (SessionAllocation s : r.sessions()) {
            ConnectPoint at = topo.host(s.session().srcHost).attachment();
            out.merge(at, s.totalBps(), Double::sum);
        }
        return out;
    }
}
