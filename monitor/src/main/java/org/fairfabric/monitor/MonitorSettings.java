package org.fairfabric.monitor;

import java.util.ArrayList;
import java.util.List;

/**
 * The monitor's rules, all in milliseconds (docs/monitor.md, "Rules").
 *
 * @param periodMs           T: the view's period; reports are assigned to the period that holds their midpoint
 * @param graceMs            a period closes when the stage's clock passes its end plus this grace
 * @param activityWindowMs   a session with received bytes this recently is active
 * @param livenessTimeoutMs  a session silent longer than this is dropped (docs/algorithms.md)
 * @param violationHoldMs    a tenant below min(guarantee, demand) this long raises a violation
 * @param violationTolerance achieved below (1 - tolerance) x target counts as below
 * @param inputLagMs         how far (event time) an input may lag the fastest one and still hold the
 *                           periods open; also how long a cold-started stage waits for its inputs
 * @param minMeanPacketBytes a pair's traffic in a report makes it a session only when its packets' mean
 *                           IP size is at least this (bytes): pure TCP ACKs (at most 80) do not
 */
public record MonitorSettings(long periodMs, long graceMs, long activityWindowMs, long livenessTimeoutMs,
                              long violationHoldMs, double violationTolerance, long inputLagMs,
                              long minMeanPacketBytes) {

    public static final long DEFAULT_INPUT_LAG_MS = 5000;
    /** Above a pure TCP ACK's 80 IP bytes at most (20 IPv4 + 20 TCP + 40 options). */
    public static final long DEFAULT_MIN_MEAN_PACKET_BYTES = 100;
    public static final MonitorSettings DEFAULTS =
            new MonitorSettings(1000, 1500, 3000, 30000, 3000, 0.05, DEFAULT_INPUT_LAG_MS, DEFAULT_MIN_MEAN_PACKET_BYTES);

    public MonitorSettings {
        positive("period", periodMs);
        if (inputLagMs < 0) {
            throw new IllegalArgumentException("input lag must be >= 0 ms, got " + inputLagMs);
        }
        if (graceMs < 0) {
            throw new IllegalArgumentException("grace must be >= 0 ms, got " + graceMs);
        }
        positive("activity window", activityWindowMs);
        positive("liveness timeout", livenessTimeoutMs);
        if (violationHoldMs < 0) {
            throw new IllegalArgumentException("violation hold must be >= 0 ms, got " + violationHoldMs);
        }
        if (minMeanPacketBytes < 0) {
            throw new IllegalArgumentException("min mean packet size must be >= 0 bytes, got " + minMeanPacketBytes);
        }
        if (!(violationTolerance >= 0 && violationTolerance < 1)) {
            throw new IllegalArgumentException("violation tolerance must be in [0, 1), got " + violationTolerance);
        }
    }

    private static void positive(String what, long ms) {
        if (ms <= 0) {
            throw new IllegalArgumentException(what + " must be > 0 ms, got " + ms);
        }
    }

    /** The start of the period that holds [startMs, endMs)'s midpoint. */
    public long periodOf(long startMs, long endMs) {
        long mid = startMs + (endMs - startMs) / 2;
        return Math.floorDiv(mid, periodMs) * periodMs;
    }

    /** A part of a report's interval: the period it falls in and its share of the interval (shares add up to 1). */
    public record Share(long period, double fraction) {
    }

    /**
     * The periods that [startMs, endMs) overlaps, oldest first, each with the share of the interval
     * inside it. Byte counts are split by these shares, so reports and counter readings whose
     * intervals are not aligned to the periods (every shim and the poller have their own phase and
     * jitter) still give each period exactly the bytes of its own time.
     */
    public List<Share> split(long startMs, long endMs) {
        if (endMs <= startMs) {
            return List.of(new Share(Math.floorDiv(startMs, periodMs) * periodMs, 1.0));
        }
        List<Share> out = new ArrayList<>();
        double length = endMs - startMs;
        for (long p = Math.floorDiv(startMs, periodMs) * periodMs; p < endMs; p += periodMs) {
            long overlap = Math.min(endMs, p + periodMs) - Math.max(startMs, p);
            if (overlap > 0) {
                out.add(new Share(p, overlap / length));
            }
        }
        return out;
    }

    /**
     * True when {@code packets} packets of {@code ipBytes} IP bytes in all are data traffic of a
     * session, not a reverse stream of acknowledgements (docs/monitor.md, "Sessions").
     */
    public boolean sessionTraffic(long packets, long ipBytes) {
        return packets > 0 && ipBytes >= minMeanPacketBytes * packets;
    }

    /** True when period {@code periodStart} is closed at clock {@code clockMs}. */
    public boolean closed(long periodStart, long clockMs) {
        return periodStart + periodMs + graceMs <= clockMs;
    }
}
