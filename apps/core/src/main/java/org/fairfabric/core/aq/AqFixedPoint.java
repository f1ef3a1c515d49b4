package org.fairfabric.core.aq;

/**
 * The fixed-point encodings of an AQ's rate the pipeline uses (no floating point or division in the
 * switch): rate_fp = R in bytes per microsecond times 2^16, and inv_rate_fp = nanoseconds per byte
 * times 2^16 (so the virtual delay of a gap is (gap * inv_rate_fp) >> 16 ns).
 */
public final class AqFixedPoint {
    private AqFixedPoint() {
    }

    public static long rateFp(double rateBps) {
        if (!(rateBps > 0)) {
            throw new IllegalArgumentException("AQ rate must be positive, got " + rateBps);
        }
        return Math.round(rateBps / 8 / 1e6 * 65536);
    }

    public static long inverseRateFp(double rateBps) {
        if (!(rateBps > 0)) {
            throw new IllegalArgumentException("AQ rate must be positive, got " + rateBps);
        }
        return Math.round(8e9 / rateBps * 65536);
    }
}
