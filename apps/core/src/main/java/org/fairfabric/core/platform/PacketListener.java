package org.fairfabric.core.platform;

/** Hears packet-ins. Called on the platform's threads: must not block. */
@FunctionalInterface
public interface PacketListener {
    void onPacket(InboundPacket packet);
}
