package org.fairfabric.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.fairfabric.monitor.stream.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every rule of the view (docs/monitor.md), driven by the examples of docs/kafka.md. The input lag
 * is 0 here, so a stage's clock is its fastest input's and a period closes exactly at its end plus
 * the grace; the input watermark (input lag > 0) has its own tests in {@link MonitorColdStartTest}.
 */
class MonitorTopologyTest {
    private static final long T0 = 1763770000000L;
    static final MonitorSettings WITHOUT_INPUT_LAG = new MonitorSettings(1000, 1500, 3000, 30000, 3000, 0.05, 0,
            MonitorSettings.DEFAULT_MIN_MEAN_PACKET_BYTES);
    private static final String UPLINK = "device:leaf1/3->device:spine1/1";
    private static final List<String> PATH = List.of("h1/0->device:leaf1/1", UPLINK,
            "device:spine1/2->device:leaf2/3", "device:leaf2/1->h2/0");

    private MonitorDriver m;
    private Topics t;

    @BeforeEach
    void start() throws Exception {
        m = new MonitorDriver(WITHOUT_INPUT_LAG);
        t = m.topics;
        m.loadCatalog();
    }

    @AfterEach
    void stop() throws Exception {
        m.close();
    }

    /** The pathbytes example of docs/kafka.md, moved to period {@code k} (T0 + k s), optionally without entries. */
    private static ObjectNode pathBytes(int k, boolean withEntries) {
        ObjectNode v = DocExamples.example("ff.shim.pathbytes.v1");
        v.put("seq", 17 + k);
        v.put("period_start_ms", T0 + k * 1000L);
        if (!withEntries) {
            v.putArray("entries");
        }
        return v;
    }

    private void pipePathBytes(int k, boolean withEntries) {
        m.pipe(t.shimPathBytes, "h2", Json.write(pathBytes(k, withEntries)), T0 + (k + 1) * 1000L);
    }

    private static Map<String, JsonNode> latest(List<MonitorDriver.Out> out) {
        return out.stream().collect(Collectors.toMap(MonitorDriver.Out::key, o -> o.value() == null
                ? Json.MAPPER.nullNode() : o.value(), (a, b) -> b));
    }

    private static void assertJsonEquals(JsonNode expected, JsonNode actual) {
        assertEquals(expected.size(), actual.size(), () -> "fields of " + actual + " vs " + expected);
        expected.fields().forEachRemaining(e -> {
            JsonNode a = actual.get(e.getKey());
            assertTrue(a != null, "missing " + e.getKey() + " in " + actual);
            if (e.getValue().isNumber()) {
                assertEquals(e.getValue().asDouble(), a.asDouble(), 1e-9 * Math.max(1, Math.abs(a.asDouble())), e.getKey());
            } else {
                assertEquals(e.getValue(), a, e.getKey());
            }
        });
    }

    @Test
    void trafficAloneDetectsTheSessionAndCountsItOnceOnEveryLinkOfItsPaths() {
        pipePathBytes(0, true);
        List<MonitorDriver.Out> sessions = m.read(t.sessions);
        assertEquals(1, sessions.size());
        assertEquals("10.0.0.1>10.0.0.2", sessions.get(0).key());
        assertJsonEquals(DocExamples.example("ff.mon.sessions.v1"), sessions.get(0).value());

        Map<String, JsonNode> links = latest(m.read(t.links));
        assertEquals(PATH.size(), links.size());
        for (String link : PATH) {
            assertEquals(1, links.get(link).get("active_sessions").asInt(), link);
            assertTrue(links.get(link).get("period_start_ms").isNull());
            assertEquals("sessions", links.get(link).get("update").asText());
        }
        pipePathBytes(1, true);
        assertEquals(List.of(), m.read(t.sessions), "a session that stays active is not republished");
        assertEquals(List.of(), m.read(t.links), "n_e unchanged and period T0 still open");
    }

