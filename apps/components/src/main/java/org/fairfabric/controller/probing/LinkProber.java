package org.fairfabric.controller.probing;

import org.fairfabric.core.platform.PacketService;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * vFab failure detection needs an echo request out of every fabric port at a steady interval
 * (docs/pipeline.md "vFab failure detection"): the switch snapshots its upstream meter into the
 * request, the neighbour answers with its downstream meter, and the switch itself decides that a
 * port failed (three bad batches; a missing reply is one) and reports it as a LINK_FAILURE event.
 * This sends the requests: a packet-out with {@code do_forward = 0} per fabric port of every
 * connected switch, every interval. Each request carries the miss floor (half the interval, in
 * 10 ms units): the switch counts an unanswered request as a missing reply only when it is older
 * than that floor and four measured echo round trips, so requests that arrive in a burst after a
 * stall of this process, or replies that are only slow, are not taken for a failed link.
 */
public final class LinkProber {
    static final int ETHERTYPE_ECHO = 0x88B6;
    static final int ECHO_REQUEST = 1;
    static final int ECHO_BYTES = 28;

    /** One fabric port of one switch, with the MACs its echo requests carry. */
    public static final class Target {
        final String device;
        final int port;
        final String srcMac;
        final String dstMac;

        public Target(String device, int port, String srcMac, String dstMac) {
            this.device = device;
            this.port = port;
            this.srcMac = srcMac;
            this.dstMac = dstMac;
        }
    }

    private final PacketService packets;
    private final Supplier<List<Target>> targets;
    private final int missAfter10ms;

    public LinkProber(PacketService packets, Supplier<List<Target>> targets, long intervalMillis) {
        this.packets = packets;
        this.targets = targets;
        this.missAfter10ms = missFloor(intervalMillis);
    }

    /** Half the echo interval in 10 ms units, at least 1 (10 ms) and at most 255 (2.55 s). */
    static int missFloor(long intervalMillis) {
        return (int) Math.max(1, Math.min(255, intervalMillis / 20));
    }

    /** One echo request per fabric port of every connected switch; the number sent. */
    public int probeOnce() {
        int sent = 0;
        for (Target t : targets.get()) {
            if (packets.send(t.device, echoRequest(t, missAfter10ms), Map.of("egress_port", (long) t.port, "do_forward", 0L))) {
                sent++;
            }
        }
        return sent;
    }

    /** Ethernet (neighbour's MAC, own MAC, 0x88B6) and an echo request with the miss floor and zeroed meters. */
    static byte[] echoRequest(Target t, int missAfter10ms) {
        ByteBuffer b = ByteBuffer.allocate(14 + ECHO_BYTES);
        b.put(mac(t.dstMac)).put(mac(t.srcMac)).putShort((short) ETHERTYPE_ECHO);
        b.put((byte) ECHO_REQUEST).put((byte) missAfter10ms).putShort((short) t.port);
        return b.array(); // the six meter fields stay 0: the switches fill them
    }

    private static byte[] mac(String mac) {
        String[] parts = mac.split(":");
        byte[] out = new byte[6];
        for (int i = 0; i < 6; i++) {
            out[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return out;
    }
}
