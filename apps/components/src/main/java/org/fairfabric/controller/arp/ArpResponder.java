package org.fairfabric.controller.arp;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.Function;

/**
 * Answers ARP requests for known host addresses: given a frame a switch sent to the controller,
 * returns the reply frame to send back out of the port it came in on. The pipeline answers the
 * addresses in its ARP table itself; this covers the rest. An 802.1Q tag is kept in the reply.
 */
public final class ArpResponder {
    private static final int ETH_ARP = 0x0806;
    private static final int ETH_VLAN = 0x8100;
    private static final int ARP_REQUEST = 1;
    private static final int ARP_REPLY = 2;

    private ArpResponder() {
    }

    /** The reply, or empty when {@code frame} is not an Ethernet/IPv4 ARP request for an address {@code macOfIp} knows. */
    public static Optional<byte[]> reply(byte[] frame, Function<String, Optional<String>> macOfIp) {
        int l2 = 14;
        if (frame.length < l2) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(frame);
        int type = in.getShort(12) & 0xffff;
        if (type == ETH_VLAN) {
            l2 = 18;
            if (frame.length < l2) {
                return Optional.empty();
            }
            type = in.getShort(16) & 0xffff;
        }
        if (type != ETH_ARP || frame.length < l2 + 28) {
            return Optional.empty();
        }
        boolean ethernetIpv4 = (in.getShort(l2) & 0xffff) == 1 && (in.getShort(l2 + 2) & 0xffff) == 0x0800
                && frame[l2 + 4] == 6 && frame[l2 + 5] == 4;
        if (!ethernetIpv4 || (in.getShort(l2 + 6) & 0xffff) != ARP_REQUEST) {
            return Optional.empty();
        }
        String targetIp = ip(frame, l2 + 24);
        Optional<String> mac = macOfIp.apply(targetIp);
        if (mac.isEmpty()) {
            return Optional.empty();
        }
        byte[] targetMac = mac(mac.get());
        byte[] out = new byte[l2 + 28];
        System.arraycopy(frame, 0, out, 0, l2); // keeps the VLAN tag, then rewrites the addresses
        System.arraycopy(frame, 6, out, 0, 6); // dst = requester
        System.arraycopy(targetMac, 0, out, 6, 6); // src = answered host
        System.arraycopy(frame, l2, out, l2, 6); // htype, ptype, hlen, plen
        out[l2 + 6] = 0;
        out[l2 + 7] = ARP_REPLY;
        System.arraycopy(targetMac, 0, out, l2 + 8, 6); // sha
        System.arraycopy(frame, l2 + 24, out, l2 + 14, 4); // spa = asked address
        System.arraycopy(frame, l2 + 8, out, l2 + 18, 6); // tha = requester's MAC
        System.arraycopy(frame, l2 + 14, out, l2 + 24, 4); // tpa = requester's address
        return Optional.of(out);
    }

    private static String ip(byte[] b, int at) {
        return (b[at] & 0xff) + "." + (b[at + 1] & 0xff) + "." + (b[at + 2] & 0xff) + "." + (b[at + 3] & 0xff);
    }

    private static byte[] mac(String mac) {
        String[] parts = mac.split(":");
        byte[] b = new byte[6];
        for (int i = 0; i < 6; i++) {
            b[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return b;
    }
}
