package org.fairfabric.pipeconf;

/** Why the pipeline sent a packet to the controller (packet_in.reason). */
public enum PacketInReason {
    ARP(1),
    EVENT(2),
    BOUNCE(3);

    private final int code;

    PacketInReason(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The reason with this code; IllegalArgumentException for an unknown one. */
    public static PacketInReason of(int code) {
        for (PacketInReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown packet-in reason " + code);
    }
}
