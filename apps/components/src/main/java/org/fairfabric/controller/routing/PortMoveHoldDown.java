package org.fairfabric.controller.routing;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.routing.MetricEvent;

/**
 * The P4TE loop's debounce (docs/controller.md, "P4TE loop"): after an uplink moved between the
 * routing-group levels of one metric, further events of that port and metric are ignored for
 * {@code holdNanos}. The switches report a gradient every time a queue or a utilisation colour
 * crosses a threshold, and with many TCP flows a port's queue crosses back and forth within
 * milliseconds; acting on each crossing moved ports about 100 times a second, every move
 * re-hashing flows onto other uplinks (reordering, lost goodput). Holding a port where it was put
 * lets the move take effect before the port is judged again. Not thread-safe: the routing-groups
 * component's thread owns it.
 */
public final class PortMoveHoldDown {
    /** Default hold time: a few RTTs of the emulated fabric, long enough for TCP to react to a move. */
    public static final long DEFAULT_HOLD_MS = 1000;

    private final long holdNanos;
    private final Map<Key, Long> lastMove = new HashMap<>();
    private long suppressed;

    public PortMoveHoldDown(long holdMs) {
        if (holdMs < 0) {
            throw new IllegalArgumentException("hold time must be >= 0 ms, got " + holdMs);
        }
        this.holdNanos = holdMs * 1_000_000L;
    }

    /** True when the event's port may move now (it has not moved in this metric within the hold time). */
    public boolean admits(MetricEvent e, long nowNanos) {
        Long last = lastMove.get(new Key(e));
        if (last != null && nowNanos - last < holdNanos) {
            suppressed++;
            return false;
        }
        return true;
    }

    /** The event moved its port at nowNanos. */
    public void moved(MetricEvent e, long nowNanos) {
        lastMove.put(new Key(e), nowNanos);
    }

    /** Forgets a device's ports (its groups were installed again). */
    public void clear() {
        lastMove.clear();
    }

    /** Events ignored so far because their port was held. */
    public long suppressed() {
        return suppressed;
    }

    private static final class Key {
        final String device;
        final int port;
        final Metric metric;

        Key(MetricEvent e) {
            device = e.deviceId();
            port = e.port();
            metric = e.metric();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return port == k.port && device.equals(k.device) && metric == k.metric;
        }

        @Override
        public int hashCode() {
            return Objects.hash(device, port, metric);
        }
    }
}
