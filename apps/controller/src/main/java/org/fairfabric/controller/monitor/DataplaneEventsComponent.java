package org.fairfabric.controller.monitor;

import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlEvent;

/**
 * The monitor's listener on the control bus: forwards the data-plane reports (failure reports, P4TE
 * gradients) to ff.ctl.dataplane-events.v1, and rebuilds the catalog when the topology in force changed.
 */
final class DataplaneEventsComponent extends Component {
    private final ControllerMonitor monitor;

    DataplaneEventsComponent(ControllerMonitor monitor) {
        super("monitor-dataplane-events");
        this.monitor = monitor;
    }

    @Override
    protected boolean hears(ControlEvent e) {
        return e instanceof ControlEvent.MetricReported || e instanceof ControlEvent.PortStateReported
                || e instanceof ControlEvent.TopologyChanged;
    }

    @Override
    protected void handle(ControlEvent e) {
        if (e instanceof ControlEvent.MetricReported m) {
            monitor.metricEvent(m.event());
        } else if (e instanceof ControlEvent.PortStateReported p) {
            monitor.portFailure(p.deviceId(), p.port(), p.failed());
        } else {
            monitor.topologyChanged();
        }
    }
}
