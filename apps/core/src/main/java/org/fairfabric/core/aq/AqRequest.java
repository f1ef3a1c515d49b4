package org.fairfabric.core.aq;

import java.util.OptionalLong;
import org.fairfabric.core.model.Checks;

/**
 * A tenant's request for an augmented queue (AQ paper Table 1): rate (absolute bandwidth or
 * weight), congestion-control fields, position, and optional overrides of the limit and the ECN
 * threshold (which otherwise follow {@link AqDefaults}).
 */
public final class AqRequest {
    private final String tenantId;
    private final String entity;
    private final AqMode mode;
    private final double bandwidthBps;
    private final double weight;
    private final CongestionSignal signal;
    private final OptionalLong ecnThresholdBytes;
    private final OptionalLong limitBytes;
    private final AqPosition position;

    private AqRequest(String tenantId, String entity, AqMode mode, double bandwidthBps, double weight,
                      CongestionSignal signal, OptionalLong ecnThresholdBytes, OptionalLong limitBytes,
                      AqPosition position) {
        this.tenantId = Checks.nonEmpty(tenantId, "AQ tenant id");
        this.entity = Checks.nonEmpty(entity, "AQ entity");
        this.mode = mode;
        this.bandwidthBps = bandwidthBps;
        this.weight = weight;
        this.signal = Checks.notNull(signal, "AQ congestion signal");
        this.ecnThresholdBytes = Checks.notNull(ecnThresholdBytes, "ECN threshold");
        this.limitBytes = Checks.notNull(limitBytes, "limit");
        this.position = Checks.notNull(position, "AQ position");
        if (ecnThresholdBytes.isPresent()) {
            Checks.positive(ecnThresholdBytes.getAsLong(), "ECN threshold (bytes)");
            if (signal != CongestionSignal.ECN) {
                throw new IllegalArgumentException("an ECN threshold only applies to ECN-type AQs");
            }
        }
        if (limitBytes.isPresent()) {
            Checks.positive(limitBytes.getAsLong(), "AQ limit (bytes)");
        }
    }

    public static AqRequest absolute(String tenantId, String entity, double bandwidthBps, CongestionSignal signal,
                                     AqPosition position, OptionalLong ecnThresholdBytes, OptionalLong limitBytes) {
        Checks.positive(bandwidthBps, "AQ bandwidth (bit/s)");
        return new AqRequest(tenantId, entity, AqMode.ABSOLUTE, bandwidthBps, 0, signal, ecnThresholdBytes,
                limitBytes, position);
    }

    public static AqRequest weighted(String tenantId, String entity, double weight, CongestionSignal signal,
                                     AqPosition position, OptionalLong ecnThresholdBytes, OptionalLong limitBytes) {
        Checks.positive(weight, "AQ weight");
        return new AqRequest(tenantId, entity, AqMode.WEIGHTED, 0, weight, signal, ecnThresholdBytes, limitBytes,
                position);
    }

    public String tenantId() {
        return tenantId;
    }

    public String entity() {
        return entity;
    }

    public AqMode mode() {
        return mode;
    }

    /** Requested bandwidth in bit/s (absolute mode only). */
    public double bandwidthBps() {
        return bandwidthBps;
    }

    /** Requested weight (weighted mode only). */
    public double weight() {
        return weight;
    }

    public CongestionSignal signal() {
        return signal;
    }

    public OptionalLong ecnThresholdBytes() {
        return ecnThresholdBytes;
    }

    public OptionalLong limitBytes() {
        return limitBytes;
    }

    public AqPosition position() {
        return position;
    }
}
