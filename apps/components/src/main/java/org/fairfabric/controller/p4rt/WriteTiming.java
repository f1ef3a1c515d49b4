package org.fairfabric.controller.p4rt;

/**
 * When a write went through its device's queue ({@link System#nanoTime} values): its turn came
 * ({@code started}), its first batch went to the switch ({@code sent}, after the local checks and,
 * for a converge, the difference to the intended state), the switch answered its last batch
 * ({@code answered}). A write that sent nothing (all refused locally, or deferred because the
 * switch is away) has {@code sent == answered}.
 */
public final class WriteTiming {
    public final long startedNanos;
    public final long sentNanos;
    public final long answeredNanos;

    public WriteTiming(long startedNanos, long sentNanos, long answeredNanos) {
        if (sentNanos - startedNanos < 0 || answeredNanos - sentNanos < 0) {
            throw new IllegalArgumentException("write times out of order: started " + startedNanos + ", sent " + sentNanos
                    + ", answered " + answeredNanos);
        }
        this.startedNanos = startedNanos;
        this.sentNanos = sentNanos;
        this.answeredNanos = answeredNanos;
    }
}
