package org.fairfabric.pipeconf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.onlab.packet.Ethernet;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultPort;
import org.onosproject.net.Port;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.driver.Behaviour;
import org.onosproject.net.driver.Driver;
import org.onosproject.net.driver.DriverData;
import org.onosproject.net.driver.DriverHandler;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.pi.model.PiPacketMetadataId;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiPipelineInterpreter.PiInterpreterException;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;

class InterpreterImplTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("device:leaf1");
    private final InterpreterImpl interpreter = new InterpreterImpl();

    private static byte[] frame() {
        Ethernet eth = new Ethernet();
        eth.setDestinationMACAddress(MacAddress.valueOf("00:00:00:00:01:02"));
        eth.setSourceMACAddress(MacAddress.valueOf("00:00:00:00:01:01"));
        eth.setEtherType((short) 0x88B6);
        return eth.serialize();
    }

    private static PiPacketMetadata meta(PiPacketMetadataId id, long value, int bits) throws Exception {
        return PiPacketMetadata.builder().withId(id)
                .withValue(ImmutableByteSequence.copyFrom(value).fit(bits)).build();
    }

    private static PiPacketOperation packetIn(long inPort, int reason, long eventPort, int metric,
                                              int direction, long value) throws Exception {
        List<PiPacketMetadata> m = new ArrayList<>();
        m.add(meta(FabricConstants.INGRESS_PORT, inPort, 9));
        m.add(meta(PiPacketMetadataId.of("_pad0"), 0, 7));
        m.add(meta(FabricConstants.REASON, reason, 8));
        m.add(meta(FabricConstants.EVENT_PORT, eventPort, 9));
        m.add(meta(PiPacketMetadataId.of("_pad1"), 0, 7));
        m.add(meta(FabricConstants.METRIC, metric, 8));
        m.add(meta(FabricConstants.DIRECTION, direction, 8));
        m.add(meta(FabricConstants.VALUE, value, 32));
        return PiPacketOperation.builder().withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(frame())).withMetadatas(m).build();
    }

    private static long valueOf(PiPacketOperation op, PiPacketMetadataId id) {
        for (PiPacketMetadata m : op.metadatas()) {
            if (m.id().equals(id)) {
                long v = 0;
                for (byte b : m.value().asArray()) {
                    v = (v << 8) | (b & 0xFF);
                }
                return v;
            }
        }
        throw new AssertionError("no metadata " + id);
    }

    @Test
    void packetOutToAPortSetsEgressPortAndNoForwarding() throws Exception {
        byte[] data = frame();
        DefaultOutboundPacket out = new DefaultOutboundPacket(DEVICE,
                DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(3)).build(), ByteBuffer.wrap(data));

        Collection<PiPacketOperation> ops = interpreter.mapOutboundPacket(out);

        assertEquals(1, ops.size());
        PiPacketOperation op = ops.iterator().next();
        assertEquals(PiPacketOperationType.PACKET_OUT, op.type());
        assertEquals(3, valueOf(op, FabricConstants.EGRESS_PORT));
        assertEquals(0, valueOf(op, FabricConstants.DO_FORWARD));
        assertArrayEquals(data, op.data().asArray());
    }

    @Test
    void packetOutToTwoPortsIsTwoOperations() throws Exception {
        DefaultOutboundPacket out = new DefaultOutboundPacket(DEVICE,
                DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(1))
                        .setOutput(PortNumber.portNumber(4)).build(), ByteBuffer.wrap(frame()));

        List<Long> ports = new ArrayList<>();
        for (PiPacketOperation op : interpreter.mapOutboundPacket(out)) {
            ports.add(valueOf(op, FabricConstants.EGRESS_PORT));
        }
        assertEquals(List.of(1L, 4L), ports);
    }

    @Test
    void floodGoesToEveryEnabledPhysicalPort() throws Exception {
        List<Port> ports = List.of(
                new DefaultPort(null, PortNumber.portNumber(1), true, DefaultAnnotations.EMPTY),
                new DefaultPort(null, PortNumber.portNumber(2), false, DefaultAnnotations.EMPTY),
                new DefaultPort(null, PortNumber.portNumber(3), true, DefaultAnnotations.EMPTY),
                new DefaultPort(null, PortNumber.portNumber(255), true, DefaultAnnotations.EMPTY));
        DeviceService devices = new DeviceServiceAdapter() {
            @Override
            public List<Port> getPorts(DeviceId deviceId) {
                return deviceId.equals(DEVICE) ? ports : List.of();
            }
        };
        interpreter.setHandler(new DriverHandler() {
            @Override
            public Driver driver() {
                throw new UnsupportedOperationException();
            }

            @Override
            public DriverData data() {
                throw new UnsupportedOperationException();
            }

            @Override
            public <T extends Behaviour> T behaviour(Class<T> behaviourClass) {
                throw new UnsupportedOperationException();
            }

            @Override
            public <T> T get(Class<T> serviceClass) {
                return serviceClass.cast(devices);
            }
        });
        DefaultOutboundPacket out = new DefaultOutboundPacket(DEVICE,
                DefaultTrafficTreatment.builder().setOutput(PortNumber.FLOOD).build(), ByteBuffer.wrap(frame()));

        List<Long> egress = new ArrayList<>();
        for (PiPacketOperation op : interpreter.mapOutboundPacket(out)) {
            egress.add(valueOf(op, FabricConstants.EGRESS_PORT));
        }
        assertEquals(List.of(1L, 3L), egress);
    }

    @Test
    void packetOutRejectsOtherInstructionsAndBadPorts() {
        DefaultOutboundPacket rewrite = new DefaultOutboundPacket(DEVICE,
                DefaultTrafficTreatment.builder().setEthDst(MacAddress.BROADCAST)
                        .setOutput(PortNumber.portNumber(1)).build(), ByteBuffer.wrap(frame()));
        assertThrows(PiInterpreterException.class, () -> interpreter.mapOutboundPacket(rewrite));

        DefaultOutboundPacket none = new DefaultOutboundPacket(DEVICE,
                DefaultTrafficTreatment.emptyTreatment(), ByteBuffer.wrap(frame()));
        assertThrows(PiInterpreterException.class, () -> interpreter.mapOutboundPacket(none));

        for (long port : new long[] {255, 512}) {
            DefaultOutboundPacket bad = new DefaultOutboundPacket(DEVICE,
                    DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(port)).build(),
                    ByteBuffer.wrap(frame()));
            assertThrows(PiInterpreterException.class, () -> interpreter.mapOutboundPacket(bad), "port " + port);
        }
    }

    @Test
    void packetInEventIsDecodedAndReceivedOnItsIngressPort() throws Exception {
        PiPacketOperation op = packetIn(1, 2, 2, 1, 1, 45);

        InboundPacket in = interpreter.mapInboundPacket(op, DEVICE);

        assertEquals(new ConnectPoint(DEVICE, PortNumber.portNumber(1)), in.receivedFrom());
        assertEquals((short) 0x88B6, in.parsed().getEtherType());
        assertEquals(new PacketInEvent(1, PacketInReason.EVENT, 2, EventMetric.QUEUE_DEPTH,
                EventDirection.INCREASE, 45), PacketInEvent.fromMetadata(op.metadatas()));
        // the packet_in fields travel with the packet to the app's packet processor
        java.util.Map<String, Long> fields = ((FabricInboundPacket) in).metadata();
        assertEquals(1L, fields.get("ingress_port"));
        assertEquals(2L, fields.get("reason"));
        assertEquals(2L, fields.get("event_port"));
        assertEquals(45L, fields.get("value"));
    }

    @Test
    void cpuOriginatedEventIsAttributedToItsEventPort() throws Exception {
        PiPacketOperation op = packetIn(255, 2, 3, 4, 1, 0xFFFFFFFFL);

        InboundPacket in = interpreter.mapInboundPacket(op, DEVICE);

        assertEquals(new ConnectPoint(DEVICE, PortNumber.portNumber(3)), in.receivedFrom());
        PacketInEvent event = PacketInEvent.fromMetadata(op.metadatas());
        assertEquals(EventMetric.LINK_FAILURE, event.metric());
        assertEquals(0xFFFFFFFFL, event.value());
    }

    @Test
    void malformedPacketInsAreRejected() throws Exception {
        PiPacketOperation unknownReason = packetIn(1, 9, 0, 0, 0, 0);
        assertThrows(PiInterpreterException.class, () -> interpreter.mapInboundPacket(unknownReason, DEVICE));

        PiPacketOperation missing = PiPacketOperation.builder().withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(frame()))
                .withMetadata(meta(FabricConstants.INGRESS_PORT, 1, 9)).build();
        assertThrows(PiInterpreterException.class, () -> interpreter.mapInboundPacket(missing, DEVICE));

        PiPacketOperation notEthernet = PiPacketOperation.builder().withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(new byte[] {1, 2, 3}))
                .withMetadatas(packetIn(1, 1, 1, 0, 0, 0).metadatas()).build();
        assertThrows(PiInterpreterException.class, () -> interpreter.mapInboundPacket(notEthernet, DEVICE));
    }

    @Test
    void criteriaMapToPipelineFields() {
        assertEquals(FabricConstants.HDR_INGRESS_PORT, interpreter.mapCriterionType(Criterion.Type.IN_PORT).get());
        assertEquals(FabricConstants.HDR_VLAN_VID, interpreter.mapCriterionType(Criterion.Type.VLAN_VID).get());
        assertEquals(false, interpreter.mapCriterionType(Criterion.Type.MPLS_LABEL).isPresent());
    }
}
