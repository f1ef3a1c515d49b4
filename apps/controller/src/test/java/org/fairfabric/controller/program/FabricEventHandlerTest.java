package org.fairfabric.controller.program;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.fairfabric.controller.p4rt.P4Bytes;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.p4rt.PacketIo;
import org.fairfabric.core.routing.Metric;
import org.fairfabric.core.routing.MetricEvent;
import org.fairfabric.core.routing.Trend;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketMetadata;

/** Packet-ins of the fabric pipeline (by its P4Info's packet_in fields) to P4TE feedback events. */
class FabricEventHandlerTest {
    static P4Info info;
    static FabricEventHandler handler;
    static final java.util.List<String> failures = new java.util.ArrayList<>();

    @BeforeAll
    static void load() throws Exception {
        info = P4InfoIndex.parseText(Files.readString(Path.of("../../pipeconfs/p4/p4info.txt")));
        handler = new FabricEventHandler((e, t) -> { }, (d, p, f) -> failures.add(d + "/" + p + (f ? " failed" : " recovered")));
    }

    static org.fairfabric.core.platform.InboundPacket packetIn(String device, Map<String, Long> values) {
        PacketIn.Builder b = PacketIn.newBuilder();
        for (ControllerPacketMetadata h : info.getControllerPacketMetadataList()) {
            if (h.getPreamble().getName().equals("packet_in")) {
                h.getMetadataList().forEach(m -> b.addMetadata(PacketMetadata.newBuilder().setMetadataId(m.getId())
                        .setValue(P4Bytes.of(values.getOrDefault(m.getName(), 0L)))));
            }
        }
        return new PacketIo(info).inbound(device, b.build(), System.nanoTime());
    }

    @Test
    void eventsBecomeMetricEvents() {
        assertEquals(Optional.of(new MetricEvent("device:leaf1", 6, Metric.QUEUE_DEPTH, Trend.INCREASE)),
                handler.decode(packetIn("device:leaf1", Map.of("reason", 2L, "event_port", 6L, "metric", 1L, "direction", 1L))));
        assertEquals(Optional.of(new MetricEvent("device:leaf1", 5, Metric.LINK_UTILIZATION, Trend.DECREASE)),
                handler.decode(packetIn("device:leaf1", Map.of("reason", 2L, "event_port", 5L, "metric", 2L, "direction", 2L))));
        assertEquals(Optional.of(new MetricEvent("device:leaf1", 7, Metric.DELAY, Trend.INCREASE)),
                handler.decode(packetIn("device:leaf1", Map.of("reason", 2L, "event_port", 7L, "metric", 3L, "direction", 1L))));
    }

    @Test
    void linkFailureReportsGoToTheFailureListener() {
        failures.clear();
        assertEquals(true, handler.onPacket(packetIn("device:leaf1", Map.of("reason", 2L, "event_port", 6L, "metric", 4L, "direction", 1L))));
        assertEquals(true, handler.onPacket(packetIn("device:leaf1", Map.of("reason", 2L, "event_port", 6L, "metric", 4L, "direction", 2L))));
        assertEquals(false, handler.onPacket(packetIn("device:leaf1", Map.of("reason", 3L, "event_port", 6L, "metric", 4L, "direction", 1L))));
        assertEquals(java.util.List.of("device:leaf1/6 failed", "device:leaf1/6 recovered"), failures);
    }

    @Test
    void otherPacketInsAreNotFeedback() {
        assertEquals(Optional.empty(), handler.decode(packetIn("d", Map.of("reason", 1L, "event_port", 6L, "metric", 1L, "direction", 1L))), "ARP");
        assertEquals(Optional.empty(), handler.decode(packetIn("d", Map.of("reason", 2L, "event_port", 6L, "metric", 4L, "direction", 1L))), "link failure");
        assertEquals(Optional.empty(), handler.decode(packetIn("d", Map.of("reason", 2L, "event_port", 6L, "metric", 1L, "direction", 0L))), "no direction");
        assertEquals(Optional.empty(), handler.decode(packetIn("d", Map.of("reason", 2L, "event_port", 0L, "metric", 1L, "direction", 1L))), "port 0");
    }
}
