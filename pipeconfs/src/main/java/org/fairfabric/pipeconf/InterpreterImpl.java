package org.fairfabric.pipeconf;

import static org.onosproject.net.PortNumber.CONTROLLER;
import static org.onosproject.net.PortNumber.FLOOD;
import static org.onosproject.net.flow.instructions.Instruction.Type.OUTPUT;
import static org.onosproject.net.pi.model.PiPacketOperationType.PACKET_OUT;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.onlab.packet.DeserializationException;
import org.onlab.packet.Ethernet;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions.OutputInstruction;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.packet.OutboundPacket;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;

/**
 * Maps ONOS packet-outs to the pipeline's packet_out header and packet_in headers
 * to ONOS inbound packets. Flow rules are expected as PI table entries (PiCriterion
 * and PiAction), so only the criteria the pipeline matches on are mapped.
 */
public class InterpreterImpl extends AbstractHandlerBehaviour implements PiPipelineInterpreter {

    private static final Map<Criterion.Type, PiMatchFieldId> CRITERIA = Map.of(
            Criterion.Type.IN_PORT, FabricConstants.HDR_INGRESS_PORT,
            Criterion.Type.ETH_DST, FabricConstants.HDR_ETH_DST,
            Criterion.Type.IPV4_SRC, FabricConstants.HDR_IPV4_SRC,
            Criterion.Type.IPV4_DST, FabricConstants.HDR_IPV4_DST,
            Criterion.Type.IP_PROTO, FabricConstants.HDR_IP_PROTO,
            Criterion.Type.IP_DSCP, FabricConstants.HDR_IPV4_DSCP,
            Criterion.Type.VLAN_VID, FabricConstants.HDR_VLAN_VID,
            Criterion.Type.ARP_TPA, FabricConstants.HDR_ARP_TPA);

    @Override
    public Optional<PiMatchFieldId> mapCriterionType(Criterion.Type type) {
        return Optional.ofNullable(CRITERIA.get(type));
    }

    @Override
    public Optional<PiTableId> mapFlowRuleTableId(int flowRuleTableId) {
        return Optional.empty();
    }

    @Override
    public PiAction mapTreatment(TrafficTreatment treatment, PiTableId tableId) throws PiInterpreterException {
        throw new PiInterpreterException("table " + tableId + ": use PI actions (FabricConstants), "
                + "treatments are not mapped");
    }

    @Override
    public Collection<PiPacketOperation> mapOutboundPacket(OutboundPacket packet) throws PiInterpreterException {
        TrafficTreatment treatment = packet.treatment();
        List<OutputInstruction> outputs = new ArrayList<>();
        for (Instruction i : treatment.allInstructions()) {
            if (i.type() != OUTPUT) {
                throw new PiInterpreterException("packet-out supports only OUTPUT instructions, got " + i.type());
            }
            outputs.add((OutputInstruction) i);
        }
        if (outputs.isEmpty()) {
            throw new PiInterpreterException("packet-out without an OUTPUT instruction");
        }
        List<PiPacketOperation> operations = new ArrayList<>();
        for (OutputInstruction out : outputs) {
            if (out.port().equals(FLOOD)) {
                for (Port port : floodPorts(packet.sendThrough())) {
                    operations.add(packetOut(packet.data(), port.number().toLong()));
                }
            } else if (out.port().isLogical()) {
                throw new PiInterpreterException("packet-out to logical port " + out.port() + " is not supported");
            } else {
                operations.add(packetOut(packet.data(), out.port().toLong()));
            }
        }
        return operations;
    }

    private Iterable<Port> floodPorts(DeviceId deviceId) {
        List<Port> ports = new ArrayList<>();
        DeviceService devices = handler().get(DeviceService.class);
        for (Port port : devices.getPorts(deviceId)) {
            if (port.isEnabled() && !port.number().isLogical() && port.number().toLong() != FabricConstants.CPU_PORT) {
                ports.add(port);
            }
        }
        return ports;
    }

    /** A packet-out that leaves the given port as is (do_forward = 0). */
    static PiPacketOperation packetOut(ByteBuffer data, long port) throws PiInterpreterException {
        if (port < 0 || port >= (1L << FabricConstants.PORT_BITS) || port == FabricConstants.CPU_PORT) {
            throw new PiInterpreterException("packet-out port " + port + " is not a switch port");
        }
        try {
            return PiPacketOperation.builder()
                    .withType(PACKET_OUT)
                    .withData(ImmutableByteSequence.copyFrom(data.duplicate()))
                    .withMetadata(PiPacketMetadata.builder()
                            .withId(FabricConstants.EGRESS_PORT)
                            .withValue(ImmutableByteSequence.copyFrom(port).fit(FabricConstants.PORT_BITS))
                            .build())
                    .withMetadata(PiPacketMetadata.builder()
                            .withId(FabricConstants.DO_FORWARD)
                            .withValue(ImmutableByteSequence.copyFrom((byte) 0).fit(1))
                            .build())
                    .withMetadata(PiPacketMetadata.builder()
                            .withId(FabricConstants.PAD)
                            .withValue(ImmutableByteSequence.copyFrom((byte) 0).fit(6))
                            .build())
                    .build();
        } catch (ImmutableByteSequence.ByteSequenceTrimException e) {
            throw new PiInterpreterException("packet-out port " + port + " does not fit the header: " + e.getMessage());
        }
    }

    @Override
    public InboundPacket mapInboundPacket(PiPacketOperation operation, DeviceId deviceId)
            throws PiInterpreterException {
        PacketInEvent event;
        try {
            event = PacketInEvent.fromMetadata(operation.metadatas());
        } catch (IllegalArgumentException e) {
            throw new PiInterpreterException("malformed packet-in from " + deviceId + ": " + e.getMessage());
        }
        byte[] frame = operation.data().asArray();
        Ethernet ethernet;
        try {
            ethernet = Ethernet.deserializer().deserialize(frame, 0, frame.length);
        } catch (DeserializationException e) {
            throw new PiInterpreterException("packet-in from " + deviceId + " is not Ethernet: " + e.getMessage());
        }
        // Events are reported on behalf of the event port; a CPU-originated event
        // (an unanswered echo) has no physical ingress port.
        long port = event.ingressPort() == FabricConstants.CPU_PORT ? event.eventPort() : event.ingressPort();
        PortNumber in = port == FabricConstants.CPU_PORT ? CONTROLLER : PortNumber.portNumber(port);
        return new FabricInboundPacket(new ConnectPoint(deviceId, in), ethernet, ByteBuffer.wrap(frame),
                operation.metadatas());
    }
}
