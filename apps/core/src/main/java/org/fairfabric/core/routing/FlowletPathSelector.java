package org.fairfabric.core.routing;

import java.util.HashMap;
import java.util.Map;
import org.fairfabric.core.model.TrafficClass;

/**
 * Reference model of P4TE Algorithm 3 (upward path selection per flowlet), so the controller can
 * predict and check which uplink a packet takes.
 *
 * <p>Resolved OCR gaps: the gap comparison is strict {@code >} (as in the authors' release); the
 * missing else branches reuse {@code last_used_ports}. A flowlet id never seen before starts a new
 * flowlet (in the switch its registers hold 0, so the gap is the whole timestamp and exceeds any
 * sane threshold). The last-seen time is updated for every packet, as lines 5-6 run before the
 * class test. Classes other than LOW_DELAY and HIGH_THROUGHPUT always take the lowest-queue-depth
 * port. Ports missing from the utilisation map are GREEN (registers start at 0).
 */
public final class FlowletPathSelector {
    private final long gapThresholdMicros;
    private final Map<Integer, Long> lastSeen = new HashMap<>();
    private final Map<Integer, Integer> lastUsedPort = new HashMap<>();

    public FlowletPathSelector(long gapThresholdMicros) {
        if (gapThresholdMicros <= 0) {
            throw new IllegalArgumentException("flowlet gap threshold must be positive, got " + gapThresholdMicros);
        }
        this.gapThresholdMicros = gapThresholdMicros;
    }

    public int select(TrafficClass trafficClass, int flowletId, long nowMicros, UpwardCandidates candidates,
                      Map<Integer, UtilizationColor> portUtilizations) {
        Long previous = lastSeen.put(flowletId, nowMicros);
        boolean newFlowlet = previous == null || nowMicros - previous > gapThresholdMicros;
        switch (trafficClass) {
            case LOW_DELAY:
                if (newFlowlet || !lastUsedPort.containsKey(flowletId)) {
                    int port = byStatus(color(portUtilizations, candidates.lowDelayPort()),
                            candidates.lowDelayPort(), candidates.lowQueueDepthPort(), candidates.lowUtilizationPort());
                    lastUsedPort.put(flowletId, port);
                    return port;
                }
                return lastUsedPort.get(flowletId);
            case HIGH_THROUGHPUT:
                if (newFlowlet || !lastUsedPort.containsKey(flowletId)) {
                    int port = byStatus(color(portUtilizations, candidates.lowUtilizationPort()),
                            candidates.lowUtilizationPort(), candidates.lowQueueDepthPort(), candidates.lowDelayPort());
                    lastUsedPort.put(flowletId, port);
                    return port;
                }
                return lastUsedPort.get(flowletId);
            default:
                return candidates.lowQueueDepthPort();
        }
    }

    private static UtilizationColor color(Map<Integer, UtilizationColor> utilizations, int port) {
        UtilizationColor c = utilizations.get(port);
        return c == null ? UtilizationColor.GREEN : c;
    }

    private static int byStatus(UtilizationColor status, int green, int yellow, int red) {
        switch (status) {
            case GREEN:
                return green;
            case YELLOW:
                return yellow;
            default:
                return red;
        }
    }
}
