package org.fairfabric.controller;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.fairfabric.api.service.NetworkView;
import org.fairfabric.controller.netcfg.NetworkConfig;
import org.fairfabric.controller.p4rt.ChannelSecurity;
import org.fairfabric.controller.p4rt.DeviceFleet;
import org.fairfabric.controller.p4rt.PacketInListener;
import org.fairfabric.controller.p4rt.PipelineFiles;
import p4.v1.P4RuntimeOuterClass.Uint128;

/** Keeps the topology view and the P4Runtime connections in step with the network configuration. */
final class Devices implements AutoCloseable {
    private final NetworkView network;
    private final PipelineFiles pipeline;
    private final Uint128 electionId;
    private final PacketInListener packets;
    private final BiConsumer<NetworkConfig, DeviceFleet> applied;
    private final ExecutorService applier = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "netcfg-apply");
        t.setDaemon(true);
        return t;
    });
    private final ChannelSecurity security;
    private DeviceFleet fleet;

    /**
     * {@code packets} hears every packet-in (device id, packet, when it arrived); {@code applied} every configuration
     * put in force with its new fleet, before the fleet connects (what it writes then is there when
     * the switches are first reconciled).
     */
    Devices(NetworkView network, PipelineFiles pipeline, Uint128 electionId, PacketInListener packets,
            BiConsumer<NetworkConfig, DeviceFleet> applied, ChannelSecurity security) {
        this.security = security;
        this.network = network;
        this.pipeline = pipeline;
        this.electionId = electionId;
        this.packets = packets;
        this.applied = applied;
    }

    /** A new configuration: new topology view, new connections (the old ones are closed). */
    synchronized void apply(NetworkConfig cfg) {
        if (fleet != null) {
            fleet.close();
        }
        Controller.resetTopology(network, cfg);
        fleet = new DeviceFleet(cfg, electionId, pipeline, network::setDeviceAvailable, packets, security);
        applied.accept(cfg, fleet);
        fleet.start();
    }

    /** Applies the configuration {@code current} gives, on a thread of its own. */
    void applyLater(Supplier<NetworkConfig> current) {
        applier.execute(() -> apply(current.get()));
    }

    /** Waits until every configuration handed to {@link #applyLater} so far is applied. */
    void sync() {
        try {
            applier.submit(() -> { }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("applying the network configuration failed", e);
        }
    }

    synchronized DeviceFleet fleet() {
        return fleet;
    }

    @Override
    public void close() {
        applier.shutdown();
        try {
            applier.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeFleet();
    }

    private synchronized void closeFleet() {
        if (fleet != null) {
            fleet.close();
            fleet = null;
        }
    }
}
