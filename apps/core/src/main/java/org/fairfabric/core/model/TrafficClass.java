package org.fairfabric.core.model;

/**
 * Traffic classes of P4TE. Codes follow the paper's section 7 (not its Fig. 2 legend, which swaps
 * them): IPv4 TOS 0x10 (Linux IPTOS_LOWDELAY) is short latency-sensitive traffic, TOS 0x08
 * (IPTOS_THROUGHPUT) is large throughput-oriented traffic. The pipeline matches the 6-bit DSCP,
 * which is TOS >> 2.
 */
public enum TrafficClass {
    LOW_DELAY(0x10), HIGH_THROUGHPUT(0x08), BEST_EFFORT(0x00);

    private final int tos;

    TrafficClass(int tos) {
        this.tos = tos;
    }

    /** The IPv4 TOS byte (ECN bits zero), as iperf3 -S sets it. */
    public int tos() {
        return tos;
    }

    public int dscp() {
        return tos >> 2;
    }

    /** Classifies a TOS byte; ECN bits are ignored and unknown codes are best effort. */
    public static TrafficClass ofTos(int tos) {
        if (tos < 0 || tos > 255) {
            throw new IllegalArgumentException("TOS must be a byte, got " + tos);
        }
        int dscpPart = tos & 0xFC;
        for (TrafficClass c : values()) {
            if (c.tos == dscpPart) {
                return c;
            }
        }
        return BEST_EFFORT;
    }
}
