package org.fairfabric.core.platform;

import java.util.Map;

/** Packet I/O with the switches (embedded: the P4Runtime streams; ONOS: its PacketService). */
public interface PacketService {
    void addListener(PacketListener listener);

    /**
     * Sends a frame to a switch with packet-out header fields by name (fields not given are 0);
     * false when the switch is not connected.
     */
    boolean send(String deviceId, byte[] frame, Map<String, Long> metadata);
}
