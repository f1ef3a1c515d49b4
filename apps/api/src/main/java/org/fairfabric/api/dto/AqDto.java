package org.fairfabric.api.dto;

import java.util.Objects;

/**
 * One Augmented Queue placed in the data plane (AQ paper Table 1): where it sits (a device's port,
 * in the ingress pipeline for a host's outbound traffic or the egress pipeline for its inbound
 * traffic), whose it is, and its configuration.
 */
public final class AqDto {
    public final String device;
    public final int port;
    public final String pipeline;
    public final String tenantId;
    public final String host;
    public final String direction;
    public final long aqId;
    public final double rateBps;
    public final long limitBytes;
    public final long ecnThresholdBytes;

    public AqDto(String device, int port, String pipeline, String tenantId, String host, String direction, long aqId,
                 double rateBps, long limitBytes, long ecnThresholdBytes) {
        this.device = Objects.requireNonNull(device, "device");
        this.port = port;
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.tenantId = Objects.requireNonNull(tenantId, "tenantId");
        this.host = Objects.requireNonNull(host, "host");
        this.direction = Objects.requireNonNull(direction, "direction");
        this.aqId = aqId;
        this.rateBps = rateBps;
        this.limitBytes = limitBytes;
        this.ecnThresholdBytes = ecnThresholdBytes;
    }
}
