package org.fairfabric.onos.platform;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.onosproject.store.cluster.messaging.MessageSubject;

/**
 * A packet-in as one node relays it to the leader over ONOS's cluster messaging: ONOS hands a
 * packet-in only to the node that masters the switch, while the components that handle it (ARP,
 * link probes, P4TE/vFab reports) run on the leader. The switch, the frame and the packet-in header
 * fields by name; the leader stamps its own arrival time (the nodes' clocks are not comparable).
 */
final class RelayedPacketIn {
    static final MessageSubject SUBJECT = new MessageSubject("org.fairfabric.packet-in");
    private static final int VERSION = 1;
    /** Bounds that no packet-in of the fabric reaches; a message beyond them is refused. */
    private static final int MAX_FRAME = 65536;
    private static final int MAX_FIELDS = 64;

    final String deviceId;
    final byte[] frame;
    final Map<String, Long> metadata;

    RelayedPacketIn(String deviceId, byte[] frame, Map<String, Long> metadata) {
        this.deviceId = Objects.requireNonNull(deviceId, "device id");
        this.frame = frame.clone();
        this.metadata = Collections.unmodifiableMap(new TreeMap<>(metadata));
    }

    static byte[] encode(RelayedPacketIn p) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(p.frame.length + 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(p.deviceId);
            out.writeInt(p.frame.length);
            out.write(p.frame);
            out.writeShort(p.metadata.size());
            for (Map.Entry<String, Long> f : p.metadata.entrySet()) {
                out.writeUTF(f.getKey());
                out.writeLong(f.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The packet in {@code message}; IllegalArgumentException when it is not one this version wrote. */
    static RelayedPacketIn decode(byte[] message) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(message))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("relayed packet-in of version " + version + ", expected " + VERSION);
            }
            String device = in.readUTF();
            int length = in.readInt();
            if (length < 0 || length > MAX_FRAME) {
                throw new IllegalArgumentException("relayed packet-in with a frame of " + length + " bytes");
            }
            byte[] frame = new byte[length];
            in.readFully(frame);
            int fields = in.readUnsignedShort();
            if (fields > MAX_FIELDS) {
                throw new IllegalArgumentException("relayed packet-in with " + fields + " header fields");
            }
            Map<String, Long> metadata = new TreeMap<>();
            for (int i = 0; i < fields; i++) {
                metadata.put(in.readUTF(), in.readLong());
            }
            if (in.read() != -1) {
                throw new IllegalArgumentException("relayed packet-in with trailing bytes");
            }
            return new RelayedPacketIn(device, frame, metadata);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated relayed packet-in: " + e, e);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RelayedPacketIn)) {
            return false;
        }
        RelayedPacketIn p = (RelayedPacketIn) o;
        return deviceId.equals(p.deviceId) && Arrays.equals(frame, p.frame) && metadata.equals(p.metadata);
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, Arrays.hashCode(frame), metadata);
    }

    @Override
    public String toString() {
        return "packet-in from " + deviceId + " (" + frame.length + " bytes, " + metadata + ")";
    }
}
