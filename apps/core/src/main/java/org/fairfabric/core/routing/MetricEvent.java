package org.fairfabric.core.routing;

import java.util.Objects;
import org.fairfabric.core.model.Checks;

/** A gradient event the data plane reported for one port of one device (P4TE feedback). */
public final class MetricEvent {
    private final String deviceId;
    private final int port;
    private final Metric metric;
    private final Trend trend;

    public MetricEvent(String deviceId, int port, Metric metric, Trend trend) {
        this.deviceId = Checks.nonEmpty(deviceId, "event device id");
        if (port <= 0) {
            throw new IllegalArgumentException("event port must be positive, got " + port);
        }
        this.port = port;
        this.metric = Checks.notNull(metric, "event metric");
        this.trend = Checks.notNull(trend, "event trend");
    }

    public String deviceId() {
        return deviceId;
    }

    public int port() {
        return port;
    }

    public Metric metric() {
        return metric;
    }

    public Trend trend() {
        return trend;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MetricEvent)) {
            return false;
        }
        MetricEvent e = (MetricEvent) o;
        return port == e.port && deviceId.equals(e.deviceId) && metric == e.metric && trend == e.trend;
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, port, metric, trend);
    }

    @Override
    public String toString() {
        return deviceId + "/" + port + " " + metric + " " + trend;
    }
}
