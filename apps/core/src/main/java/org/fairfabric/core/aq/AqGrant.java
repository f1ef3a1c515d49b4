package org.fairfabric.core.aq;

import java.util.Objects;

/**
 * A granted AQ as the data plane needs it (AQ paper Table 1 "AQ configuration"): its id (the tag
 * packets carry), the register index holding its gap and last_time, and its rate, limit and ECN
 * threshold (0 unless the AQ is ECN-type).
 */
public final class AqGrant {
    private final long aqId;
    private final int registerIndex;
    private final AqRequest request;
    private final double rateBps;
    private final long limitBytes;
    private final long ecnThresholdBytes;

    public AqGrant(long aqId, int registerIndex, AqRequest request, double rateBps, long limitBytes,
                   long ecnThresholdBytes) {
        this.aqId = aqId;
        this.registerIndex = registerIndex;
        this.request = request;
        this.rateBps = rateBps;
        this.limitBytes = limitBytes;
        this.ecnThresholdBytes = ecnThresholdBytes;
    }

    public long aqId() {
        return aqId;
    }

    public int registerIndex() {
        return registerIndex;
    }

    public AqRequest request() {
        return request;
    }

    public AqPosition position() {
        return request.position();
    }

    public double rateBps() {
        return rateBps;
    }

    public long limitBytes() {
        return limitBytes;
    }

    public long ecnThresholdBytes() {
        return ecnThresholdBytes;
    }

    AqGrant withRate(double newRateBps, long newLimitBytes, long newEcnThresholdBytes) {
        return new AqGrant(aqId, registerIndex, request, newRateBps, newLimitBytes, newEcnThresholdBytes);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof AqGrant)) {
            return false;
        }
        AqGrant g = (AqGrant) o;
        return aqId == g.aqId && registerIndex == g.registerIndex && rateBps == g.rateBps
                && limitBytes == g.limitBytes && ecnThresholdBytes == g.ecnThresholdBytes && request == g.request;
    }

    @Override
    public int hashCode() {
        return Objects.hash(aqId, registerIndex, rateBps, limitBytes, ecnThresholdBytes);
    }

    @Override
    public String toString() {
        return "AQ#" + aqId + "@" + position() + "[idx " + registerIndex + ", " + rateBps + " bit/s, limit "
                + limitBytes + " B, ecn " + ecnThresholdBytes + " B]";
    }
}
