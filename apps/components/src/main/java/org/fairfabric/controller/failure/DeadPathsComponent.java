package org.fairfabric.controller.failure;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.alloc.AllocationResult;
import org.fairfabric.controller.alloc.RatesSink;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.guarantee.TwoStageAdmission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the host shims which of their sessions' paths are dead (contract C3, {@code
 * ff.ctl.deadpaths.v1}, docs/kafka.md): when a link's state changes it publishes, at once and
 * before the re-allocation, the dead path ids of every shim host whose list changed, so the shims
 * move those sessions' traffic to their surviving paths (host-shim/failover). After each
 * allocation it publishes the hosts whose sessions changed the list, and once for every shim host
 * after the controller starts (so a shim never keeps a previous run's dead paths).
 */
public final class DeadPathsComponent extends Component {
    public static final String TOPIC = "ff.ctl.deadpaths.v1";
    private static final Logger LOG = LoggerFactory.getLogger(DeadPathsComponent.class);

    private final NetworkView network;
    private final RatesSink sink;
    private final LongSupplier clockMillis;
    private final Map<String, Map<String, DeadPaths.SessionPaths>> sent = new HashMap<>();
    private final Map<String, Long> versions = new HashMap<>();
    private AllocationResult last;
    private long published;

    public DeadPathsComponent(NetworkView network, RatesSink sink, LongSupplier clockMillis) {
        super("dead-paths");
        this.network = network;
        this.sink = sink;
        this.clockMillis = clockMillis;
    }

    @Override
    protected boolean hears(ControlEvent e) {
        return e instanceof ControlEvent.LinkStateChanged || e instanceof ControlEvent.Allocated;
    }

    @Override
    protected void handle(ControlEvent e) {
        if (e instanceof ControlEvent.Allocated) {
            last = ((ControlEvent.Allocated) e).result();
        }
        if (last == null) {
            return;
        }
        Set<String> down = TwoStageAdmission.downLinks(network);
        Map<String, Map<String, DeadPaths.SessionPaths>> now = DeadPaths.of(last, down);
        now.forEach((host, dead) -> {
            if (dead.equals(sent.get(host))) {
                return;
            }
            long version = Math.max(versions.getOrDefault(host, 0L) + 1, clockMillis.getAsLong());
            sink.send(host, DeadPathsJson.write(host, version, dead, down));
            versions.put(host, version);
            sent.put(host, dead);
            published++;
            if (!dead.isEmpty() || e instanceof ControlEvent.LinkStateChanged) {
                LOG.info("dead paths of {} (version {}): {} after {}", host, version, dead, e);
            }
        });
    }

    @Override
    protected void stop() {
        if (sink instanceof AutoCloseable) {
            try {
                ((AutoCloseable) sink).close();
            } catch (Exception ex) {
                LOG.warn("closing the dead-paths sink: {}", ex.toString());
            }
        }
    }

    /** Records published so far. */
    public long published() {
        sync();
        return published;
    }
}
