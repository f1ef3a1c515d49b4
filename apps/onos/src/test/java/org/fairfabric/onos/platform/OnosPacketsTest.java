package org.fairfabric.onos.platform;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.fairfabric.core.platform.InboundPacket;
import org.fairfabric.onos.fabric.TestFabric;
import org.fairfabric.pipeconf.InterpreterImpl;
import org.junit.jupiter.api.Test;
import org.onlab.packet.ARP;
import org.onlab.packet.Ethernet;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.OutboundPacket;
import org.onosproject.net.packet.PacketContextAdapter;
import org.onosproject.net.packet.PacketServiceAdapter;
import org.onosproject.net.pi.model.PiPacketMetadataId;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;

/** Packet-ins through the pipeconf's interpreter reach the listeners with their header fields; packet-outs leave by port. */
class OnosPacketsTest {
    static final DeviceId LEAF1 = DeviceId.deviceId("device:leaf1");

    final TestFabric fabric = new TestFabric();
    final List<OutboundPacket> emitted = new ArrayList<>();
    final OnosPackets packets = new OnosPackets(new PacketServiceAdapter() {
        @Override
        public void emit(OutboundPacket packet) {
            emitted.add(packet);
        }
    }, fabric.devices);

    static byte[] arpRequest() {
        ARP arp = new ARP();
        arp.setHardwareType(ARP.HW_TYPE_ETHERNET).setProtocolType(ARP.PROTO_TYPE_IP)
                .setHardwareAddressLength((byte) 6).setProtocolAddressLength((byte) 4).setOpCode(ARP.OP_REQUEST)
                .setSenderHardwareAddress(MacAddress.valueOf("00:00:00:00:00:01").toBytes())
                .setSenderProtocolAddress(Ip4Address.valueOf("10.0.1.1").toOctets())
                .setTargetHardwareAddress(MacAddress.ZERO.toBytes())
                .setTargetProtocolAddress(Ip4Address.valueOf("10.0.2.1").toOctets());
        Ethernet eth = new Ethernet();
        eth.setEtherType(Ethernet.TYPE_ARP).setSourceMACAddress("00:00:00:00:00:01")
                .setDestinationMACAddress(MacAddress.BROADCAST).setPayload(arp);
        return eth.serialize();
    }

    static PiPacketMetadata field(String name, long value, int bits) throws Exception {
        return PiPacketMetadata.builder().withId(PiPacketMetadataId.of(name))
                .withValue(ImmutableByteSequence.copyFrom(value).fit(bits)).build();
    }