    @Test
    void aSilentSessionTurnsInactiveAfterTheActivityWindowAndIsDroppedAfterTheLivenessTimeout() {
        pipePathBytes(0, true); // bytes in the period ending T0+1s
        m.read(t.sessions);
        m.read(t.links);
        pipePathBytes(3, false); // clock T0+4s: 3 s since the traffic: still active
        assertEquals(List.of(), m.read(t.sessions));
        pipePathBytes(4, false); // T0+5s: inactive, uncounted
        List<MonitorDriver.Out> s = m.read(t.sessions);
        assertEquals(1, s.size());
        assertEquals("inactive", s.get(0).value().get("state").asText());
        assertEquals(0, s.get(0).value().get("links").size());
        assertEquals(0, latest(m.read(t.links)).get(UPLINK).get("active_sessions").asInt());

        pipePathBytes(30, false); // T0+31s: silent for exactly the 30 s timeout: kept
        assertEquals(List.of(), m.read(t.sessions));
        pipePathBytes(31, false); // T0+32s: dropped
        s = m.read(t.sessions);
        assertEquals(1, s.size());
        assertNull(s.get(0).value(), "a tombstone removes the session from the compacted view");
    }

    @Test
    void aSessionFirstReportedInactiveIsCountedWhenActiveAndNeverTwice() {
        ObjectNode report = DocExamples.example("ff.shim.sessions.v1");
        String key = "h1/t1/vm3-vm7";
        report.put("state", "inactive");
        m.pipe(t.shimSessions, key, Json.write(report), T0 + 1000);
        report.put("state", "active").put("seq", 4).put("ts_ms", T0 + 2000);
        m.pipe(t.shimSessions, key, Json.write(report), T0 + 2000);
        report.put("seq", 5).put("ts_ms", T0 + 3000).put("reason", "refresh");
        m.pipe(t.shimSessions, key, Json.write(report), T0 + 3000);
        assertEquals(1, latest(m.read(t.links)).get(UPLINK).get("active_sessions").asInt());
        JsonNode view = latest(m.read(t.sessions)).get("10.0.0.1>10.0.0.2");
        assertEquals("active", view.get("state").asText());
        assertEquals("report", view.get("detected_by").asText());
        assertEquals("t1/vm3-vm7", view.get("session").asText());

        report.put("seq", 6).put("ts_ms", T0 + 4000).put("state", "inactive").put("reason", "transition");
        m.pipe(t.shimSessions, key, Json.write(report), T0 + 4000);
        report.put("seq", 7).put("ts_ms", T0 + 5000);
        m.pipe(t.shimSessions, key, Json.write(report), T0 + 5000);
        List<MonitorDriver.Out> links = m.read(t.links);
        assertEquals(PATH.size(), links.size(), "uncounted once per link");
        assertEquals(0, latest(links).get(UPLINK).get("active_sessions").asInt());
    }

    @Test
    void aSendersReportOfAnUnpinnedDestinationMakesThePairActiveWithTheCatalogsTenant() {
        ObjectNode report = DocExamples.example("ff.shim.sessions.v1");
        report.remove("tenant");
        report.put("session", "unpinned/10.0.0.2");
        m.pipe(t.shimSessions, "h1/unpinned/10.0.0.2", Json.write(report), T0 + 1000);
        assertEquals(List.of(), m.read(t.rejected), "a report without a tenant is valid");
        JsonNode view = latest(m.read(t.sessions)).get("10.0.0.1>10.0.0.2");
        assertEquals("active", view.get("state").asText());
        assertEquals("report", view.get("detected_by").asText());
        assertEquals("unpinned/10.0.0.2", view.get("session").asText());
        assertEquals("t1", view.get("tenant").asText(), "the tenant of the sender's host in the catalog");
        assertEquals(1, latest(m.read(t.links)).get(UPLINK).get("active_sessions").asInt());

        report.put("tenant", "").put("seq", 4).put("ts_ms", T0 + 2000);
        m.pipe(t.shimSessions, "h1/unpinned/10.0.0.2", Json.write(report), T0 + 2000);
        assertEquals(1, m.read(t.rejected).size(), "a tenant that is there must not be empty");
    }

