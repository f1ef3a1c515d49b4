package org.fairfabric.controller.arp;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.fairfabric.controller.p4rt.DeviceAgent;
import org.fairfabric.controller.p4rt.PacketIo;
import p4.v1.P4RuntimeOuterClass.PacketIn;

/**
 * The controller's half of ARP: packet-ins the pipeline marks as ARP (reason 1: a request its ARP
 * table could not answer) are answered for every host the controller knows, out of the port the
 * request came in on. Packet-ins for other reasons are left to other handlers.
 */
public final class ArpService {
    /** packet_in.reason of the fabric pipeline for ARP (pipeconfs/p4/include/define.p4). */
    public static final long REASON_ARP = 1;

    private final PacketIo io;
    private final Function<String, Optional<String>> macOfIp;
    private final Function<String, DeviceAgent> agents;

    public ArpService(PacketIo io, Function<String, Optional<String>> macOfIp, Function<String, DeviceAgent> agents) {
        this.io = io;
        this.macOfIp = macOfIp;
        this.agents = agents;
    }

    /** Handles one packet-in from {@code deviceId}; true when it sent a reply. */
    public boolean onPacketIn(String deviceId, PacketIn packet) {
        OptionalLong reason = io.metadata(packet, "reason");
        OptionalLong port = io.metadata(packet, "ingress_port");
        if ((reason.isPresent() && reason.getAsLong() != REASON_ARP) || port.isEmpty()) {
            return false;
        }
        Optional<byte[]> reply = ArpResponder.reply(packet.getPayload().toByteArray(), macOfIp);
        if (reply.isEmpty()) {
            return false;
        }
        return agents.apply(deviceId).packetOut(io.packetOut(reply.get(), Map.of("egress_port", port.getAsLong())));
    }
}
