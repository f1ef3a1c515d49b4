package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.fairfabric.core.allocator.SolveCheckpoint;

/**
 * Lets the exact solve give way to the allocation loop's urgent work: while a {@link Hold} is open
 * (a round, an allocation's rates tables until Kafka has them), the solver thread waits at its next
 * {@link SolveCheckpoint}. Every hold has a deadline after which it no longer counts, so a hold
 * that is never closed (a broker that does not answer) delays the solve by that much at most; a
 * thread never waits for its own holds (a solve that runs within the round, {@code Runnable::run}).
 * Decision and measurements: docs/controller.md, "The exact solve gives way".
 */
public final class SolveGate implements SolveCheckpoint {
    /** The longest a solver waits before it checks the clock again (holds expire between notifications). */
    private static final long RECHECK_NANOS = 10_000_000L;

    private final LongSupplier nanoClock;
    private final List<Hold> open = new ArrayList<>();
    /** {@code open.size()}, read without the lock: the solver's checkpoints cost one read when nothing is held. */
    private volatile int held;
    private long waits;
    private long waitedNanos;

    public SolveGate() {
        this(System::nanoTime);
    }

    SolveGate(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** One piece of urgent work; closing it (once or more) lets the solver go on. */
    public final class Hold implements AutoCloseable {
        private final Thread owner = Thread.currentThread();
        private final long deadline;

        private Hold(long deadline) {
            this.deadline = deadline;
        }

        @Override
        public void close() {
            synchronized (SolveGate.this) {
                if (open.remove(this)) {
                    held = open.size();
                    SolveGate.this.notifyAll();
                }
            }
        }
    }

    /** Holds the solver until the returned hold is closed, or for {@code maxMillis} at most. */
    public synchronized Hold hold(long maxMillis) {
        long now = nanoClock.getAsLong();
        open.removeIf(h -> h.deadline - now <= 0); // holds nobody closed (no solve ran since) do not pile up
        Hold h = new Hold(now + maxMillis * 1_000_000L);
        open.add(h);
        held = open.size();
        return h;
    }

    /** On the solver's thread: returns when no hold of another thread is open and unexpired. */
    @Override
    public void reached() {
        if (held == 0) {
            return;
        }
        synchronized (this) {
            long start = nanoClock.getAsLong();
            boolean waited = false;
            while (true) {
                long now = nanoClock.getAsLong();
                open.removeIf(h -> h.deadline - now <= 0);
                held = open.size();
                long until = Long.MAX_VALUE;
                for (Hold h : open) {
                    if (h.owner != Thread.currentThread()) {
                        until = Math.min(until, h.deadline - now);
                    }
                }
                if (until == Long.MAX_VALUE) {
                    break;
                }
                waited = true;
                long nanos = Math.min(until, RECHECK_NANOS);
                try {
                    wait(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // the solver is being stopped: let it run to its end
                    break;
                }
            }
            if (waited) {
                waits++;
                waitedNanos += nanoClock.getAsLong() - start;
            }
        }
    }

    /** How many checkpoints waited, and for how long in all (ms); for the log and the benchmark. */
    public synchronized long[] waits() {
        return new long[] {waits, waitedNanos / 1_000_000L};
    }
}
