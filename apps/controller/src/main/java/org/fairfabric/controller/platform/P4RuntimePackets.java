package org.fairfabric.controller.platform;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.controller.p4rt.PacketIo;
import org.fairfabric.core.platform.InboundPacket;
import org.fairfabric.core.platform.PacketListener;
import org.fairfabric.core.platform.PacketService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.v1.P4RuntimeOuterClass.PacketIn;

/** The embedded {@link PacketService}: the P4Runtime streams of the current fleet, header fields by the P4Info's names. */
public final class P4RuntimePackets implements PacketService {
    private static final Logger LOG = LoggerFactory.getLogger(P4RuntimePackets.class);

    private final PacketIo io;
    private final Supplier<Map<String, DeviceAgent>> agents;
    private final List<PacketListener> listeners = new CopyOnWriteArrayList<>();

    public P4RuntimePackets(PacketIo io, Supplier<Map<String, DeviceAgent>> agents) {
        this.io = io;
        this.agents = agents;
    }

    @Override
    public void addListener(PacketListener listener) {
        listeners.add(listener);
    }

    @Override
    public boolean send(String deviceId, byte[] frame, Map<String, Long> metadata) {
        DeviceAgent agent = agents.get().get(deviceId);
        return agent != null && agent.ready() && agent.packetOut(io.packetOut(frame, metadata));
    }

    /** A packet-in of the fleet (gRPC thread): every listener hears it. */
    public void onPacketIn(String deviceId, PacketIn packet, long receivedNanos) {
        InboundPacket p = io.inbound(deviceId, packet, receivedNanos);
        for (PacketListener l : listeners) {
            try {
                l.onPacket(p);
            } catch (RuntimeException e) {
                LOG.warn("a packet-in listener failed on a packet from {}", deviceId, e);
            }
        }
    }
}