    /** What ONOS's P4Runtime provider hands the processors: the interpreter's mapping of the packet-in. */
    static org.onosproject.net.packet.InboundPacket viaInterpreter(byte[] frame) throws Exception {
        PiPacketOperation op = PiPacketOperation.builder().withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(frame))
                .withMetadata(field("ingress_port", 2, 9))
                .withMetadata(field("_pad0", 0, 7))
                .withMetadata(field("reason", 1, 8))
                .withMetadata(field("event_port", 0, 9))
                .withMetadata(field("_pad1", 0, 7))
                .withMetadata(field("metric", 0, 8))
                .withMetadata(field("direction", 0, 8))
                .withMetadata(field("value", 0, 32))
                .build();
        return new InterpreterImpl().mapInboundPacket(op, LEAF1);
    }

    @Test
    void aFabricPacketInReachesTheListenersWithItsHeaderFieldsAndIsBlocked() throws Exception {
        List<InboundPacket> heard = new ArrayList<>();
        packets.addListener(heard::add);
        byte[] frame = arpRequest();
        PacketContextAdapter ctx = new PacketContextAdapter(0, viaInterpreter(frame), null, false);

        packets.process(ctx);

        assertEquals(1, heard.size());
        InboundPacket p = heard.get(0);
        assertEquals("device:leaf1", p.deviceId());
        assertArrayEquals(frame, p.payload());
        assertEquals(2, p.metadata("ingress_port").getAsLong());
        assertEquals(1, p.metadata("reason").getAsLong());
        assertEquals(0, p.metadata("event_port").getAsLong());
        assertTrue(ctx.isHandled(), "blocked: no other ONOS app answers the fabric's packets");
    }

    @Test
    void packetsTheInterpreterDidNotMapAreLeftToOtherApps() {
        List<InboundPacket> heard = new ArrayList<>();
        packets.addListener(heard::add);
        byte[] frame = arpRequest();
        PacketContextAdapter ctx = new PacketContextAdapter(0, new DefaultInboundPacket(
                new ConnectPoint(LEAF1, PortNumber.portNumber(1)), null, ByteBuffer.wrap(frame)), null, false);
        packets.process(ctx);
        assertEquals(List.of(), heard);
        assertFalse(ctx.isHandled());
    }

    @Test
    void aFailingListenerDoesNotStopTheOthers() throws Exception {
        List<InboundPacket> heard = new ArrayList<>();
        packets.addListener(p -> {
            throw new IllegalStateException("boom");
        });
        packets.addListener(heard::add);
        packets.process(new PacketContextAdapter(0, viaInterpreter(arpRequest()), null, false));
        assertEquals(1, heard.size());
    }

    @Test
    void aPacketOutLeavesByItsEgressPort() {
        byte[] frame = arpRequest();
        assertTrue(packets.send("device:leaf1", frame, Map.of("egress_port", 3L, "do_forward", 0L)));
        assertEquals(1, emitted.size());
        assertEquals(LEAF1, emitted.get(0).sendThrough());
        assertEquals(DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(3)).build(), emitted.get(0).treatment());
        byte[] sent = new byte[emitted.get(0).data().remaining()];
        emitted.get(0).data().duplicate().get(sent);
        assertArrayEquals(frame, sent);
    }

    @Test
    void packetOutsOnosCannotExpressAreRefusedAndUnknownSwitchesAreNotReached() {
        assertFalse(packets.send("device:nowhere", arpRequest(), Map.of("egress_port", 3L)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> packets.send("device:leaf1", arpRequest(), Map.of("egress_port", 3L, "do_forward", 1L)));
        assertEquals("packet-out field do_forward=1 is not supported under ONOS (only egress_port, do_forward=0)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> packets.send("device:leaf1", arpRequest(), Map.of()));
        assertEquals("packet-out without egress_port", e.getMessage());
        assertEquals(List.of(), emitted);
    }

    @Test
    void withoutListenersAPacketInGoesToTheRelayAndARelayedOneReachesTheListeners() throws Exception {
        List<RelayedPacketIn> relayed = new ArrayList<>();
        packets.relayTo(relayed::add);
        byte[] frame = arpRequest();
        PacketContextAdapter ctx = new PacketContextAdapter(0, viaInterpreter(frame), null, false);
        packets.process(ctx);
        assertTrue(ctx.isHandled());
        assertEquals(1, relayed.size());
        RelayedPacketIn r = relayed.get(0);
        assertEquals("device:leaf1", r.deviceId);
        assertArrayEquals(frame, r.frame);
        assertEquals(java.util.Set.of("ingress_port", "_pad0", "reason", "event_port", "_pad1", "metric", "direction", "value"),
                r.metadata.keySet(), "every packet_in header field, as the interpreter gave them");
        assertEquals(2L, r.metadata.get("ingress_port"));
        assertEquals(1L, r.metadata.get("reason"));

        // the leader's side: the message decodes to the same packet, and its listeners hear it with the fields
        RelayedPacketIn back = RelayedPacketIn.decode(RelayedPacketIn.encode(r));
        assertEquals(r, back);
        List<InboundPacket> heard = new ArrayList<>();
        packets.addListener(heard::add);
        packets.deliver(back);
        assertEquals(1, heard.size());
        assertArrayEquals(frame, heard.get(0).payload());
        assertEquals(2, heard.get(0).metadata("ingress_port").getAsLong());

        // with listeners here, nothing is relayed
        packets.process(new PacketContextAdapter(0, viaInterpreter(frame), null, false));
        assertEquals(1, relayed.size());
        assertEquals(2, heard.size());
    }

    @Test
    void malformedRelayMessagesAreRefused() {
        byte[] good = RelayedPacketIn.encode(new RelayedPacketIn("device:leaf1", new byte[] {1, 2, 3}, Map.of("reason", 1L)));
        for (byte[] bad : List.of(new byte[0], new byte[] {2}, java.util.Arrays.copyOf(good, good.length - 1),
                java.util.Arrays.copyOf(good, good.length + 1))) {
            assertThrows(IllegalArgumentException.class, () -> RelayedPacketIn.decode(bad), java.util.Arrays.toString(bad));
        }
        byte[] huge = good.clone();
        int frameLengthAt = 1 + 2 + "device:leaf1".length();
        huge[frameLengthAt] = 0x7f;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RelayedPacketIn.decode(huge));
        assertTrue(e.getMessage().contains("frame of"), e.getMessage());
    }
}
