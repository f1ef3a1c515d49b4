package org.fairfabric.pipeconf;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.onlab.packet.Ethernet;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.pi.runtime.PiPacketMetadata;

/**
 * An inbound packet that keeps the packet_in header's fields by their P4Info names (reason,
 * event_port, ...), which ONOS's InboundPacket has no place for: the fairfabric packet processor
 * reads them (P4TE events, the ARP and probing reasons) as the embedded controller does.
 */
public final class FabricInboundPacket implements InboundPacket {
    private final ConnectPoint receivedFrom;
    private final Ethernet parsed;
    private final ByteBuffer unparsed;
    private final Map<String, Long> metadata;

    public FabricInboundPacket(ConnectPoint receivedFrom, Ethernet parsed, ByteBuffer unparsed,
                               Collection<PiPacketMetadata> header) {
        this.receivedFrom = receivedFrom;
        this.parsed = parsed;
        this.unparsed = unparsed;
        Map<String, Long> fields = new TreeMap<>();
        for (PiPacketMetadata m : header) {
            BigInteger v = new BigInteger(1, m.value().asArray());
            if (v.bitLength() <= 63) {
                fields.put(m.id().id(), v.longValue());
            }
        }
        this.metadata = Collections.unmodifiableMap(fields);
    }

    /** The packet_in header's fields by name (values wider than 63 bits are left out). */
    public Map<String, Long> metadata() {
        return metadata;
    }

    @Override
    public ConnectPoint receivedFrom() {
        return receivedFrom;
    }

    @Override
    public Ethernet parsed() {
        return parsed;
    }

    @Override
    public ByteBuffer unparsed() {
        return unparsed.duplicate();
    }

    @Override
    public Optional<Long> cookie() {
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "FabricInboundPacket{from=" + receivedFrom + ", metadata=" + metadata + "}";
    }
}
