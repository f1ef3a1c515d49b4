package org.fairfabric.controller.program;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.fairfabric.api.dto.HostDto;
import org.fairfabric.api.dto.RoutingGroupDto;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.core.CoreTopology;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.controller.p4rt.DeviceFleet;
import org.fairfabric.controller.p4rt.WriteResult;
import org.fairfabric.core.aq.AqGrant;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.ports.DataPlaneException;
import org.fairfabric.core.ports.DataPlaneProgrammer;
import org.fairfabric.core.routing.GroupMembershipChange;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.service.RoutingGroupService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * Keeps every switch programmed for the current configuration and hosts: computes the intended
 * entities of each switch ({@link FabricPlan}) and hands them to its {@link DeviceAgent}, which
 * writes the difference now and re-pushes everything when the switch reconnects. The core's
 * {@link RoutingGroupService} is the source of truth for the upward routing groups; its group
 * changes (P4TE feedback events, link state) re-program the switches they concern and update the
 * REST routing-group view. All work runs on one thread, in order.
 */
public final class FabricProgrammer implements DataPlaneProgrammer, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FabricProgrammer.class);
    /** Routing groups per metric (P4TE's evaluation uses a few levels; all ports start in level 0). */
    public static final int GROUP_LEVELS = 3;

    private final FabricPlan plan;
    private final NetworkView network;
    private final Supplier<List<HostDto>> tenantHosts;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fabric-program");
        t.setDaemon(true);
        return t;
    });
    private final P4teLoopStages stages = new P4teLoopStages();
    private final LatencyRecorder handling = new LatencyRecorder();
    private final Map<String, List<Entity>> latest = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each switch's entities other than the upward routing groups, for the current topology (programming thread). */
    private final Map<String, List<Entity>> baseEntities = new java.util.HashMap<>();
    private final Map<String, CompletableFuture<WriteResult>> pending = new java.util.concurrent.ConcurrentHashMap<>();
    /** Metric events not yet taken by the programming thread, and whether a task to take them is queued. */
    private final java.util.concurrent.ConcurrentLinkedQueue<ReceivedEvent> inbox = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean inboxTaskQueued = new java.util.concurrent.atomic.AtomicBoolean();
    /** While events are taken: the switches whose groups changed (programmed once afterwards); else null. */
    private Set<String> changedDevices;
    /** Entries of the allocation loop (classifiers, tags, AQs) per switch, written with the forwarding plan. */
    private volatile Map<String, List<Entity>> allocationEntities = Map.of();
    private volatile DeviceFleet fleet;
    private volatile List<LinkProber.Target> probeTargets = List.of();
    private NetworkConfig cfg;
    private Topology topo;
    private RoutingGroupService groups;
    private boolean installing;
    /** Ports a switch reported failed (vFab), for the downward detours; programming thread only. */
    private final Set<ConnectPoint> failedPorts = new java.util.HashSet<>();

    /** {@code tenantHosts} gives the tenants' hosts (read on the programming thread). */
    public FabricProgrammer(FabricPlan plan, NetworkView network, Supplier<List<HostDto>> tenantHosts) {
        this.plan = plan;
        this.tenantHosts = tenantHosts;
        this.network = network;
    }

    /**
     * A new configuration is in force with a new fleet: fresh routing groups, every switch's
     * intended state set. Returns when the agents have it, so a fleet that connects afterwards
     * reconciles each switch to its full state at once.
     */
    public void configurationApplied(NetworkConfig newCfg, DeviceFleet newFleet) {
        try {
            worker.submit(() -> applyConfiguration(newCfg, newFleet)).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.error("programming the new configuration failed", e);
        }
    }

    private void applyConfiguration(NetworkConfig newCfg, DeviceFleet newFleet) {
        pending.clear(); // hand-overs to the old fleet's agents are void
        latest.clear();
        failedPorts.clear();
        fleet = newFleet;
        cfg = newCfg;
        topo = CoreTopology.build(newCfg, tenantHosts.get());
        baseEntities.clear();
        Map<Metric, Integer> levels = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            levels.put(m, GROUP_LEVELS);
        }
        groups = new RoutingGroupService(levels, this,
                e -> LOG.debug("routing groups: {} {} {}", e.type(), e.subject(), e.detail()), System::currentTimeMillis);
        installing = true;
        try {
            groups.install(topo);
        } finally {
            installing = false;
        }
        publishGroups(groups.devices());
        programAll();
        List<LinkProber.Target> targets = new ArrayList<>();
        for (org.fairfabric.core.model.Link l : topo.links()) {
            String a = l.src().elementId();
            String b = l.dst().elementId();
            if (topo.devices().containsKey(a) && topo.devices().containsKey(b)) {
                targets.add(new LinkProber.Target(a, l.src().port(), routerMac(a), routerMac(b)));
            }
        }
        probeTargets = List.copyOf(targets);
    }

    /** Tenants' hosts changed: routes, ARP and port entries follow. */
    public void hostsChanged() {
        onWorker(() -> {
            if (cfg == null) {
                return;
            }
            topo = CoreTopology.build(cfg, tenantHosts.get());
            baseEntities.clear();
            programAll();
        });
    }

    /**
     * The allocation loop's entries per switch (replacing the previous set): each switch whose set
     * changed gets its forwarding plan plus these as its new intended state.
     */
    public void setAllocationEntities(Map<String, List<Entity>> byDevice) {
        Map<String, List<Entity>> next = Map.copyOf(byDevice);
        onWorker(() -> {
            Map<String, List<Entity>> before = allocationEntities;
            allocationEntities = next;
            if (topo == null) {
                return;
            }
            Set<String> devices = new LinkedHashSet<>(before.keySet());
            devices.addAll(next.keySet());
            for (String d : devices) {
                if (topo.devices().containsKey(d) && !java.util.Objects.equals(before.get(d), next.get(d))) {
                    program(d, plan.entitiesOf(topo, d, this::routerMac, groups.devices().contains(d) ? groups.membership(d) : null));
                }
            }
        });
    }

    private record ReceivedEvent(MetricEvent event, long receivedNanos) {
    }

    /**
     * P4TE feedback from a switch (a queue-depth, utilisation or delay event of an uplink);
     * {@code receivedNanos} is when its packet-in arrived ({@link System#nanoTime}). Events that
     * arrive while the programming thread is busy are taken together: Algorithm 4 runs on each in
     * order, and each switch whose groups changed is programmed once, with the result of all.
     */
    public void onMetricEvent(MetricEvent e, long receivedNanos) {
        inbox.add(new ReceivedEvent(e, receivedNanos));
        if (inboxTaskQueued.compareAndSet(false, true)) {
            onWorker(this::takeEvents);
        }
    }

    private void takeEvents() {
        inboxTaskQueued.set(false);
        long taken = System.nanoTime();
        List<ReceivedEvent> all = new ArrayList<>();
        List<ReceivedEvent> caused = new ArrayList<>();
        Set<String> changed = new LinkedHashSet<>();
        changedDevices = changed;
        try {
            for (ReceivedEvent r; (r = inbox.poll()) != null; ) {
                all.add(r);
                if (groups == null || !groups.devices().contains(r.event().deviceId())) {
                    continue;
                }
                try {
                    if (!groups.onMetricEvents(List.of(r.event())).isEmpty()) {
                        caused.add(r);
                    }
                } catch (IllegalArgumentException notAnUplink) {
                    LOG.debug("ignored event {}: {}", r.event(), notAnUplink.getMessage());
                }
            }
        } finally {
            changedDevices = null;
        }
        long decided = System.nanoTime();
        Map<String, CompletableFuture<WriteResult>> writes = new java.util.HashMap<>();
        Map<String, Long> enqueued = new java.util.HashMap<>();
        for (String d : changed) {
            writes.put(d, program(d, groupsChanged(d)));
            enqueued.put(d, System.nanoTime());
        }
        if (!changed.isEmpty()) {
            publishGroups(changed);
        }
        for (ReceivedEvent r : caused) {
            String d = r.event().deviceId();
            CompletableFuture<WriteResult> w = writes.get(d);
            if (w != null) {
                long handedOver = enqueued.get(d);
                w.thenAccept(res -> {
                    if (res.timing != null && !res.deferred) {
                        stages.record(r.receivedNanos(), taken, decided, handedOver, res.timing);
                    }
                });
            }
        }
        long handled = System.nanoTime();
        for (ReceivedEvent r : all) {
            handling.record(handled - r.receivedNanos());
        }
    }

    /** Stage by stage latency of the P4TE loop so far (packet-in to the switch's Write answer). */
    public P4teLoopStages loopStages() {
        return stages;
    }

    /** Event-to-group-write latencies of the P4TE loop so far (packet-in to the switch's Write answer). */
    public LatencyRecorder latencies() {
        return stages.stage(P4teLoopStages.Stage.TOTAL);
    }

    private void onWorker(Runnable work) {
        worker.execute(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.error("programming the fabric failed", e);
            }
        });
    }

    /**
     * A switch decided that a port failed or recovered (vFab): the link's state in the REST view,
     * and an uplink leaves every routing group (or rejoins level 0). The data plane has already
     * moved traffic off a failed uplink by itself (fast failover); this makes it permanent.
     */
    public void onPortFailure(String deviceId, int port, boolean failed) {
        onWorker(() -> {
            if (topo == null || !topo.devices().containsKey(deviceId)) {
                return;
            }
            LOG.info("{}/{} {} (vFab)", deviceId, port, failed ? "failed" : "recovered");
            network.setPortUp(deviceId, port, !failed);
            topo.linkFrom(new ConnectPoint(deviceId, port)).ifPresent(l ->
                    groups.onLinkState(l.id(), failed ? LinkState.DOWN : LinkState.UP));
            boolean changed = failed ? failedPorts.add(new ConnectPoint(deviceId, port))
                    : failedPorts.remove(new ConnectPoint(deviceId, port));
            if (changed) {
                programAll(); // downward detours of the other switches (only the differences are written)
            }
        });
    }

    /** The fabric ports of every switch, to send vFab echo requests on. */
    public List<LinkProber.Target> probeTargets() {
        return probeTargets;
    }

    /** The agents of the current fleet (empty before the first configuration). */
    public Map<String, DeviceAgent> agents() {
        DeviceFleet f = fleet;
        return f == null ? Map.of() : f.agents();
    }

    /** Waits until everything submitted so far has been handed to the device agents. */
    public void sync() {
        try {
            worker.submit(() -> { }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("programming the fabric did not finish", e);
        }
    }

    // ---- DataPlaneProgrammer: called by the routing-group service, on the worker thread

    @Override
    public void applyGroupChanges(List<GroupMembershipChange> changes) {
        if (installing) {
            return; // programAll follows the installation
        }
        Set<String> devices = new LinkedHashSet<>();
        changes.forEach(c -> devices.add(c.deviceId()));
        if (changedDevices != null) {
            changedDevices.addAll(devices); // programmed once when all events taken together are applied
            return;
        }
        for (String d : devices) {
            program(d, groupsChanged(d));
        }
        publishGroups(devices);
    }

    @Override
    public void installPinnedPaths(String deviceId, Map<Integer, Integer> upPortByPathId) {
        // Pinned paths come from the topology (FabricPlan); nothing else asks for them here.
        throw new DataPlaneException("pinned paths are derived from the topology in the embedded controller");
    }

    @Override
    public void installAq(AqGrant grant) {
        throw new DataPlaneException("augmented queues are not programmed by the embedded controller yet");
    }

    @Override
    public void updateAq(AqGrant grant) {
        throw new DataPlaneException("augmented queues are not programmed by the embedded controller yet");
    }

    @Override
    public void removeAq(AqGrant grant) {
        throw new DataPlaneException("augmented queues are not programmed by the embedded controller yet");
    }

    // ----

    private Map<String, List<Entity>> entities() {
        return plan.entities(topo, this::routerMac,
                d -> groups.devices().contains(d) ? groups.membership(d) : null, failedPorts);
    }

    /** A switch's entities after a change of its routing groups: only the upward part is computed again. */
    private List<Entity> groupsChanged(String deviceId) {
        List<Entity> base = baseEntities.computeIfAbsent(deviceId, d -> plan.entitiesOf(topo, d, this::routerMac, null));
        List<Entity> all = new ArrayList<>(base);
        all.addAll(plan.upwardEntitiesOf(topo, deviceId, groups.membership(deviceId), failedPorts));
        return all;
    }

    private void programAll() {
        Map<String, List<Entity>> all = entities();
        for (Map.Entry<String, List<Entity>> e : all.entrySet()) {
            program(e.getKey(), e.getValue());
        }
    }

    /**
     * Hands a switch its new intended state. While an earlier hand-over still waits in the
     * agent's queue, only the state it will write is replaced (it takes the latest when its turn
     * comes), so a burst of events costs one write per switch, not one per event.
     */
    private CompletableFuture<WriteResult> program(String deviceId, List<Entity> entities) {
        if (fleet == null || !fleet.agents().containsKey(deviceId)) {
            return null;
        }
        List<Entity> extra = allocationEntities.get(deviceId);
        if (extra != null) {
            List<Entity> all = new ArrayList<>(entities);
            all.addAll(extra);
            entities = all;
        }
        latest.put(deviceId, entities);
        CompletableFuture<WriteResult> waiting = pending.get(deviceId);
        if (waiting != null) {
            return waiting;
        }
        CompletableFuture<WriteResult> done = new CompletableFuture<>();
        pending.put(deviceId, done);
        fleet.agent(deviceId).converge(() -> {
            pending.remove(deviceId, done);
            return latest.get(deviceId);
        }).whenComplete((r, err) -> {
            if (err != null) {
                LOG.warn("{}: programming failed: {}", deviceId, err.toString());
                pending.remove(deviceId, done);
                done.completeExceptionally(err);
                return;
            }
            if (!r.allOk()) {
                LOG.warn("{}: {} of {} updates refused: {}", deviceId, r.failures(), r.results.size(), r);
            } else {
                LOG.debug("{}: {} updates {}", deviceId, r.results.size(), r.deferred ? "deferred" : "written");
            }
            done.complete(r);
        });
        return done;
    }


    private void publishGroups(java.util.Collection<String> devices) {
        List<RoutingGroupDto> all = new ArrayList<>();
        for (String d : devices) {
            for (Map.Entry<Metric, List<SortedSet<Integer>>> m : groups.membership(d).entrySet()) {
                for (int level = 0; level < m.getValue().size(); level++) {
                    all.add(new RoutingGroupDto(d, m.getKey().wireName(), level, new ArrayList<>(m.getValue().get(level))));
                }
            }
        }
        network.setRoutingGroups(all);
    }

    /** A switch's router MAC: locally administered, from its P4Runtime device id. */
    String routerMac(String deviceId) {
        long id = cfg.devices.get(deviceId).address.deviceId;
        return String.format("02:aa:00:00:%02x:%02x", (id >> 8) & 0xff, id & 0xff);
    }

    @Override
    public void close() {
        if (latencies().count() > 0) {
            LOG.info("P4TE event-to-group-write latency: {}", latencies().summary());
            LOG.info("P4TE event-to-decision latency (packet-in to the writes handed to the agent): {}", handling.summary());
            for (String line : stages.lines()) {
                LOG.info("P4TE stage {}", line);
            }
        }
        worker.shutdownNow();
    }
}