    /**
     * The portstats example as the uplink's receiving end reports it: device:spine1 port 1, whose rx
     * counter is the uplink's switch load (the pipeline counts a frame as it entered the switch).
     */
    private static ObjectNode spineStats() {
        ObjectNode stats = DocExamples.example("ff.ctl.portstats.v1");
        stats.put("device", "device:spine1");
        ((ObjectNode) stats.get("ports").get(0)).put("port", 1);
        return stats;
    }

    private static void addRx(ObjectNode stats, long bytes, long seq, long ts) {
        ObjectNode port = (ObjectNode) stats.get("ports").get(0);
        port.put("rx_bytes", port.get("rx_bytes").asLong() + bytes);
        stats.put("seq", seq).put("ts_ms", ts);
    }

    /** One period of a receiver's report whose only entry is a stream of pure TCP ACKs (52 IP bytes each). */
    private void pipeAcks(int k) {
        ObjectNode v = pathBytes(k, true);
        ((ObjectNode) v.get("entries").get(0)).put("packets", 1105).put("ip_bytes", 1105 * 52).put("payload_bytes", 0);
        m.pipe(t.shimPathBytes, "h2", Json.write(v), T0 + (k + 1) * 1000L);
    }

    @Test
    void aStreamOfAcknowledgementsIsNoSession() {
        for (int k = 0; k < 5; k++) {
            pipeAcks(k);
        }
        assertEquals(List.of(), m.read(t.sessions), "ACKs (mean 52 IP bytes < 100) make no session, not even an inactive one");
        assertTrue(m.read(t.links).stream().noneMatch(o -> o.value() != null && o.value().get("active_sessions").asInt() > 0),
                "and count on no link");
        pipePathBytes(5, true); // data: 3311020 bytes in 2210 packets
        JsonNode view = latest(m.read(t.sessions)).get("10.0.0.1>10.0.0.2");
        assertEquals("active", view.get("state").asText());
        assertEquals("traffic", view.get("detected_by").asText());
    }

    @Test
    void acknowledgementsAfterTheDataAreSilenceAndTheSessionTurnsInactive() {
        pipePathBytes(0, true);
        assertEquals("active", latest(m.read(t.sessions)).get("10.0.0.1>10.0.0.2").get("state").asText());
        for (int k = 1; k < 4; k++) {
            pipeAcks(k); // clock T0+4s: the data ended 3 s ago: still active
        }
        assertEquals(List.of(), m.read(t.sessions));
        pipeAcks(4);
        List<MonitorDriver.Out> s = m.read(t.sessions);
        assertEquals(1, s.size());
        assertEquals("inactive", s.get(0).value().get("state").asText(), "ACKs keep no session active");
        assertEquals(T0 + 1000, s.get(0).value().get("last_traffic_ms").asLong(), "the last data, not the last ACK");
    }

    @Test
    void aSendersReportOfAnUnpinnedDestinationCountsOnlyWhenItsPacketsAreData() {
        ObjectNode report = DocExamples.example("ff.shim.sessions.v1");
        report.remove("tenant");
        report.put("session", "unpinned/10.0.0.2").put("packets", 1000).put("bytes", 1000 * 66);
        m.pipe(t.shimSessions, "h1/unpinned/10.0.0.2", Json.write(report), T0 + 1000);
        assertEquals(List.of(), m.read(t.rejected));
        assertEquals(List.of(), m.read(t.sessions), "66-byte frames (52 IP bytes): ACKs, no session");
        report.put("seq", 4).put("ts_ms", T0 + 2000).put("reason", "refresh").put("bytes", 1000 * 1514);
        m.pipe(t.shimSessions, "h1/unpinned/10.0.0.2", Json.write(report), T0 + 2000);
        JsonNode view = latest(m.read(t.sessions)).get("10.0.0.1>10.0.0.2");
        assertEquals("active", view.get("state").asText(), "1514-byte frames: data");
        assertEquals("report", view.get("detected_by").asText());
        report.put("seq", 5).put("ts_ms", T0 + 3000).put("bytes", 10);
        m.pipe(t.shimSessions, "h1/unpinned/10.0.0.2", Json.write(report), T0 + 3000);
        assertEquals("malformed", m.read(t.rejected).get(0).value().get("reason").asText(),
                "fewer bytes than an Ethernet header per packet");
    }

