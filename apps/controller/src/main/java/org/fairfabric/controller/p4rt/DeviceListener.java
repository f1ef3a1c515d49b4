package org.fairfabric.controller.p4rt;

import p4.v1.P4RuntimeOuterClass.DigestList;
import p4.v1.P4RuntimeOuterClass.PacketIn;

/** What a {@link DeviceAgent} reports to the controller. Called on the agent's thread or gRPC threads; must not block. */
public interface DeviceListener {
    /** The switch is connected, this controller is primary and the switch holds the intended state (or it no longer does). */
    default void onReady(boolean ready) {
    }

    /** A packet-in; {@code receivedNanos} is when the stream delivered it ({@link System#nanoTime}). */
    default void onPacketIn(PacketIn packet, long receivedNanos) {
    }

    /** A digest list; the agent acknowledges it after this returns. */
    default void onDigest(DigestList digest) {
    }
}
