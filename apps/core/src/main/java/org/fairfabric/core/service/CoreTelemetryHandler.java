package org.fairfabric.core.service;

import java.util.List;
import java.util.Map;
import org.fairfabric.core.model.Checks;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.SessionKey;
import org.fairfabric.core.ports.TelemetryListener;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.session.SessionPath;

/** Routes telemetry from the adapters to the services that own it. */
public final class CoreTelemetryHandler implements TelemetryListener {
    private final RoutingGroupService routing;
    private final SessionMonitor monitor;

    public CoreTelemetryHandler(RoutingGroupService routing, SessionMonitor monitor) {
        this.routing = Checks.notNull(routing, "routing-group service");
        this.monitor = Checks.notNull(monitor, "session monitor");
    }

    @Override
    public void onMetricEvents(List<MetricEvent> events) {
        routing.onMetricEvents(events);
    }

    @Override
    public void onSessionReport(SessionKey session, boolean active, long reportMillis) {
        monitor.onSessionReport(session, active, reportMillis);
    }

    @Override
    public void onPathBytes(Map<SessionPath, Long> bytes, double periodSeconds) {
        monitor.onPathBytes(bytes, periodSeconds);
    }

    @Override
    public void onLinkState(String linkId, LinkState state) {
        routing.onLinkState(linkId, state);
    }
}