    @Test
    void linkLoadFromShimBytesAndSwitchCountersWithTheirDifferenceAndUtilisation() {
        ObjectNode stats = DocExamples.example("ff.ctl.portstats.v1"); // leaf1/3: the uplink's queue depth
        ObjectNode spine = spineStats();
        m.pipe(t.portStats, "device:leaf1", Json.write(stats), T0);
        m.pipe(t.portStats, "device:spine1", Json.write(spine), T0);
        pipePathBytes(0, true);
        ObjectNode port = (ObjectNode) stats.get("ports").get(0);
        port.put("tx_bytes", port.get("tx_bytes").asLong() + 3_360_000); // what leaf1 sent counts nowhere
        stats.put("seq", 8).put("ts_ms", T0 + 1000);
        m.pipe(t.portStats, "device:leaf1", Json.write(stats), T0 + 1000);
        addRx(spine, 3_400_000, 8, T0 + 1000);
        m.pipe(t.portStats, "device:spine1", Json.write(spine), T0 + 1000);
        m.read(t.links);
        pipePathBytes(1, false); // clock T0+2s: period T0 still open (grace 1.5 s)
        assertEquals(List.of(), m.read(t.links));
        pipePathBytes(2, false); // clock T0+3s: closes period T0
        Map<String, JsonNode> links = latest(m.read(t.links));
        assertEquals(PATH.size(), links.size(), "every link the period touched");
        assertJsonEquals(DocExamples.example("ff.mon.links.v1"), links.get(UPLINK));
        JsonNode hostLink = links.get(PATH.get(0));
        assertTrue(hostLink.get("load_bps_switch").isNull(), "no counter covered the host uplink");
        assertEquals(26806400.0 / 1e8, hostLink.get("utilisation").asDouble(), 1e-12,
                "a host's link carries no fabric header: IP bytes + 18 per tagged packet");
    }

    @Test
    void aHostsDownlinkIsReadAtTheSendingPortAndTheHostsUplinkAtTheReceivingPort() {
        ObjectNode leaf1 = DocExamples.example("ff.ctl.portstats.v1");
        ((ObjectNode) leaf1.get("ports").get(0)).put("port", 1); // h1's port on leaf1
        ObjectNode leaf2 = DocExamples.example("ff.ctl.portstats.v1");
        leaf2.put("device", "device:leaf2");
        ((ObjectNode) leaf2.get("ports").get(0)).put("port", 1); // h2's port on leaf2
        m.pipe(t.portStats, "device:leaf1", Json.write(leaf1), T0);
        m.pipe(t.portStats, "device:leaf2", Json.write(leaf2), T0);
        addRx(leaf1, 1_000_000, 8, T0 + 1000);
        ((ObjectNode) leaf1.get("ports").get(0)).put("tx_bytes", 1_000_000 + 7_000); // to h1: not on the path
        addRx(leaf2, 9_000, 8, T0 + 1000); // from h2: not on the path
        ObjectNode p2 = (ObjectNode) leaf2.get("ports").get(0);
        p2.put("tx_bytes", p2.get("tx_bytes").asLong() + 2_000_000);
        m.pipe(t.portStats, "device:leaf1", Json.write(leaf1), T0 + 1000);
        m.pipe(t.portStats, "device:leaf2", Json.write(leaf2), T0 + 1000);
        pipePathBytes(0, true);
        pipePathBytes(2, false);
        Map<String, JsonNode> links = latest(m.read(t.links));
        assertEquals(8_000_000.0, links.get(PATH.get(0)).get("load_bps_switch").asDouble(), 1e-6, "h1's uplink: leaf1/1 rx");
        assertEquals(16_000_000.0, links.get(PATH.get(3)).get("load_bps_switch").asDouble(), 1e-6, "h2's downlink: leaf2/1 tx");
    }

