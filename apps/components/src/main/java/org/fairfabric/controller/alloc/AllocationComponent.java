package org.fairfabric.controller.alloc;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlBus;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.component.DeviceSlices;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.program.AllocationEntities;
import org.fairfabric.controller.routing.RoutingMode;
import org.fairfabric.core.allocator.ExactAllocator;
import org.fairfabric.core.platform.DeviceProgramming;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * Allocation (the Promenade loop): after a change of the tenants, weights, hosts, sessions, the
 * topology or a link's state, a round on this component's thread has the weighted proportional-fair
 * per-session, per-path rates solved (on a solver thread of its own; after arrivals and departures
 * an interim allocation goes in force first) and puts them in force ({@link AllocationApplier}):
 * REST view, the switches' path classifiers, the shims' rates tables, then {@link ControlEvent.Allocated}.
 */
public final class AllocationComponent extends Component {
    public static final String SLICE = "allocation";
    /** A change within this long of the last round's start waits until no change has come for this long… */
    public static final long QUIET_MS = 100;
    /** …but at most this long after the first change of a burst. */
    public static final long MAX_DELAY_MS = 1000;
    /**
     * The allocator's certified relative duality gap per round (docs/controller.md, "Rounds"): 1e-8
     * took 65 s cold at k=16 with 10,000 sessions, 1e-6 keeps rates far within what shims enforce.
     */
    public static final double TOLERANCE = 1e-6;

    private final AllocationLoop loop;
    private final ExecutorService solver = newSolver();
    private final RatesSink ratesSink;
    private final RatesPublisher rates;
    private final DeviceSlices<Entity> slice;

    /**
     * @param p4             the pipeline (null: none, so no switch entries)
     * @param devices        where the switch entries go; null without the fabric pipeline
     * @param ratesSink      where the shims' rates tables go (the controller: Kafka's ff.ctl.rates.v1);
     *                       null: none are published. Closed with the component if it is AutoCloseable.
     */
    public AllocationComponent(FabricService fabric, NetworkView network, EventLog events, Supplier<NetworkConfig> config,
                               P4InfoIndex p4, DeviceProgramming<Entity, ?> devices, RatesSink ratesSink, ControlBus bus) {
        this(fabric, network, events, config, p4, devices, ratesSink, bus, RoutingMode.PINNED, CapacityHeadroom.NONE);
    }

    /**
     * @param routing {@link RoutingMode#ECMP}: no pinned paths — no path classifiers or tag keeping in
     *                the switches, and each session's total on one untagged path in the shims' tables
     * @param headroom the share of every link that allocations leave free
     */
    public AllocationComponent(FabricService fabric, NetworkView network, EventLog events, Supplier<NetworkConfig> config,
                               P4InfoIndex p4, DeviceProgramming<Entity, ?> devices, RatesSink ratesSink, ControlBus bus,
                               RoutingMode routing, CapacityHeadroom headroom) {
        super("allocation", LOOP_PRIORITY);
        boolean pinned = routing == RoutingMode.PINNED;
        this.ratesSink = ratesSink;
        SolveGate gate = new SolveGate();
        rates = ratesSink == null ? null : new RatesPublisher(ratesSink, System::currentTimeMillis, pinned, gate);
        boolean entries = pinned && devices != null && p4 != null && AllocationEntities.supported(p4);
        slice = entries ? new DeviceSlices<>(SLICE, devices) : null;
        AllocationApplier applier = new AllocationApplier(network, events,
                entries ? new AllocationDataPlane(new AllocationEntities(p4)) : null, slice, rates,
                r -> bus.post(new ControlEvent.Allocated(r)));
        loop = new AllocationLoop(() -> withDetected(inputs(fabric, network, config.get(), headroom)), applier, Scheduler.singleThread(executor()),
                new ExactAllocator(TOLERANCE, ExactAllocator.DEFAULT_MAX_ITERATIONS, gate), solver, gate, QUIET_MS, MAX_DELAY_MS);
    }

