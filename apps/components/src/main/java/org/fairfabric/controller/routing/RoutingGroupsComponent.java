package org.fairfabric.controller.routing;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fairfabric.api.dto.RoutingGroupDto;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.component.Component;
import org.fairfabric.controller.component.ControlEvent;
import org.fairfabric.controller.p4rt.TimedWrite;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.controller.program.LatencyRecorder;
import org.fairfabric.controller.program.P4teLoopStages;
import org.fairfabric.core.model.ConnectPoint;
import org.fairfabric.core.model.Device;
import org.fairfabric.core.model.LinkState;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.DeviceProgramming;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.service.RoutingGroupService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * Routing groups (the P4TE loop): the core's {@link RoutingGroupService} decides every switch's
 * upward group membership from the switches' gradient events and link state; this turns it into
 * the switches' selector groups, level entries, queue sensing and the detours around failed
 * downlinks, and into the REST routing-group view. Metric events that arrive while one is being
 * handled are taken together: Algorithm 4 runs on each in order, and each switch whose groups
 * changed is programmed once with the result of all.
 */
public final class RoutingGroupsComponent extends Component {
    private static final Logger LOG = LoggerFactory.getLogger(RoutingGroupsComponent.class);
    public static final String SLICE = "routing-groups";
    /** Routing groups per metric (P4TE's evaluation uses a few levels; all ports start in level 0). */
    public static final int GROUP_LEVELS = 3;

    private final FabricPlan plan;
    private final DeviceProgramming<Entity, ?> devices;
    private final NetworkView network;
    private final P4teLoopStages stages = new P4teLoopStages();
    private final LatencyRecorder handling = new LatencyRecorder();
    private final ConcurrentLinkedQueue<ControlEvent.MetricReported> inbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean inboxTaken = new AtomicBoolean();
    private final Set<ConnectPoint> failedPorts = new HashSet<>();
    private final RoutingMode mode;
    private Topology topo;
    private RoutingGroupService groups;

    public RoutingGroupsComponent(FabricPlan plan, DeviceProgramming<Entity, ?> devices, NetworkView network) {
        this(plan, devices, network, RoutingMode.PINNED);
    }

    /**
     * In {@link RoutingMode#ECMP} the groups stay as installed (every uplink in level 0 of every
     * metric: one hash group per switch) and metric events are ignored; link failures still change them.
     */
    public RoutingGroupsComponent(FabricPlan plan, DeviceProgramming<Entity, ?> devices, NetworkView network,
                                  RoutingMode mode) {
        super("routing-groups");
        this.mode = mode;
        this.plan = plan;
        this.devices = devices;
        this.network = network;
    }

    /** Metric events are queued here and taken in batches: one task per batch, not per event. */
    @Override
    protected boolean hears(ControlEvent e) {
        if (e instanceof ControlEvent.MetricReported) {
            if (mode == RoutingMode.ECMP) {
                return false;
            }
            inbox.add((ControlEvent.MetricReported) e);
            return inboxTaken.compareAndSet(false, true);
        }
        return e instanceof ControlEvent.TopologyChanged || e instanceof ControlEvent.LinkStateChanged;
    }

    @Override
    protected void handle(ControlEvent e) {
        if (e instanceof ControlEvent.TopologyChanged) {
            topologyChanged((ControlEvent.TopologyChanged) e);
        } else if (e instanceof ControlEvent.LinkStateChanged) {
            linkStateChanged((ControlEvent.LinkStateChanged) e);
        } else if (e instanceof ControlEvent.MetricReported) {
            takeMetricEvents();
        }
    }

    private void topologyChanged(ControlEvent.TopologyChanged t) {
        topo = t.topology();
        if (t.configurationReplaced() || groups == null) {
            failedPorts.clear();
            Map<Metric, Integer> levels = new EnumMap<>(Metric.class);
            for (Metric m : Metric.values()) {
                levels.put(m, GROUP_LEVELS);
            }
            groups = new RoutingGroupService(levels);
            groups.install(topo);
            publishGroups(groups.devices());
        }
        programAll();
    }

