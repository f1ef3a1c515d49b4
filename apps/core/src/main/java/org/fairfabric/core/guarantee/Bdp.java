package org.fairfabric.core.guarantee;

/**
 * Unit convention of the guarantee package: rates in bit/s, windows and queues in bytes, times in
 * seconds. A bandwidth-delay product C*T is therefore C*T/8 bytes.
 */
public final class Bdp {
    private Bdp() {
    }

    public static double bytes(double rateBps, double seconds) {
        return rateBps * seconds / 8.0;
    }
}
