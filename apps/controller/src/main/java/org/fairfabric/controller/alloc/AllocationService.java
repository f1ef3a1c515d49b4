package org.fairfabric.controller.alloc;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.fairfabric.api.dto.EventDto;
import org.fairfabric.api.dto.EventTypes;
import org.fairfabric.api.dto.LinkDto;
import org.fairfabric.api.service.EventLog;
import org.fairfabric.api.service.FabricService;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.program.AllocationEntities;
import org.fairfabric.core.allocator.ExactAllocator;
import p4.v1.P4RuntimeOuterClass.Entity;

/**
 * The controller's allocation loop, wired: its inputs from the REST service, the network
 * configuration and the live link state; its triggers from the event log; its outputs through
 * {@link AllocationApplier}. Runs on a thread of its own.
 */
public final class AllocationService implements AutoCloseable {
    /** A round runs once no relevant change has come for this long… */
    public static final long QUIET_MS = 100;
    /** …but at most this long after the first change of a burst. */
    public static final long MAX_DELAY_MS = 1000;
    /** The allocator's certified relative duality gap per round (small problems: rates to ~1e-6). */
    public static final double TOLERANCE = 1e-8;
    /** Events after which the allocation may differ. */
    static final Set<String> TRIGGERS = Set.of(EventTypes.SESSION_ADDED, EventTypes.SESSION_REMOVED,
            EventTypes.TENANT_UPDATED, EventTypes.TENANT_DELETED, EventTypes.HOST_ADDED, EventTypes.HOST_REMOVED,
            EventTypes.LINK_STATE, EventTypes.NETWORK_CONFIG_UPDATED);

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "allocation");
        t.setDaemon(true);
        return t;
    });
    private final AllocationLoop loop;
    private final KafkaRatesSink kafka;
    private final RatesPublisher rates;

    /**
     * @param p4       the pipeline (null: none, so no switch entries)
     * @param switches where per-switch entries go (the fabric programmer); null without a fabric pipeline
     * @param kafkaBootstrap null: no rates tables are published
     */
    public AllocationService(FabricService fabric, NetworkView network, EventLog events, Supplier<NetworkConfig> config,
                             P4InfoIndex p4, Consumer<Map<String, List<Entity>>> switches, String kafkaBootstrap) {
        kafka = kafkaBootstrap == null ? null : new KafkaRatesSink(kafkaBootstrap, KafkaRatesSink.TOPIC);
        rates = kafka == null ? null : new RatesPublisher(kafka, System::currentTimeMillis);
        boolean entries = switches != null && p4 != null && AllocationEntities.supported(p4);
        AllocationApplier applier = new AllocationApplier(network, events,
                entries ? new AqPlanner(System::currentTimeMillis) : null,
                entries ? new AllocationDataPlane(new AllocationEntities(p4)) : null, switches, rates);
        loop = new AllocationLoop(() -> withDetected(inputs(fabric, network, config.get())), applier, Scheduler.singleThread(thread),
                new ExactAllocator(TOLERANCE, ExactAllocator.DEFAULT_MAX_ITERATIONS), QUIET_MS, MAX_DELAY_MS);
        events.addSink(this::onEvent);
    }

    static AllocationInputs inputs(FabricService fabric, NetworkView network, NetworkConfig cfg) {
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
            return new AllocationInputs(cfg, fabric.tenants(), fabric.allHosts(), fabric.sessions(), down);
        }
    }

    private volatile java.util.function.Function<AllocationInputs, List<org.fairfabric.api.dto.SessionDto>> detected;

    /** Sessions the central monitor detected from traffic, allocated beside the REST-declared ones (docs/monitor.md). */
    public void setDetectedSessions(java.util.function.Function<AllocationInputs, List<org.fairfabric.api.dto.SessionDto>> source) {
        detected = source;
    }

    private AllocationInputs withDetected(AllocationInputs in) {
        var source = detected;
        if (in == null || source == null) {
            return in;
        }
        List<org.fairfabric.api.dto.SessionDto> all = new java.util.ArrayList<>(in.sessions());
        all.addAll(source.apply(in));
        return new AllocationInputs(in.config(), in.tenants(), in.hosts(), all, in.downLinks());
    }

    private void onEvent(EventDto e) {
        if (TRIGGERS.contains(e.type)) {
            loop.changed(e.type + " " + e.subject);
        }
    }

    /** A change the event log does not announce (a configuration put in force). */
    public void changed(String why) {
        loop.changed(why);
    }

    public AllocationLoop loop() {
        return loop;
    }

    /** Tables published on ff.ctl.rates.v1 so far (0 without Kafka). */
    public long ratesPublished() {
        return rates == null ? 0 : rates.published();
    }

    @Override
    public void close() {
        loop.close();
        thread.shutdown();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (kafka != null) {
            kafka.close();
        }
    }
}
