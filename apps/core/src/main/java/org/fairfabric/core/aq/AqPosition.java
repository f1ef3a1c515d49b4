package org.fairfabric.core.aq;

import java.util.Objects;
import org.fairfabric.core.model.Checks;

/** Where an AQ is deployed: a port of a device, in the ingress or egress pipeline. */
public final class AqPosition {
    private final String deviceId;
    private final int port;
    private final AqPipeline pipeline;

    public AqPosition(String deviceId, int port, AqPipeline pipeline) {
        this.deviceId = Checks.nonEmpty(deviceId, "AQ device id");
        if (port <= 0) {
            throw new IllegalArgumentException("AQ port must be positive, got " + port);
        }
        this.port = port;
        this.pipeline = Checks.notNull(pipeline, "AQ pipeline");
    }

    public String deviceId() {
        return deviceId;
    }

    public int port() {
        return port;
    }

    public AqPipeline pipeline() {
        return pipeline;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof AqPosition)) {
            return false;
        }
        AqPosition p = (AqPosition) o;
        return port == p.port && deviceId.equals(p.deviceId) && pipeline == p.pipeline;
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, port, pipeline);
    }

    @Override
    public String toString() {
        return deviceId + "/" + port + "/" + pipeline;
    }
}
