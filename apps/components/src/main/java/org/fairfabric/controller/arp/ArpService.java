package org.fairfabric.controller.arp;

import org.fairfabric.core.platform.InboundPacket;
import org.fairfabric.core.platform.PacketService;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiFunction;

/**
 * The controller's half of ARP: packet-ins the pipeline marks as ARP (reason 1: a request its ARP
 * table could not answer) are answered for every host the controller knows, out of the port the
 * request came in on, with the MAC that {@code macFor(switch, address)} gives. Packet-ins for other
 * reasons are left to other handlers.
 */
public final class ArpService {
    /** packet_in.reason of the fabric pipeline for ARP (pipeconfs/p4/include/define.p4). */
    public static final long REASON_ARP = 1;

    private final PacketService packets;
    private final BiFunction<String, String, Optional<String>> macFor;

    public ArpService(PacketService packets, BiFunction<String, String, Optional<String>> macFor) {
        this.packets = packets;
        this.macFor = macFor;
    }

    /** Whether a packet-in is an ARP request for the controller (the pipeline's reason ARP, with its port). */
    public static boolean isArp(InboundPacket packet) {
        OptionalLong reason = packet.metadata("reason");
        return (reason.isEmpty() || reason.getAsLong() == REASON_ARP) && packet.metadata("ingress_port").isPresent();
    }

    /** Handles one packet-in; true when it sent a reply. */
    public boolean onPacket(InboundPacket packet) {
        if (!isArp(packet)) {
            return false;
        }
        Optional<byte[]> reply = ArpResponder.reply(packet.payload(), ip -> macFor.apply(packet.deviceId(), ip));
        if (reply.isEmpty()) {
            return false;
        }
        return packets.send(packet.deviceId(), reply.get(), Map.of("egress_port", packet.metadata("ingress_port").getAsLong()));
    }
}
