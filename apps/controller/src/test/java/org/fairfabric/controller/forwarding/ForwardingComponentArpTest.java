package org.fairfabric.controller.forwarding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.fairfabric.controller.arp.ArpResponderTest;
import org.fairfabric.controller.p4rt.P4InfoIndex;
import org.fairfabric.controller.program.FabricPlan;
import org.fairfabric.core.model.Topology;
import org.fairfabric.core.platform.FabricTopology;
import org.fairfabric.core.platform.InboundPacket;
import org.fairfabric.core.platform.PacketListener;
import org.fairfabric.core.platform.PacketService;
import org.junit.jupiter.api.Test;

/** The controller's ARP answers agree with the switches' ARP tables. */
class ForwardingComponentArpTest {
    static final HexFormat HEX = HexFormat.of();
    static final String ROUTER_MAC = "02:aa:00:00:00:0f";
    static final Function<String, Optional<String>> HOSTS = ip -> Optional.ofNullable(Map.of("10.0.1.2", "00:00:0a:00:01:02").get(ip));

    /** Packet I/O that hands packet-ins to the listeners and keeps what is sent. */
    static final class Packets implements PacketService {
        final List<PacketListener> listeners = new ArrayList<>();
        final List<byte[]> sent = new ArrayList<>();

        @Override
        public void addListener(PacketListener listener) {
            listeners.add(listener);
        }

        @Override
        public boolean send(String deviceId, byte[] frame, Map<String, Long> metadata) {
            assertEquals(Map.of("egress_port", 3L), metadata, "out of the port the request came in on");
            sent.add(frame);
            return true;
        }

        void packetIn(byte[] frame) {
            InboundPacket p = new InboundPacket("device:leaf1", frame, Map.of("reason", 1L, "ingress_port", 3L), System.nanoTime());
            listeners.forEach(l -> l.onPacket(p));
        }
    }

    static final FabricTopology FABRIC = new FabricTopology() {
        @Override
        public Topology topology() {
            return null;
        }

        @Override
        public String routerMac(String deviceId) {
            assertEquals("device:leaf1", deviceId);
            return ROUTER_MAC;
        }
    };

    @Test
    void onTheFabricPipelineAKnownHostIsAnsweredWithTheSwitchsRouterMac() throws Exception {
        P4InfoIndex p4 = new P4InfoIndex(P4InfoIndex.parseText(Files.readString(Path.of("../../pipeconfs/p4/p4info.txt"))));
        byte[] reply = answer(new FabricPlan(p4, 255, 10));
        // the answer's sender hardware address is the router MAC (what the switch's ARP table says), not the host's own
        assertArrayEquals(HEX.parseHex("00000a000101" + "02aa0000000f" + "0806" + "0001" + "0800" + "06" + "04" + "0002"
                + "02aa0000000f" + "0a000102" + "00000a000101" + "0a000101"), reply);
    }

    @Test
    void withAnotherPipelineTheHostsOwnMacIsTheAnswer() throws Exception {
        byte[] reply = answer(null);
        assertArrayEquals(HEX.parseHex("00000a000101" + "00000a000102" + "0806" + "0001" + "0800" + "06" + "04" + "0002"
                + "00000a000102" + "0a000102" + "00000a000101" + "0a000101"), reply);
    }

    private static byte[] answer(FabricPlan plan) {
        Packets packets = new Packets();
        try (ForwardingComponent c = new ForwardingComponent(plan, FABRIC,
                (slice, device, entities) -> CompletableFuture.completedFuture(null), packets, HOSTS)) {
            packets.packetIn(ArpResponderTest.request("", "0001", "0a000102"));
            c.sync();
        }
        assertEquals(1, packets.sent.size());
        return packets.sent.get(0);
    }
}