    /**
     * The Java priority of the loop's thread (the component's): the highest, so that an arrival's
     * round, its interim allocation and its rates tables (tens of ms of CPU) come before other
     * work on a busy machine, the solver's and other processes' alike (session 16,
     * docs/controller.md). Applied as {@link #newSolver}'s lowest one is: with
     * {@code -XX:ThreadPriorityPolicy=1} as root (then nice -5).
     */
    public static final int LOOP_PRIORITY = Thread.MAX_PRIORITY;

    /**
     * Where the exact solves run: one thread, a daemon, at the lowest Java priority, so that the
     * loop's rounds (the interim allocations of arrivals) and the rest of the controller come first
     * on a busy machine; the solve takes what is left (decision session 15, docs/controller.md).
     * On Linux the JVM applies priorities only with {@code -XX:ThreadPriorityPolicy=1} as root
     * (then nice 4); the Mininet controller and {@code bench loop} pass it.
     */
    public static ExecutorService newSolver() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ff-allocation-solve");
            t.setDaemon(true); // a solve still running at the end must not keep the JVM alive
            t.setPriority(Thread.MIN_PRIORITY);
            return t;
        });
    }

    static AllocationInputs inputs(FabricService fabric, NetworkView network, NetworkConfig cfg, CapacityHeadroom headroom) {
        if (cfg == null) {
            return null;
        }
        Set<String> down = new HashSet<>();
        for (LinkDto l : network.topology(List.of()).links) {
            if (!l.up) {
                down.add(l.src + "->" + l.dst);
            }
        }
        synchronized (fabric) {
            return new AllocationInputs(cfg, fabric.tenants(), fabric.allHosts(), fabric.sessions(), down).withHeadroom(headroom);
        }
    }

    private volatile java.util.function.Function<AllocationInputs, List<org.fairfabric.api.dto.SessionDto>> detected;

    /** Sessions the central monitor detected from traffic, allocated beside the REST-declared ones (docs/monitor.md). */
    public void setDetectedSessions(java.util.function.Function<AllocationInputs, List<org.fairfabric.api.dto.SessionDto>> source) {
        detected = source;
    }

    private volatile java.util.function.Function<AllocationInputs, Set<String>> idle;

    /**
     * The declared sessions that send nothing, by id (the monitor's view): work conservation, their
     * guarantee is not reserved and their demand is capped (docs/guarantees.md).
     */
    public void setIdleSessions(java.util.function.Function<AllocationInputs, Set<String>> source) {
        idle = source;
    }

    private AllocationInputs withDetected(AllocationInputs in) {
        var source = detected;
        var idleSource = idle;
        if (in == null || (source == null && idleSource == null)) {
            return in;
        }
        List<org.fairfabric.api.dto.SessionDto> all = new java.util.ArrayList<>(in.sessions());
        if (source != null) {
            all.addAll(source.apply(in));
        }
        Set<String> idleIds = idleSource == null ? Set.of() : idleSource.apply(in);
        return in.withSessions(all, idleIds);
    }

    /** A change the control bus does not announce (the monitor's set of active sessions). */
    public void changed(String why) {
        loop.changed(why);
    }

    @Override
    protected boolean hears(ControlEvent e) {
        return e instanceof ControlEvent.TopologyChanged || e instanceof ControlEvent.ProvisioningChanged
                || e instanceof ControlEvent.LinkStateChanged;
    }

    @Override
    protected void handle(ControlEvent e) {
        if (e instanceof ControlEvent.TopologyChanged && ((ControlEvent.TopologyChanged) e).configurationReplaced() && slice != null) {
            slice.restore(); // the new fleet starts without it; the round below brings it up to date
        }
        loop.changed(e.toString());
    }

    public AllocationLoop loop() {
        return loop;
    }

    /** Tables published on ff.ctl.rates.v1 so far (0 without a rates sink). */
    public long ratesPublished() {
        return rates == null ? 0 : rates.published();
    }

    @Override
    protected void stop() {
        loop.close();
        solver.shutdownNow();
        if (ratesSink instanceof AutoCloseable) {
            try {
                ((AutoCloseable) ratesSink).close();
            } catch (Exception ex) {
                org.slf4j.LoggerFactory.getLogger(AllocationComponent.class).warn("closing the rates sink: {}", ex.toString());
            }
        }
    }
}
