package org.fairfabric.controller.alloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A scheduler whose clock moves only when the test says so; due tasks run in the test's thread. */
final class ManualScheduler implements Scheduler {
    private final List<long[]> order = new ArrayList<>();
    private final List<Runnable> tasks = new ArrayList<>();
    private long now = 1_000_000;
    private long seq;

    @Override
    public synchronized long nowMillis() {
        return now;
    }

    @Override
    public synchronized Cancellable schedule(Runnable task, long delayMillis) {
        long[] key = {now + delayMillis, seq++, tasks.size()};
        order.add(key);
        tasks.add(task);
        return () -> {
            synchronized (this) {
                order.remove(key);
            }
        };
    }

    /** Tasks waiting to run. */
    synchronized int pending() {
        return order.size();
    }

    /** Moves the clock forward, running every task that falls due, in time order. */
    void advance(long millis) {
        long until;
        synchronized (this) {
            until = now + millis;
        }
        while (true) {
            Runnable next;
            synchronized (this) {
                long[] first = order.stream().min(Comparator.<long[]>comparingLong(k -> k[0]).thenComparingLong(k -> k[1])).orElse(null);
                if (first == null || first[0] > until) {
                    now = until;
                    return;
                }
                order.remove(first);
                now = Math.max(now, first[0]);
                next = tasks.get((int) first[2]);
            }
            next.run();
        }
    }
}