    private void linkStateChanged(ControlEvent.LinkStateChanged l) {
        if (topo == null || !topo.devices().containsKey(l.deviceId())) {
            return;
        }
        ConnectPoint cp = new ConnectPoint(l.deviceId(), l.port());
        topo.linkFrom(cp).ifPresent(link -> {
            if (!groups.onLinkState(link.id(), l.up() ? LinkState.UP : LinkState.DOWN).isEmpty()) {
                publishGroups(List.of(l.deviceId()));
            }
        });
        if (l.up() ? failedPorts.remove(cp) : failedPorts.add(cp)) {
            programAll(); // the detours of the switches above (only the differences are written)
        }
    }

    private void takeMetricEvents() {
        inboxTaken.set(false);
        long taken = System.nanoTime();
        List<ControlEvent.MetricReported> all = new ArrayList<>();
        List<ControlEvent.MetricReported> caused = new ArrayList<>();
        Set<String> changed = new LinkedHashSet<>();
        for (ControlEvent.MetricReported r; (r = inbox.poll()) != null; ) {
            all.add(r);
            if (groups == null || !groups.devices().contains(r.event().deviceId())) {
                continue;
            }
            try {
                if (!groups.onMetricEvents(List.of(r.event())).isEmpty()) {
                    caused.add(r);
                    changed.add(r.event().deviceId());
                }
            } catch (IllegalArgumentException notAnUplink) {
                LOG.debug("ignored event {}: {}", r.event(), notAnUplink.getMessage());
            }
        }
        long decided = System.nanoTime();
        Map<String, CompletionStage<?>> writes = new HashMap<>();
        Map<String, Long> handedOver = new HashMap<>();
        for (String d : changed) {
            writes.put(d, program(d));
            handedOver.put(d, System.nanoTime());
        }
        if (!changed.isEmpty()) {
            publishGroups(changed);
        }
        for (ControlEvent.MetricReported r : caused) {
            String d = r.event().deviceId();
            long handed = handedOver.get(d);
            writes.get(d).thenAccept(res -> {
                if (res instanceof TimedWrite) {
                    TimedWrite w = (TimedWrite) res;
                    if (w.timing() != null && !w.deferred()) {
                        stages.record(r.receivedNanos(), taken, decided, handed, w.timing());
                    }
                }
            });
        }
        long handled = System.nanoTime();
        for (ControlEvent.MetricReported r : all) {
            handling.record(handled - r.receivedNanos());
        }
    }

    private void programAll() {
        for (Device d : topo.devices().values()) {
            program(d.id());
        }
    }

    private CompletionStage<?> program(String deviceId) {
        List<Entity> mine = groups.devices().contains(deviceId)
                ? plan.upwardEntitiesOf(topo, deviceId, groups.membership(deviceId), failedPorts) : List.of();
        return devices.setSlice(SLICE, deviceId, mine);
    }

    private void publishGroups(java.util.Collection<String> deviceIds) {
        List<RoutingGroupDto> all = new ArrayList<>();
        for (String d : deviceIds) {
            for (Map.Entry<Metric, List<SortedSet<Integer>>> m : groups.membership(d).entrySet()) {
                for (int level = 0; level < m.getValue().size(); level++) {
                    all.add(new RoutingGroupDto(d, m.getKey().wireName(), level, new ArrayList<>(m.getValue().get(level))));
                }
            }
        }
        network.setRoutingGroups(all);
    }

    /** Stage by stage latency of the P4TE loop so far (packet-in to the switch's Write answer). */
    public P4teLoopStages loopStages() {
        return stages;
    }

    /** Event-to-group-write latencies of the P4TE loop so far. */
    public LatencyRecorder latencies() {
        return stages.stage(P4teLoopStages.Stage.TOTAL);
    }

    @Override
    protected void stop() {
        if (latencies().count() > 0) {
            LOG.info("P4TE event-to-group-write latency: {}", latencies().summary());
            LOG.info("P4TE event-to-decision latency (packet-in to the writes handed over): {}", handling.summary());
            for (String line : stages.lines()) {
                LOG.info("P4TE stage {}", line);
            }
        }
    }
}
