package org.fairfabric.core.platform;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/** A packet a switch sent to the controller: its bytes, the packet-in header fields by name, and when it arrived. */
public final class InboundPacket {
    private final String deviceId;
    private final byte[] payload;
    private final Map<String, Long> metadata;
    private final long receivedNanos;

    /** {@code receivedNanos}: when the platform received it ({@link System#nanoTime}). */
    public InboundPacket(String deviceId, byte[] payload, Map<String, Long> metadata, long receivedNanos) {
        this.deviceId = Objects.requireNonNull(deviceId, "device id");
        this.payload = payload.clone();
        this.metadata = Collections.unmodifiableMap(new TreeMap<>(metadata));
        this.receivedNanos = receivedNanos;
    }

    public String deviceId() {
        return deviceId;
    }

    public byte[] payload() {
        return payload.clone();
    }

    /** A packet-in header field ({@code reason}, {@code ingress_port}, ...), empty when absent. */
    public OptionalLong metadata(String name) {
        Long v = metadata.get(name);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    public long receivedNanos() {
        return receivedNanos;
    }
}
