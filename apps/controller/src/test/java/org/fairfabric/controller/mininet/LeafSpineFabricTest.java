package org.fairfabric.controller.mininet;

import static org.fairfabric.controller.mininet.FabricChecks.assertAllPairs;
import static org.fairfabric.controller.mininet.FabricChecks.assertEcmp;
import static org.fairfabric.controller.mininet.FabricChecks.assertFlowsDelivered;
import static org.fairfabric.controller.mininet.FabricChecks.awaitGroups;
import static org.fairfabric.controller.mininet.FabricChecks.portsOfMetric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * P4TE's 4x4 leaf-spine on p4switch in Mininet, programmed only by the controller, with 10 Mbit/s
 * links (so that one UDP flow congests an uplink). One fabric for the class; the tests run in
 * order and each leaves the fabric as it found it (the congestion test, whose level moves decay
 * on their own, comes last). Hosts: cjh1-4 on cjleaf1 ... cjh13-16 on cjleaf4; leaf port 4+s goes
 * to spine s, spine port l to leaf l.
 */
class LeafSpineFabricTest extends FabricTestBase {
    static final double LINK_MBIT = 10;

    @Override
    String topology() {
        return "leafspine";
    }

    @Override
    double linkMbit() {
        return LINK_MBIT;
    }

    @Test
    @Order(1)
    void allPairsReachEachOtherWithoutLossOverEcmpGroups() {
        assertAllPairs(fabric, 120);
        Map<String, Integer> leaves = new TreeMap<>();
        for (String sw : fabric.switches()) {
            if (fabric.role(sw).equals("leaf")) {
                leaves.put(sw, 4);
            }
        }
        assertEquals(4, leaves.size());
        assertEcmp(ctl, leaves);
    }

    /**
     * vFab loop and downward rerouting: with cjleaf1's uplink to cjspine2 down, the unanswered
     * echoes make the switches report LINK_FAILURE, the controller marks the link down and takes
     * port 6 out of cjleaf1's routing groups, and gives the other leaves per-destination groups
     * without cjspine2 for cjleaf1's hosts. Every flow gets through in both directions and from
     * every other leaf towards cjleaf1; when the link returns, port 6 is back in level 0.
     */
    @Test
    @Order(2)
    void failedUplinkTrafficUsesTheRemainingPathsBothWays() throws Exception {
        List<List<String>> pairs = List.of(List.of("cjh1", "cjh13"), List.of("cjh13", "cjh1"),
                List.of("cjh5", "cjh2"), List.of("cjh9", "cjh3"), List.of("cjh14", "cjh4"));
        assertFlowsDelivered(fabric, pairs, FLOWS, 20);
        long after = ctl.lastEventSeq();
        fabric.call("link", "a", "cjleaf1", "b", "cjspine2", "state", "down");
        try {
            awaitGroups(ctl, "cjleaf1", gs -> gs.stream().noneMatch(g -> FabricChecks.ports(g).contains(6)), 30,
                    "port 6 out of every routing group of cjleaf1");
            for (String metric : FabricChecks.METRICS) {
                assertEquals(List.of(5, 7, 8), portsOfMetric(ctl, "cjleaf1", metric), metric);
            }
            List<JsonNode> down = ctl.awaitEvents(after, e -> e.path("type").asText().equals("link.state")
                    && Set.of("device:cjleaf1/6", "device:cjspine2/1").contains(e.path("detail").path("reportedBy").asText()),
                    10, "link.state event for cjleaf1/6");
            assertFalse(down.get(0).path("detail").path("up").asBoolean(), down.toString());
            assertFlowsDelivered(fabric, pairs, FLOWS, 20);
        } finally {
            fabric.call("link", "a", "cjleaf1", "b", "cjspine2", "state", "up");
        }
        // Recovery: ten good echo batches clear failed[6]; port 6 returns to level 0, the detours go.
        awaitGroups(ctl, "cjleaf1", gs -> gs.stream().filter(g -> g.path("level").asInt() == 0)
                .allMatch(g -> FabricChecks.ports(g).contains(6)), 30, "port 6 back in level 0 of cjleaf1");
        assertFlowsDelivered(fabric, pairs, FLOWS, 20);
    }

    /** kill -9 of a spine's p4switch and a restart: the controller sees it go and return, pushes the pipeline and every entry, traffic resumes. */
    @Test
    @Order(3)
    void killedSwitchGetsItsPipelineAndEntriesBack() throws Exception {
        long after = ctl.lastEventSeq();
        fabric.call("switch_kill", "name", "cjspine2");
        ctl.awaitEvents(after, e -> isDeviceState(e, "device:cjspine2", false), 30, "cjspine2 unavailable");
        fabric.call("switch_start", "name", "cjspine2");
        // The restarted p4switch runs no program until the controller pushes one: reaching every
        // host through it shows the pipeline and the entries are back.
        ctl.awaitEvents(after, e -> isDeviceState(e, "device:cjspine2", true), 60, "cjspine2 available again");
        ctl.waitDevicesAvailable(60);
        assertAllPairs(fabric, 60);
        assertFlowsDelivered(fabric, List.of(List.of("cjh2", "cjh15")), FLOWS, 20); // a quarter of them cross cjspine2
    }

    private static boolean isDeviceState(JsonNode e, String device, boolean available) {
        return e.path("type").asText().equals("device.state") && e.path("subject").asText().equals(device)
                && e.path("detail").path("available").asBoolean() == available;
    }

    /**
     * P4TE loop: a 40 Mbit/s UDP flow over 10 Mbit/s uplinks makes cjleaf1's uplinks report
     * queue-depth INCREASEs; the controller moves them to lower levels, visible in the REST
     * routing-group view and as routing-group.moved records on Kafka; no link is declared failed
     * (echoes jump the queue), and the fabric still forwards.
     */
    @Test
    @Order(4)
    void congestedUplinkMovesToALowerRoutingGroupOnRestAndKafka() throws Exception {
        try (RoutingGroupTopic topic = RoutingGroupTopic.open(MininetRequirements.kafka())) {
            long after = ctl.lastEventSeq();
            fabric.call("iperf3", "src", "cjh1", "dst", "cjh13", "seconds", 3, "udp", true, "bitrate", "40M", "length", 1200);
            List<JsonNode> moves = ctl.awaitEvents(after, e -> e.path("type").asText().equals("routing-group.moved")
                    && e.path("subject").asText().equals("device:cjleaf1") && e.path("detail").path("toLevel").asInt() > 0,
                    20, "routing-group move of cjleaf1 to a lower level");
            for (JsonNode m : moves) {
                assertEquals("queue-depth", m.path("detail").path("metric").asText(), m.toString());
                assertTrue(Set.of(5, 6, 7, 8).contains(m.path("detail").path("port").asInt()), m.toString());
            }
            List<JsonNode> downs = ctl.eventsAfter(after).stream().filter(e -> e.path("type").asText().equals("link.state")
                    && !e.path("detail").path("up").asBoolean()).toList();
            assertEquals(List.of(), downs, "links declared failed under mere congestion");
            for (String metric : FabricChecks.METRICS) {
                assertEquals(List.of(5, 6, 7, 8), portsOfMetric(ctl, "cjleaf1", metric), "each uplink in one level of " + metric);
            }
            List<JsonNode> records = topic.await("device:cjleaf1", r -> r.path("type").asText().equals("routing-group.moved")
                    && r.path("detail").path("toLevel").asInt() > 0, 20);
            assertEquals(1, records.get(0).path("version").asInt(), records.get(0).toString());
        }
        assertAllPairs(fabric, 60);
    }
}
