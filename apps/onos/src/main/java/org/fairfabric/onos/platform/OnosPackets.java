package org.fairfabric.onos.platform;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.fairfabric.core.platform.InboundPacket;
import org.fairfabric.core.platform.PacketListener;
import org.fairfabric.core.platform.PacketService;
import org.fairfabric.pipeconf.FabricInboundPacket;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link PacketService} over ONOS's: a {@link PacketProcessor} hands every packet-in of a fabric
 * switch (one the pipeconf's interpreter mapped, so its packet_in header fields are known) to the
 * listeners, with the fields by their P4Info names as in embedded mode, and blocks it so that no
 * other ONOS app answers it too. Packet-outs become an OUTPUT to {@code egress_port}; the
 * interpreter writes the packet_out header (do_forward 0), the only packet-out the components
 * send. ONOS delivers a packet-in on the node that masters the switch, not only on the leader: on a
 * node whose components do not run (no listeners), a packet-in goes to the {@link #relayTo relay}
 * instead (the platform sends it to the leader, whose {@link #deliver} hands it to its listeners).
 */
public final class OnosPackets implements PacketService, PacketProcessor {
    private static final Logger LOG = LoggerFactory.getLogger(OnosPackets.class);

    private final org.onosproject.net.packet.PacketService packets;
    private final DeviceService devices;
    private final List<PacketListener> listeners = new CopyOnWriteArrayList<>();
    private volatile Consumer<RelayedPacketIn> relay;

    public OnosPackets(org.onosproject.net.packet.PacketService packets, DeviceService devices) {
        this.packets = packets;
        this.devices = devices;
    }

    @Override
    public void addListener(PacketListener listener) {
        listeners.add(listener);
    }

    /** How many listeners hear packet-ins (tests). */
    int listenerCount() {
        return listeners.size();
    }

    /** Where packet-ins go while no listener hears them here (null: dropped). */
    void relayTo(Consumer<RelayedPacketIn> relay) {
        this.relay = relay;
    }

    /** A packet-in another node relayed: to this node's listeners only (never relayed again). */
    void deliver(RelayedPacketIn p) {
        InboundPacket in = new InboundPacket(p.deviceId, p.frame, p.metadata, System.nanoTime());
        for (PacketListener l : listeners) {
            try {
                l.onPacket(in);
            } catch (RuntimeException e) {
                LOG.warn("a packet-in listener failed on a packet relayed from {}", p.deviceId, e);
            }
        }
    }

    /** Stops delivering packet-ins to {@code listener} (the components of a node that stopped leading). */
    public void removeListener(PacketListener listener) {
        listeners.remove(listener);
    }

    /**
     * Sends {@code frame} out of port {@code egress_port} of the switch; false when ONOS does not
     * have the switch available. Refuses header fields it cannot express (do_forward other than 0).
     */
    @Override
    public boolean send(String deviceId, byte[] frame, Map<String, Long> metadata) {
        for (Map.Entry<String, Long> f : metadata.entrySet()) {
            boolean known = f.getKey().equals("egress_port") || (f.getKey().equals("do_forward") && f.getValue() == 0);
            if (!known) {
                throw new IllegalArgumentException("packet-out field " + f.getKey() + "=" + f.getValue()
                        + " is not supported under ONOS (only egress_port, do_forward=0)");
            }
        }
        Long port = metadata.get("egress_port");
        if (port == null || port < 0) {
            throw new IllegalArgumentException("packet-out without egress_port");
        }
        DeviceId device = DeviceId.deviceId(deviceId);
        if (devices.getDevice(device) == null || !devices.isAvailable(device)) {
            return false;
        }
        packets.emit(new DefaultOutboundPacket(device,
                DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(port)).build(),
                ByteBuffer.wrap(frame.clone())));
        return true;
    }

    @Override
    public void process(PacketContext context) {
        if (context.isHandled() || !(context.inPacket() instanceof FabricInboundPacket)) {
            return;
        }
        FabricInboundPacket in = (FabricInboundPacket) context.inPacket();
        ByteBuffer data = in.unparsed();
        byte[] frame = new byte[data.remaining()];
        data.get(frame);
        context.block();
        Consumer<RelayedPacketIn> elsewhere = relay;
        if (listeners.isEmpty() && elsewhere != null) {
            elsewhere.accept(new RelayedPacketIn(in.receivedFrom().deviceId().toString(), frame, in.metadata()));
            return;
        }
        InboundPacket p = new InboundPacket(in.receivedFrom().deviceId().toString(), frame, in.metadata(), System.nanoTime());
        for (PacketListener l : listeners) {
            try {
                l.onPacket(p);
            } catch (RuntimeException e) {
                LOG.warn("a packet-in listener failed on a packet from {}", p.deviceId(), e);
            }
        }
    }
}
