package org.fairfabric.pipeconf;

/** Which way a metric moved (packet_in.direction); for LINK_FAILURE INCREASE = failed. */
public enum EventDirection {
    NONE(0),
    INCREASE(1),
    DECREASE(2);

    private final int code;

    EventDirection(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The direction with this code; IllegalArgumentException for an unknown one. */
    public static EventDirection of(int code) {
        for (EventDirection d : values()) {
            if (d.code == code) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown event direction " + code);
    }
}
