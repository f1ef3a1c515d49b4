package org.fairfabric.core.ports;

import java.util.List;
import java.util.Map;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.SessionKey;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.session.SessionPath;

/**
 * What the adapters feed into the core: switch feedback (P4TE gradient events, from packet-ins),
 * host-shim reports (session activity, per-session-path bytes) and link state changes.
 */
public interface TelemetryListener {
    /** The events of one feedback packet from one device. */
    void onMetricEvents(List<MetricEvent> events);

    /** Promenade message (a): a sender shim reports a session active or inactive at its time. */
    void onSessionReport(SessionKey session, boolean active, long reportMillis);

    /** Promenade message (d): a receiver's PathBytes table for one period. */
    void onPathBytes(Map<SessionPath, Long> bytes, double periodSeconds);

    void onLinkState(String linkId, LinkState state);
}
