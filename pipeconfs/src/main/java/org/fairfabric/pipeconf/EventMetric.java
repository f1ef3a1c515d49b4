package org.fairfabric.pipeconf;

/** What an event packet-in measures (packet_in.metric) and the unit of its value. */
public enum EventMetric {
    /** No event (e.g. an ARP punt). */
    NONE(0),
    /** P4TE queue depth of the event port's egress queue; value in packets. */
    QUEUE_DEPTH(1),
    /** P4TE utilisation colour of the event port; value 0 green, 1 yellow, 2 red. */
    LINK_UTIL(2),
    /** P4TE hop delay from the neighbour on the event port; value in µs. */
    DELAY(3),
    /** vFab link state of the event port; value = packets lost in the last batch. */
    LINK_FAILURE(4);

    private final int code;

    EventMetric(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The metric with this code; IllegalArgumentException for an unknown one. */
    public static EventMetric of(int code) {
        for (EventMetric m : values()) {
            if (m.code == code) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown event metric " + code);
    }
}
