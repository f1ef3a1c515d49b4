package org.fairfabric.core.aq;

import org.fairfabric.core.model.Checks;

/**
 * Reference model of one AQ in the data plane (AQ paper Algorithms 1 and 2), for checking the
 * pipeline bit for bit: A-Gap gap = max(0, gap - dt * R) + size, then drop if gap > limit (taking the
 * packet back out of the gap; last_time stays advanced), else mark ECN if gap > threshold, or report
 * the virtual delay gap / R. Comparisons are strict. Rate in bytes per microsecond, times in us.
 */
public final class AugmentedQueueModel {
    /** What happened to one packet. */
    public enum Verdict {
        PASS, DROP, MARK
    }

    private final double rateBytesPerMicro;
    private final long limitBytes;
    private final CongestionSignal signal;
    private final long ecnThresholdBytes;
    private double gap;
    private long lastTime;
    private double lastVirtualDelayMicros;

    public AugmentedQueueModel(double rateBytesPerMicro, long limitBytes, CongestionSignal signal, long ecnThresholdBytes) {
        this.rateBytesPerMicro = Checks.positive(rateBytesPerMicro, "AQ rate (B/us)");
        this.limitBytes = Checks.positive(limitBytes, "AQ limit");
        this.signal = Checks.notNull(signal, "congestion signal");
        this.ecnThresholdBytes = ecnThresholdBytes;
    }

    public Verdict onPacket(long timeMicros, int sizeBytes) {
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("packet size must be positive");
        }
        long dt = timeMicros - lastTime;
        if (dt < 0) {
            throw new IllegalArgumentException("time went backwards: " + timeMicros + " < " + lastTime);
        }
        gap = Math.max(0, gap - dt * rateBytesPerMicro) + sizeBytes;
        lastTime = timeMicros;
        lastVirtualDelayMicros = 0;
        if (gap > limitBytes) {
            gap -= sizeBytes;
            return Verdict.DROP;
        }
        if (signal == CongestionSignal.ECN && gap > ecnThresholdBytes) {
            return Verdict.MARK;
        }
        if (signal == CongestionSignal.DELAY) {
            lastVirtualDelayMicros = gap / rateBytesPerMicro;
        }
        return Verdict.PASS;
    }

    public double gapBytes() {
        return gap;
    }

    /** Virtual queuing delay of the last packet (DELAY-type AQs), in microseconds. */
    public double lastVirtualDelayMicros() {
        return lastVirtualDelayMicros;
    }
}
