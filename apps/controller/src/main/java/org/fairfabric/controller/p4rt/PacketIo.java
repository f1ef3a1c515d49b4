package org.fairfabric.controller.p4rt;

import com.google.protobuf.ByteString;
import java.math.BigInteger;
import java.util.Map;
import java.util.OptionalLong;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketMetadata;
import p4.v1.P4RuntimeOuterClass.PacketOut;

/** Packet-in/out metadata by name, as the P4Info's {@code packet_in} and {@code packet_out} controller headers define them. */
public final class PacketIo {
    private final Map<String, Integer> inIds = new java.util.HashMap<>();
    private final Map<String, Integer> outIds = new java.util.HashMap<>();

    public PacketIo(P4Info p4info) {
        for (ControllerPacketMetadata h : p4info.getControllerPacketMetadataList()) {
            Map<String, Integer> ids = h.getPreamble().getName().equals("packet_in") ? inIds
                    : h.getPreamble().getName().equals("packet_out") ? outIds : null;
            if (ids != null) {
                h.getMetadataList().forEach(m -> ids.put(m.getName(), m.getId()));
            }
        }
    }

    /** A packet-in metadata value, empty when the packet or the P4Info lacks it. */
    public OptionalLong metadata(PacketIn p, String name) {
        Integer id = inIds.get(name);
        if (id == null) {
            return OptionalLong.empty();
        }
        for (PacketMetadata m : p.getMetadataList()) {
            if (m.getMetadataId() == id) {
                return OptionalLong.of(new BigInteger(1, m.getValue().toByteArray()).longValue());
            }
        }
        return OptionalLong.empty();
    }

    /** A packet-in with every packet_in header field it carries, by name. */
    public org.fairfabric.core.platform.InboundPacket inbound(String deviceId, PacketIn p, long receivedNanos) {
        Map<String, Long> values = new java.util.TreeMap<>();
        for (Map.Entry<String, Integer> f : inIds.entrySet()) {
            for (PacketMetadata m : p.getMetadataList()) {
                if (m.getMetadataId() == f.getValue()) {
                    values.put(f.getKey(), new BigInteger(1, m.getValue().toByteArray()).longValue());
                }
            }
        }
        return new org.fairfabric.core.platform.InboundPacket(deviceId, p.getPayload().toByteArray(), values, receivedNanos);
    }

    /**
     * A packet-out with the given metadata values (by name); every name must be a packet_out
     * field, and fields not given are sent as 0 (switches expect the whole header).
     */
    public PacketOut packetOut(byte[] payload, Map<String, Long> metadata) {
        for (String name : metadata.keySet()) {
            if (!outIds.containsKey(name)) {
                throw new IllegalArgumentException("the P4Info's packet_out header has no field " + name);
            }
        }
        PacketOut.Builder b = PacketOut.newBuilder().setPayload(ByteString.copyFrom(payload));
        outIds.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(f -> b.addMetadata(PacketMetadata.newBuilder()
                .setMetadataId(f.getValue()).setValue(P4Bytes.of(metadata.getOrDefault(f.getKey(), 0L)))));
        return b.build();
    }
}
