package org.fairfabric.controller.p4rt;

import p4.v1.P4RuntimeOuterClass.DigestList;
import p4.v1.P4RuntimeOuterClass.PacketIn;

/** What arrives on a P4Runtime stream besides arbitration. Called on gRPC threads. */
interface StreamHandler {
    /** A packet-in; {@code receivedNanos} is when the stream delivered it ({@link System#nanoTime}). */
    void onPacketIn(PacketIn packet, long receivedNanos);

    void onDigest(DigestList digest);

    /** An arbitration update after the first: this client became primary or lost it. */
    void onPrimaryChanged(boolean primary);

    /** The stream ended (the switch went away, restarted, or closed it). */
    void onClosed(Throwable cause);
}
