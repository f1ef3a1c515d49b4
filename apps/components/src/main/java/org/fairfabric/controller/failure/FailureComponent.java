package org.fairfabric.controller.failure;

import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.FabricTopology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failure handling (vFab): a switch that decided one of its fabric ports failed or recovered has
 * already moved its traffic (fast failover); this makes it the link's state — in the REST view and
 * as {@link ControlEvent.LinkStateChanged} for routing groups (the uplink leaves or rejoins the
 * groups, detours below a failed downlink) and allocation (paths over it are dropped). Repeated
 * reports of the state in force change nothing.
 */
public final class FailureComponent extends Component {
    private static final Logger LOG = LoggerFactory.getLogger(FailureComponent.class);

    private final FabricTopology fabric;
    private final NetworkView network;
    private final ControlBus bus;
    private final java.util.Set<ConnectPoint> failed = new java.util.HashSet<>();

    public FailureComponent(FabricTopology fabric, NetworkView network, ControlBus bus) {
        super("failure");
        this.fabric = fabric;
        this.network = network;
        this.bus = bus;
    }

    @Override
    protected boolean hears(ControlEvent e) {
        return e instanceof ControlEvent.PortStateReported
                || (e instanceof ControlEvent.TopologyChanged && ((ControlEvent.TopologyChanged) e).configurationReplaced());
    }

    @Override
    protected void handle(ControlEvent e) {
        if (e instanceof ControlEvent.TopologyChanged) {
            failed.clear();
            return;
        }
        ControlEvent.PortStateReported r = (ControlEvent.PortStateReported) e;
        Topology topo = fabric.topology();
        if (topo == null || !topo.devices().containsKey(r.deviceId())) {
            return;
        }
        ConnectPoint cp = new ConnectPoint(r.deviceId(), r.port());
        boolean changed = r.failed() ? failed.add(cp) : failed.remove(cp);
        if (!changed) {
            return;
        }
        LOG.info("{}/{} {} (vFab)", r.deviceId(), r.port(), r.failed() ? "failed" : "recovered");
        network.setPortUp(r.deviceId(), r.port(), !r.failed());
        bus.post(new ControlEvent.LinkStateChanged(r.deviceId(), r.port(), !r.failed()));
    }
}
