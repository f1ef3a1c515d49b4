package org.fairfabric.core.guarantee;

/**
 * Units of the per-hop fields of a vFab probe (App. D leaves them open). fairfabric's choice:
 * <ul>
 *   <li>W (16 bit): window in 64-byte units, up to 4,194,240 B;</li>
 *   <li>Phi (16 bit): whole tokens;</li>
 *   <li>tx (16 bit): fraction of the port's line rate C', tx / C' * 65535, so any speed fits;</li>
 *   <li>q (12 bit): queue in 64-byte cells, up to 262,080 B;</li>
 *   <li>C (4 bit): a speed code, see {@link #SPEED_CODES_BPS}.</li>
 * </ul>
 * Encoding rounds to the nearest unit and saturates at the field's maximum.
 */
public final class ProbeUnits {
    public static final int WINDOW_UNIT_BYTES = 64;
    public static final int QUEUE_UNIT_BYTES = 64;
    /** Line rate of each 4-bit speed code; code 0 means unknown. Covers emulated and real speeds. */
    public static final long[] SPEED_CODES_BPS = {
        0L, 1_000_000L, 10_000_000L, 20_000_000L, 50_000_000L, 100_000_000L, 200_000_000L, 500_000_000L,
        1_000_000_000L, 2_500_000_000L, 5_000_000_000L, 10_000_000_000L, 25_000_000_000L, 40_000_000_000L,
        100_000_000_000L, 400_000_000_000L,
    };

    private ProbeUnits() {
    }

    public static int encodeWindow(double bytes) {
        return saturate(Math.round(nonNegative(bytes) / WINDOW_UNIT_BYTES), 0xFFFF);
    }

    public static double decodeWindow(int field) {
        return (double) field * WINDOW_UNIT_BYTES;
    }

    public static int encodeTokens(double tokens) {
        return saturate(Math.round(nonNegative(tokens)), 0xFFFF);
    }

    public static int encodeTx(double txBps, long lineRateBps) {
        if (lineRateBps <= 0) {
            throw new IllegalArgumentException("line rate must be positive");
        }
        return saturate(Math.round(nonNegative(txBps) / lineRateBps * 0xFFFF), 0xFFFF);
    }

    public static double decodeTx(int field, long lineRateBps) {
        return (double) field / 0xFFFF * lineRateBps;
    }

    public static int encodeQueue(double bytes) {
        return saturate(Math.round(nonNegative(bytes) / QUEUE_UNIT_BYTES), 0xFFF);
    }

    public static double decodeQueue(int field) {
        return (double) field * QUEUE_UNIT_BYTES;
    }

    /** The speed code of a line rate; only exact table speeds have a code. */
    public static int speedCode(long lineRateBps) {
        for (int i = 1; i < SPEED_CODES_BPS.length; i++) {
            if (SPEED_CODES_BPS[i] == lineRateBps) {
                return i;
            }
        }
        throw new IllegalArgumentException("line rate " + lineRateBps + " bit/s has no 4-bit speed code");
    }

    public static long lineRate(int speedCode) {
        if (speedCode < 1 || speedCode >= SPEED_CODES_BPS.length) {
            throw new IllegalArgumentException("speed code " + speedCode + " is unknown");
        }
        return SPEED_CODES_BPS[speedCode];
    }

    private static double nonNegative(double v) {
        if (!(v >= 0)) {
            throw new IllegalArgumentException("probe field value must be >= 0, got " + v);
        }
        return v;
    }

    private static int saturate(long v, int max) {
        return (int) Math.min(v, max);
    }
}
