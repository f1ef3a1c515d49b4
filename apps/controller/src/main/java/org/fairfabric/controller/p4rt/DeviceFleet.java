package org.fairfabric.controller.p4rt;

import io.grpc.ManagedChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.fairfabric.controller.netcfg.NetworkConfig;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.Uint128;

/**
 * One {@link DeviceAgent} per switch of the network configuration, each on its own gRPC channel to
 * the device's management address. Replaced as a whole when the configuration changes. Packet-ins
 * go to {@code packets} with the id of the device they came from.
 */
public final class DeviceFleet implements AutoCloseable {
    private static final int MAX_MESSAGE_BYTES = 64 << 20;

    private final Map<String, DeviceAgent> agents = new LinkedHashMap<>();
    private final Map<String, ManagedChannel> channels = new LinkedHashMap<>();

    /**
     * One agent per device, not yet connecting ({@link #start}): what is written before then
     * becomes the intended state the first connection reconciles to. {@code readiness} hears
     * (device id, ready) changes; {@code pipeline} (may be null) is set on every agent.
     */
    public DeviceFleet(NetworkConfig cfg, Uint128 electionId, PipelineFiles pipeline, BiConsumer<String, Boolean> readiness,
                       PacketInListener packets) {
        this(cfg, electionId, pipeline, readiness, packets, ChannelSecurity.systemTrust());
    }

    /** As above, with grpcs:// devices verified as {@code security} says. */
    public DeviceFleet(NetworkConfig cfg, Uint128 electionId, PipelineFiles pipeline, BiConsumer<String, Boolean> readiness,
                       PacketInListener packets, ChannelSecurity security) {
        for (NetworkConfig.Device d : cfg.devices.values()) {
            ManagedChannel ch = security.open(d.address, MAX_MESSAGE_BYTES);
            DeviceAgent agent = new DeviceAgent(d.id, ch, d.address.deviceId, electionId, new DeviceListener() {
                @Override
                public void onReady(boolean ready) {
                    readiness.accept(d.id, ready);
                }

                @Override
                public void onPacketIn(PacketIn packet, long receivedNanos) {
                    packets.onPacketIn(d.id, packet, receivedNanos);
                }
            }, DeviceAgent.DEFAULT_MAX_BATCH);
            if (pipeline != null) {
                agent.setPipeline(pipeline.p4info, pipeline.deviceConfig);
            }
            channels.put(d.id, ch);
            agents.put(d.id, agent);
        }
    }

    /** Connects to every device. */
    public void start() {
        agents.values().forEach(DeviceAgent::start);
    }

    public DeviceAgent agent(String deviceId) {
        DeviceAgent a = agents.get(deviceId);
        if (a == null) {
            throw new IllegalArgumentException("no device " + deviceId);
        }
        return a;
    }

    public Map<String, DeviceAgent> agents() {
        return java.util.Collections.unmodifiableMap(agents);
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow); // aborts calls in flight at once
        agents.values().forEach(DeviceAgent::close);
        for (ManagedChannel ch : channels.values()) {
            try {
                ch.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
