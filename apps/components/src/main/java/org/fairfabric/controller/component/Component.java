package org.fairfabric.controller.component;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One network function of the controller: it hears the {@link ControlEvent}s it wants and handles
 * them one at a time on its own thread, in the order they were posted.
 */
public abstract class Component implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Component.class);

    private final String name;
    private final ScheduledExecutorService executor;

    protected Component(String name) {
        this(name, Thread.NORM_PRIORITY);
    }

    /** A component whose thread runs at Java priority {@code priority} (see {@link Thread#setPriority}). */
    protected Component(String name, int priority) {
        this.name = name;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ff-" + name);
            t.setDaemon(true);
            t.setPriority(priority);
            return t;
        });
    }

    public final String name() {
        return name;
    }

    /** This component's thread, for timers (work scheduled here runs in order with the events). */
    protected final ScheduledExecutorService executor() {
        return executor;
    }

    /** Whether this component handles {@code e}; called on the poster's thread, must be cheap. */
    protected abstract boolean hears(ControlEvent e);

    /** Handles one event, on this component's thread. */
    protected abstract void handle(ControlEvent e);

    final void deliver(ControlEvent e) {
        if (hears(e)) {
            run(() -> handle(e));
        }
    }

    /** Runs work on this component's thread (after what is queued); failures are logged, never lost silently. */
    protected final void run(Runnable work) {
        try {
            executor.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException ex) {
                    LOG.error("{}: handling failed", name, ex);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            LOG.debug("{}: closed, dropped work", name);
        }
    }

    /** Waits until everything queued on this component so far is handled. */
    public final void sync() {
        try {
            executor.submit(() -> { }).get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // closed: nothing more will run
        } catch (Exception e) {
            throw new IllegalStateException(name + " did not finish its queued work", e);
        }
    }

    /** Releases what the component holds besides its thread (called on close, before the thread stops). */
    protected void stop() {
    }

    @Override
    public final void close() {
        try {
            stop();
        } finally {
            executor.shutdownNow();
        }
    }
}
