package org.fairfabric.controller.alloc;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * When the allocation loop's rounds run: after a delay, on one thread, with a clock. The
 * controller uses {@link #singleThread}; tests drive time by hand.
 */
public interface Scheduler {
    /** A scheduled task that can still be called off. */
    interface Cancellable {
        void cancel();
    }

    long nowMillis();

    /** Runs {@code task} after {@code delayMillis}; tasks never run concurrently. */
    Cancellable schedule(Runnable task, long delayMillis);

    /** A scheduler on a single-thread executor (its tasks never overlap), with the system clock. */
    static Scheduler singleThread(ScheduledExecutorService executor) {
        return new Scheduler() {
            @Override
            public long nowMillis() {
                return System.currentTimeMillis();
            }

            @Override
            public Cancellable schedule(Runnable task, long delayMillis) {
                ScheduledFuture<?> f = executor.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
                return () -> f.cancel(false);
            }
        };
    }
}
