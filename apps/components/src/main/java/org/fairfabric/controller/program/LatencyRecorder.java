package org.fairfabric.controller.program;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Durations (nanoseconds) and their percentiles, for the controller's loop benchmarks. */
public final class LatencyRecorder {
    private final List<Long> nanos = new ArrayList<>();

    public synchronized void record(long durationNanos) {
        nanos.add(durationNanos);
    }

    /** Forgets everything recorded so far (a benchmark's warm-up). */
    public synchronized void clear() {
        nanos.clear();
    }

    public synchronized int count() {
        return nanos.size();
    }

    /** The p-th percentile (0 < p <= 100, nearest rank) in milliseconds; NaN when nothing was recorded. */
    public synchronized double percentileMillis(double p) {
        if (p <= 0 || p > 100) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
        }
        if (nanos.isEmpty()) {
            return Double.NaN;
        }
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1)) / 1e6;
    }

    public synchronized String summary() {
        return String.format(java.util.Locale.ROOT, "n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms", count(), percentileMillis(50),
                percentileMillis(99), percentileMillis(100));
    }
}