    @Test
    void reportsAndCounterReadingsNotAlignedToThePeriodsAreSplitByTheirOverlap() {
        // the shim reports [T0+400, T0+1400) and [T0+1400, T0+2400), 1 MB each: period T0+1000 holds
        // 40 % of the first and 60 % of the second: 1 MB
        for (int k = 0; k < 2; k++) {
            ObjectNode r = pathBytes(0, true);
            r.put("seq", 50 + k).put("period_start_ms", T0 + 400 + 1000L * k);
            ((ObjectNode) r.get("entries").get(0)).put("ip_bytes", 1_000_000).put("packets", 1000);
            m.pipe(t.shimPathBytes, "h2", Json.write(r), T0 + 1400 + 1000L * k);
        }
        // the uplink's switch counter read at T0+300 and T0+1700 (a late poll): 2.8 MB over 1.4 s
        ObjectNode stats = spineStats();
        stats.put("ts_ms", T0 + 300);
        m.pipe(t.portStats, "device:spine1", Json.write(stats), T0 + 300);
        addRx(stats, 2_800_000, 8, T0 + 1700);
        m.pipe(t.portStats, "device:spine1", Json.write(stats), T0 + 1700);
        pipePathBytes(4, false);
        JsonNode uplink = m.read(t.links).stream().filter(o -> o.key().equals(UPLINK) && o.value() != null
                && o.value().path("period_start_ms").asLong() == T0 + 1000).findFirst().orElseThrow().value();
        assertEquals((1_000_000 + 1000 * (18 + 20)) * 8.0, uplink.get("load_bps_shim").asDouble(), 1e-6,
                "IP bytes + Ethernet header, VLAN tag and, between two switches, the fabric header");
        assertEquals(1_400_000 * 8.0, uplink.get("load_bps_switch").asDouble(), 1e-6,
                "0.7 s of the 1.4 s reading fall in the period: 1.4 MB");
    }

    @Test
    void facksCountOnTheLinkTowardTheSenderOnlyWhenTheControllerReadsThem() {
        ObjectNode leaf2 = DocExamples.example("ff.ctl.portstats.v1");
        leaf2.put("device", "device:leaf2");
        ObjectNode port = (ObjectNode) leaf2.get("ports").get(0);
        port.put("port", 1).put("facks_decrease", 10).put("facks_increase", 20); // h2's port on leaf2
        m.pipe(t.portStats, "device:leaf2", Json.write(leaf2), T0);
        port.put("facks_decrease", 13).put("facks_increase", 27);
        leaf2.put("seq", 8).put("ts_ms", T0 + 1000);
        m.pipe(t.portStats, "device:leaf2", Json.write(leaf2), T0 + 1000);
        ObjectNode spine = spineStats(); // a switch without FACK fields
        m.pipe(t.portStats, "device:spine1", Json.write(spine), T0);
        addRx(spine, 1_000_000, 8, T0 + 1000);
        m.pipe(t.portStats, "device:spine1", Json.write(spine), T0 + 1000);
        pipePathBytes(0, true);
        pipePathBytes(2, false);
        Map<String, JsonNode> links = latest(m.read(t.links));
        JsonNode toHost = links.get(PATH.get(3));
        assertEquals(3, toHost.get("facks_decrease").asLong(), "FACKs leave by the sender's port, toward the host");
        assertEquals(7, toHost.get("facks_increase").asLong());
        assertTrue(!links.get(UPLINK).has("facks_decrease"), "no FACK fields where no counter was read: " + links.get(UPLINK));

        port.remove("facks_increase"); // one of the two: malformed, and nothing changes
        leaf2.put("seq", 9).put("ts_ms", T0 + 2000);
        m.pipe(t.portStats, "device:leaf2", Json.write(leaf2), T0 + 2000);
        List<MonitorDriver.Out> rejected = m.read(t.rejected);
        assertEquals(1, rejected.size());
        assertEquals("malformed", rejected.get(0).value().get("reason").asText());
    }

