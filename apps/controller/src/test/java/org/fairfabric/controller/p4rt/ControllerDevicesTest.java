package org.fairfabric.controller.p4rt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.TextFormat;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fairfabric.controller.Controller;
import org.fairfabric.controller.ControllerSettings;
import org.fairfabric.controller.rest.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller connects to the switches of its network configuration and shows their state. */
class ControllerDevicesTest {
    @TempDir
    Path dir;

    static String device(String name, int port, int id, String role) {
        return "\"device:" + name + "\":{\"basic\":{\"managementAddress\":\"grpc://127.0.0.1:" + port + "?device_id=" + id
                + "\",\"pipeconf\":\"test\"},\"fairfabric\":{\"role\":\"" + role + "\"}}";
    }

    @Test
    void switchesGetThePipelineAndTheirStateIsVisible() throws Exception {
        FakeP4RuntimeSwitch leaf = new FakeP4RuntimeSwitch(1);
        FakeP4RuntimeSwitch spine = new FakeP4RuntimeSwitch(2);
        Server leafServer = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(leaf).build().start();
        Server spineServer = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(spine).build().start();
        Path netcfg = dir.resolve("netcfg.json");
        Files.writeString(netcfg, "{\"devices\":{" + device("leaf1", leafServer.getPort(), 1, "leaf") + ","
                + device("spine1", spineServer.getPort(), 2, "spine") + "},"
                + "\"links\":{\"device:leaf1/2-device:spine1/1\":{\"basic\":{\"bandwidth\":100}}}}");
        Path p4info = dir.resolve("p4info.txt");
        Files.writeString(p4info, TextFormat.printer().printToString(FakeP4RuntimeSwitch.p4info(1, 2)));
        Path config = dir.resolve("device-config.bin");
        Files.write(config, new byte[] {4, 2});

        Controller c = Controller.start(ControllerSettings.of(dir.resolve("data"), netcfg, "127.0.0.1", 0, null, "devices-test-token-0123")
                .withPipeline(p4info, config));
        try {
            HttpJson http = new HttpJson(c.baseUrl(), null);
            DeviceAgentTest.await("both switches available", () -> available(http, 0) && available(http, 1));
            assertTrue(leaf.hasPipeline() && spine.hasPipeline());
            assertTrue(c.fleet().agent("device:leaf1").write(List.of(DeviceAgentTest.insert(DeviceAgentTest.entry(1, 1, 2))))
                    .get(10, TimeUnit.SECONDS).allOk());
            assertEquals(1, leaf.entities().size());

            // ARP the pipeline could not answer comes up as packet-in reason 1 and is answered out of the same port
            assertEquals(201, new HttpJson(c.baseUrl(), "devices-test-token-0123").send("POST", "/api/v1/tenants", "{\"id\":\"blue\",\"weight\":1}").status);
            assertEquals(201, new HttpJson(c.baseUrl(), "devices-test-token-0123").send("POST", "/api/v1/tenants/blue/hosts",
                    "{\"id\":\"h2\",\"ip\":\"10.0.1.2\",\"mac\":\"00:00:0a:00:01:02\",\"location\":{\"device\":\"device:leaf1\",\"port\":3}}").status);
            byte[] request = org.fairfabric.controller.arp.ArpResponderTest.request("", "0001", "0a000102");
            // first reason 2 (an event, not ARP's business) from port 5, then reason 1 from port 4: in stream order, so
            // a reply to the first would be the first packet-out, out of port 5
            leaf.sendPacketIn(request, List.of(meta(1, 5), meta(2, 2)));
            leaf.sendPacketIn(request, List.of(meta(1, 4), meta(2, 1)));
            DeviceAgentTest.await("ARP reply sent", () -> leaf.packetOuts.size() == 1);
            var out = leaf.packetOuts.get(0);
            assertEquals("00000a000101" + "00000a000102", java.util.HexFormat.of().formatHex(out.getPayload().substring(0, 12).toByteArray()));
            assertEquals(List.of(1, 2), out.getMetadataList().stream().map(m -> m.getMetadataId()).toList());
            assertEquals(4, out.getMetadata(0).getValue().byteAt(0));
            assertEquals(0, out.getMetadata(1).getValue().byteAt(0));

            spineServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            DeviceAgentTest.await("spine shown unavailable", () -> !available(http, 1));
            JsonNode events = http.get("/api/v1/events?limit=1000").json();
            List<String> spineStates = events.findParents("subject").stream()
                    .filter(e -> e.get("type").asText().equals("device.state") && e.get("subject").asText().equals("device:spine1"))
                    .map(e -> e.get("detail").get("available").asText()).toList();
            assertEquals(List.of("true", "false"), spineStates);
        } finally {
            c.close();
            leafServer.shutdownNow();
            spineServer.shutdownNow();
        }
    }

    static p4.v1.P4RuntimeOuterClass.PacketMetadata meta(int id, int value) {
        return p4.v1.P4RuntimeOuterClass.PacketMetadata.newBuilder().setMetadataId(id).setValue(P4Bytes.of(value)).build();
    }

    static boolean available(HttpJson http, int index) {
        return http.get("/api/v1/topology").json().get("devices").get(index).get("available").asBoolean();
    }
}
