package org.fairfabric.pipeconf;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import org.onosproject.net.pi.model.PiPacketMetadataId;
import org.onosproject.net.pi.runtime.PiPacketMetadata;

/**
 * The fields of the pipeline's packet_in header: the port the packet came in on,
 * why it was sent, and the event it reports (docs/pipeline.md, "Packet-in format").
 */
public final class PacketInEvent {

    private final long ingressPort;
    private final PacketInReason reason;
    private final long eventPort;
    private final EventMetric metric;
    private final EventDirection direction;
    private final long value;

    public PacketInEvent(long ingressPort, PacketInReason reason, long eventPort,
                         EventMetric metric, EventDirection direction, long value) {
        this.ingressPort = ingressPort;
        this.reason = Objects.requireNonNull(reason);
        this.eventPort = eventPort;
        this.metric = Objects.requireNonNull(metric);
        this.direction = Objects.requireNonNull(direction);
        this.value = value;
    }

    /**
     * Decodes the packet_in metadata of a P4Runtime PacketIn.
     *
     * @throws IllegalArgumentException if a field is missing, too wide or has an unknown code
     */
    public static PacketInEvent fromMetadata(Collection<PiPacketMetadata> metadata) {
        Map<PiPacketMetadataId, PiPacketMetadata> byId = new HashMap<>();
        for (PiPacketMetadata m : metadata) {
            byId.put(m.id(), m);
        }
        return new PacketInEvent(
                field(byId, FabricConstants.INGRESS_PORT, 9),
                PacketInReason.of((int) field(byId, FabricConstants.REASON, 8)),
                field(byId, FabricConstants.EVENT_PORT, 9),
                EventMetric.of((int) field(byId, FabricConstants.METRIC, 8)),
                EventDirection.of((int) field(byId, FabricConstants.DIRECTION, 8)),
                field(byId, FabricConstants.VALUE, 32));
    }

    private static long field(Map<PiPacketMetadataId, PiPacketMetadata> byId, PiPacketMetadataId id, int bits) {
        PiPacketMetadata m = byId.get(id);
        if (m == null) {
            throw new IllegalArgumentException("packet-in without " + id.id());
        }
        byte[] bytes = m.value().asArray();
        long v = 0;
        for (byte b : bytes) {
            if ((v >>> 55) != 0) {
                throw new IllegalArgumentException("packet-in field " + id.id() + " is too wide");
            }
            v = (v << 8) | (b & 0xFF);
        }
        if (v >>> bits != 0) {
            throw new IllegalArgumentException(
                    "packet-in field " + id.id() + " = " + v + " does not fit in " + bits + " bits");
        }
        return v;
    }

    public long ingressPort() {
        return ingressPort;
    }

    public PacketInReason reason() {
        return reason;
    }

    public long eventPort() {
        return eventPort;
    }

    public EventMetric metric() {
        return metric;
    }

    public EventDirection direction() {
        return direction;
    }

    public long value() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PacketInEvent)) {
            return false;
        }
        PacketInEvent e = (PacketInEvent) o;
        return ingressPort == e.ingressPort && reason == e.reason && eventPort == e.eventPort
                && metric == e.metric && direction == e.direction && value == e.value;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ingressPort, reason, eventPort, metric, direction, value);
    }

    @Override
    public String toString() {
        return "PacketInEvent{in=" + ingressPort + ", " + reason + ", port=" + eventPort + ", "
                + metric + " " + direction + " " + value + "}";
    }
}