    @Test
    void aCounterThatDecreasedIsASwitchRestartAndItsPeriodIsSkipped() {
        ObjectNode stats = spineStats();
        m.pipe(t.portStats, "device:spine1", Json.write(stats), T0);
        ((ObjectNode) stats.get("ports").get(0)).put("rx_bytes", 10);
        stats.put("seq", 8).put("ts_ms", T0 + 1000);
        m.pipe(t.portStats, "device:spine1", Json.write(stats), T0 + 1000);
        pipePathBytes(0, true);
        pipePathBytes(2, false);
        assertTrue(latest(m.read(t.links)).get(UPLINK).get("load_bps_switch").isNull());
        assertEquals(List.of(), m.read(t.rejected));
    }

    @Test
    void aTenantBelowItsGuaranteeForTheHoldTimeRaisesOneViolationAndARestore() {
        ObjectNode stats = DocExamples.example("ff.shim.stats.v1");
        for (int k = 0; k < 3; k++) {
            stats.put("seq", 17 + k).put("ts_ms", T0 + (k + 1) * 1000L);
            m.pipe(t.shimStats, "h1", Json.write(stats), T0 + (k + 1) * 1000L);
            pipePathBytes(k, true);
        }
        List<MonitorDriver.Out> tenants = m.read(t.tenants);
        assertEquals(1, tenants.size(), "period T0 closed at T0+3s (T0+2s+T... grace)");
        assertJsonEquals(DocExamples.example("ff.mon.tenants.v1"), tenants.get(0).value());
        assertEquals(List.of(), m.read(t.events), "below for 1 s of a 3 s hold");

        pipePathBytes(3, false);
        pipePathBytes(4, false); // closes T0+1s and T0+2s: 3 s below
        List<MonitorDriver.Out> events = m.read(t.events);
        assertEquals(1, events.size());
        assertJsonEquals(DocExamples.example("ff.mon.events.v1"), events.get(0).value());
        assertTrue(latest(m.read(t.tenants)).get("t1").get("violated").asBoolean());

        ObjectNode fast = pathBytes(5, true);
        ((ObjectNode) fast.get("entries").get(0)).put("ip_bytes", 6_000_000);
        stats.put("seq", 30).put("ts_ms", T0 + 6000L);
        m.pipe(t.shimStats, "h1", Json.write(stats), T0 + 6000L);
        m.pipe(t.shimPathBytes, "h2", Json.write(fast), T0 + 6000L);
        pipePathBytes(7, false);
        events = m.read(t.events);
        assertEquals(1, events.size());
        assertEquals("guarantee.restored", events.get(0).value().get("type").asText());
    }

    @Test
    void withoutSenderStatsTheDemandIsUnknownAndNothingIsJudged() {
        for (int k = 0; k < 6; k++) {
            pipePathBytes(k, true);
        }
        JsonNode tenant = latest(m.read(t.tenants)).get("t1");
        assertEquals("unknown", tenant.get("demand").asText());
        assertTrue(!tenant.get("below_guarantee").asBoolean());
        assertEquals(List.of(), m.read(t.events));
    }

