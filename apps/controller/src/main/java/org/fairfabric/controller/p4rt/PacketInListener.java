package org.fairfabric.controller.p4rt;

import p4.v1.P4RuntimeOuterClass.PacketIn;

/**
 * Hears the packet-ins of every switch of a fleet: the device, the packet, and when the stream
 * delivered it ({@link System#nanoTime}), so that handlers further on can time their part.
 * Called on gRPC threads; must not block.
 */
@FunctionalInterface
public interface PacketInListener {
    void onPacketIn(String deviceId, PacketIn packet, long receivedNanos);
}
