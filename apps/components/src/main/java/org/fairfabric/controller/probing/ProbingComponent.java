package org.fairfabric.controller.probing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.core.model.Link;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.core.platform.PacketService;

/**
 * Link probing (vFab): an echo request out of every fabric port of every connected switch each
 * interval, so that the switches can decide a link failed (docs/pipeline.md).
 */
public final class ProbingComponent extends Component {
    private final FabricTopology fabric;
    private final LinkProber prober;
    private volatile List<LinkProber.Target> targets = List.of();

    public ProbingComponent(FabricTopology fabric, PacketService packets, long intervalMillis) {
        super("probing");
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("the echo interval must be positive, got " + intervalMillis);
        }
        this.fabric = fabric;
        this.prober = new LinkProber(packets, () -> targets, intervalMillis);
        // fixed delay, not fixed rate: after a stall, no burst of catch-up requests
        executor().scheduleWithFixedDelay(prober::probeOnce, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    protected boolean hears(ControlEvent e) {
        return e instanceof ControlEvent.TopologyChanged;
    }

    @Override
    protected void handle(ControlEvent e) {
        Topology topo = ((ControlEvent.TopologyChanged) e).topology();
        List<LinkProber.Target> next = new ArrayList<>();
        for (Link l : topo.links()) {
            String a = l.src().elementId();
            String b = l.dst().elementId();
            if (topo.devices().containsKey(a) && topo.devices().containsKey(b)) {
                next.add(new LinkProber.Target(a, l.src().port(), fabric.routerMac(a), fabric.routerMac(b)));
            }
        }
        targets = List.copyOf(next);
    }
}