    @Test
    void failuresFromTheDataPlaneAndTheControllerMarkTheLinkUntilBothClear() {
        ObjectNode report = DocExamples.example("ff.ctl.dataplane-events.v1");
        m.pipe(t.dataplaneEvents, "device:spine1", Json.write(report), T0 + 4000);
        List<MonitorDriver.Out> events = m.read(t.events);
        assertEquals(1, events.size());
        assertEquals("link.failed", events.get(0).value().get("type").asText());
        assertEquals(UPLINK, events.get(0).key());
        JsonNode view = latest(m.read(t.links)).get(UPLINK);
        assertTrue(view.get("failed").asBoolean());
        assertEquals("[\"device:spine1/1\"]", view.get("failed_by").toString());

        m.pipe(t.controllerTopology, UPLINK, linkState(false, 1), T0 + 4500);
        assertEquals(List.of(), m.read(t.events), "already failed");
        report.put("seq", 6).put("ts_ms", T0 + 5000).put("up", true);
        m.pipe(t.dataplaneEvents, "device:spine1", Json.write(report), T0 + 5000);
        assertEquals(List.of(), m.read(t.events), "the controller still reports it down");
        assertEquals("[\"controller\"]", latest(m.read(t.links)).get(UPLINK).get("failed_by").toString());
        m.pipe(t.controllerTopology, UPLINK, linkState(true, 2), T0 + 6000);
        events = m.read(t.events);
        assertEquals(1, events.size());
        assertEquals("link.restored", events.get(0).value().get("type").asText());
        assertTrue(!latest(m.read(t.links)).get(UPLINK).get("failed").asBoolean());
    }

    private static String linkState(boolean up, int seq) {
        return "{\"version\": 1, \"seq\": " + seq + ", \"time\": \"2025-11-22T00:00:0" + (4 + seq) + "Z\","
                + " \"type\": \"link.state\", \"subject\": \"" + UPLINK + "\","
                + " \"detail\": {\"up\": " + up + ", \"reportedBy\": \"device:leaf1/3\"}}";
    }

    @Test
    void malformedDuplicateOutOfOrderAndLateRecordsAreRejectedWithTheirReasonAndChangeNothing() {
        m.pipe(t.shimPathBytes, "h2", "not json", T0);
        m.pipe(t.shimPathBytes, "h2", "{\"schema\": 2}", T0);
        ObjectNode wrongKey = pathBytes(0, true);
        m.pipe(t.shimPathBytes, "h9", Json.write(wrongKey), T0);
        m.pipe(t.portStats, "device:leaf1", "{\"schema\": 1, \"device\": \"device:leaf1\", \"ts_ms\": -5}", T0);
        List<MonitorDriver.Out> rejected = m.read(t.rejected);
        assertEquals(4, rejected.size());
        rejected.forEach(r -> assertEquals("malformed", r.value().get("reason").asText()));
        assertEquals(List.of(), m.read(t.sessions), "a malformed record changes nothing");

        pipePathBytes(0, true);
        pipePathBytes(0, true);
        rejected = m.read(t.rejected);
        assertEquals(1, rejected.size());
        JsonNode expected = DocExamples.example("ff.mon.rejected.v1");
        JsonNode dup = rejected.get(0).value();
        assertEquals(expected.size(), dup.size());
        for (String f : new String[] {"schema", "topic", "key", "reason", "detail", "ts_ms"}) {
            assertEquals(expected.get(f), dup.get(f), f);
        }

        pipePathBytes(5, false);
        ObjectNode older = pathBytes(4, true);
        older.put("seq", 30);
        m.pipe(t.shimPathBytes, "h2", Json.write(older), T0 + 6000);
        assertEquals("out_of_order", m.read(t.rejected).get(0).value().get("reason").asText());

        ObjectNode other = pathBytes(1, true); // another receiver, but a period closed long ago
        other.put("host", "h3");
        m.pipe(t.shimPathBytes, "h3", Json.write(other), T0 + 6000);
        rejected = m.read(t.rejected);
        assertEquals(1, rejected.size());
        assertEquals("late", rejected.get(0).value().get("reason").asText());
        m.read(t.links);
        pipePathBytes(9, false);
        assertTrue(latest(m.read(t.links)).values().stream()
                .noneMatch(l -> l.get("period_start_ms").asLong() == T0 + 1000), "the late period was not reopened");
    }
}
