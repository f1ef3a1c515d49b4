package org.fairfabric.controller.program;

import org.fairfabric.core.platform.InboundPacket;

import java.util.Optional;
import java.util.OptionalLong;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.routing.Trend;

/**
 * Turns the fabric pipeline's event packet-ins (reason EVENT; docs/pipeline.md "Packet-in format")
 * into the core's P4TE feedback (QUEUE_DEPTH, LINK_UTIL and DELAY with INCREASE or DECREASE for the
 * port the event is about) and vFab's LINK_FAILURE reports (1 = the port failed, 2 = recovered).
 * Other reasons (ARP, BOUNCE) are left to others.
 */
public final class FabricEventHandler {
    static final long REASON_EVENT = 2;
    static final int METRIC_LINK_FAILURE = 4;

    /** Hears the metric events, with when their packet-in arrived ({@link System#nanoTime}). */
    public interface MetricEventSink {
        void onMetricEvent(MetricEvent event, long receivedNanos);
    }

    /** A switch decided that one of its ports failed or recovered. */
    public interface PortFailureListener {
        void onPortFailure(String deviceId, int port, boolean failed);
    }

    private final MetricEventSink sink;
    private final PortFailureListener failures;

    public FabricEventHandler(MetricEventSink sink, PortFailureListener failures) {
        this.sink = sink;
        this.failures = failures;
    }

    /**
     * Hands the event of one packet-in on; false when it is neither a metric event nor a failure
     * report. {@code receivedNanos} is when the packet-in arrived ({@link System#nanoTime}).
     */
    public boolean onPacket(InboundPacket packet) {
        Optional<MetricEvent> e = decode(packet);
        if (e.isPresent()) {
            sink.onMetricEvent(e.get(), packet.receivedNanos());
            return true;
        }
        OptionalLong reason = packet.metadata("reason");
        OptionalLong port = packet.metadata("event_port");
        OptionalLong metric = packet.metadata("metric");
        OptionalLong direction = packet.metadata("direction");
        if (reason.orElse(0) == REASON_EVENT && metric.orElse(0) == METRIC_LINK_FAILURE && port.orElse(0) > 0
                && (direction.orElse(0) == 1 || direction.orElse(0) == 2)) {
            failures.onPortFailure(packet.deviceId(), (int) port.getAsLong(), direction.getAsLong() == 1);
            return true;
        }
        return false;
    }

    Optional<MetricEvent> decode(InboundPacket packet) {
        OptionalLong reason = packet.metadata("reason");
        OptionalLong port = packet.metadata("event_port");
        OptionalLong metric = packet.metadata("metric");
        OptionalLong direction = packet.metadata("direction");
        if (reason.isEmpty() || reason.getAsLong() != REASON_EVENT || port.isEmpty() || port.getAsLong() <= 0
                || metric.isEmpty() || direction.isEmpty()) {
            return Optional.empty();
        }
        Metric m;
        switch ((int) metric.getAsLong()) {
            case 1: m = Metric.QUEUE_DEPTH; break;
            case 2: m = Metric.LINK_UTILIZATION; break;
            case 3: m = Metric.DELAY; break;
            default: return Optional.empty();
        }
        Trend t;
        switch ((int) direction.getAsLong()) {
            case 1: t = Trend.INCREASE; break;
            case 2: t = Trend.DECREASE; break;
            default: return Optional.empty();
        }
        return Optional.of(new MetricEvent(packet.deviceId(), (int) port.getAsLong(), m, t));
    }
}
