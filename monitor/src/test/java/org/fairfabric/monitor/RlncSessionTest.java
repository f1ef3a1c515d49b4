package org.fairfabric.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.fairfabric.monitor.stream.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An RLNC session in the view (docs/monitor.md, "Rules"; docs/kafka.md, ff.shim.rlnc.v1): the
 * figures of its ends in the pair's ff.mon.sessions.v1 record, driven by the examples of
 * docs/kafka.md.
 */
class RlncSessionTest {
    private static final long T0 = 1763770000000L;
    private static final String PAIR = "10.0.0.1>10.0.0.2";
    private static final String SENDER_KEY = "h1/t1/vm3-vm7";
    private static final String RECEIVER_KEY = "h2/t1/vm3-vm7";

    private MonitorDriver m;
    private Topics t;

    @BeforeEach
    void start() throws Exception {
        m = new MonitorDriver(MonitorTopologyTest.WITHOUT_INPUT_LAG);
        t = m.topics;
        m.loadCatalog();
    }

    @AfterEach
    void stop() throws Exception {
        m.close();
    }

    /** The example of {@code rlnc send}'s or {@code rlnc recv}'s record, its period ending at T0 + k s. */
    private static ObjectNode rlnc(String end, int k) {
        ObjectNode v = DocExamples.example(end);
        v.put("seq", 11 + k);
        v.put("ts_ms", T0 + k * 1000L);
        return v;
    }

    private void pipeSender(int k) {
        m.pipe(t.shimRlnc, SENDER_KEY, Json.write(rlnc("rlnc send", k)), T0 + k * 1000L);
    }

    private void pipeReceiver(int k) {
        m.pipe(t.shimRlnc, RECEIVER_KEY, Json.write(rlnc("rlnc recv", k)), T0 + k * 1000L);
    }

    /** The receivers' path bytes of the pair (the pathbytes example) for the period [T0 + k s, T0 + (k+1) s). */
    private void pipeTraffic(int k) {
        ObjectNode v = DocExamples.example("ff.shim.pathbytes.v1");
        v.put("seq", 17 + k);
        v.put("period_start_ms", T0 + k * 1000L);
        m.pipe(t.shimPathBytes, "h2", Json.write(v), T0 + (k + 1) * 1000L);
    }

    private JsonNode lastSession() {
        List<MonitorDriver.Out> out = m.read(t.sessions);
        assertFalse(out.isEmpty(), "no session record");
        assertEquals(PAIR, out.get(out.size() - 1).key());
        return out.get(out.size() - 1).value();
    }

    @Test
    void aCodedSessionsRecordCarriesTheLatestFiguresOfBothEnds() {
        pipeTraffic(0);
        pipeSender(1);
        pipeReceiver(1);
        assertEquals(DocExamples.example("rlnc"), lastSession(), "docs/kafka.md's record of a coded session");
        assertEquals(List.of(), m.read(t.rejected));
    }

    @Test
    void everyNewReportOfAnEndIsPublishedAndReplacesThatEndsFiguresOnly() {
        pipeTraffic(0);
        pipeSender(1);
        pipeReceiver(1);
        m.read(t.sessions);
        ObjectNode later = rlnc("rlnc send", 2);
        ((ObjectNode) later.get("sender")).put("repair_packets", 250);
        ((ObjectNode) later.get("sender")).put("goodput_bps", 1.0e6);
        m.pipe(t.shimRlnc, SENDER_KEY, Json.write(later), T0 + 2000);
        JsonNode s = lastSession();
        assertEquals(250.0, s.at("/rlnc/sender/repairs_per_s").asDouble(), 1e-9);
        assertEquals(1.0e6, s.at("/rlnc/sender/goodput_bps").asDouble(), 1e-9);
        assertEquals(T0 + 1000, s.at("/rlnc/receiver/ts_ms").asLong(), "the receiver's figures stay");
        assertEquals("active", s.get("state").asText());
    }

    @Test
    void aPairOnlyRlncReportsIsAnInactiveRecordWithTheFiguresAndCountsOnNoLink() {
        pipeSender(1);
        JsonNode s = lastSession();
        assertEquals("inactive", s.get("state").asText(), "RLNC's figures do not make a session active");
        assertEquals("none", s.get("detected_by").asText());
        assertEquals(0, s.get("links").size());
        assertEquals("t1", s.get("tenant").asText(), "the catalog's tenant of the sending host");
        assertEquals("rlnc", s.get("transport").asText());
        assertTrue(s.at("/rlnc/receiver").isNull());
        assertEquals(List.of(), m.read(t.links), "n_e unchanged");

        pipeTraffic(1); // then the bytes arrive: active, the figures stay
        s = lastSession();
        assertEquals("active", s.get("state").asText());
        assertEquals("traffic", s.get("detected_by").asText());
        assertEquals(T0 + 1000, s.at("/rlnc/sender/ts_ms").asLong());
    }

    @Test
    void aPairTheCatalogDoesNotKnowGetsItsFiguresWithoutTenantOrLinks() {
        ObjectNode v = rlnc("rlnc send", 1);
        v.put("src", "10.9.9.1");
        v.put("dst", "10.9.9.2");
        m.pipe(t.shimRlnc, SENDER_KEY, Json.write(v), T0 + 1000);
        List<MonitorDriver.Out> out = m.read(t.sessions);
        assertEquals(1, out.size());
        assertEquals("10.9.9.1>10.9.9.2", out.get(0).key());
        JsonNode s = out.get(0).value();
        assertTrue(s.get("tenant").isNull());
        assertEquals(0, s.get("links").size());
        assertEquals(29766080.0 + 9892320.0, s.at("/rlnc/sender/sent_bps").asDouble(), 1e-6);
    }

    @Test
    void duplicateAndStaleReportsAreRejectedAndChangeNothing() {
        pipeTraffic(0);
        pipeSender(2);
        m.read(t.sessions);
        pipeSender(2);
        ObjectNode older = rlnc("rlnc send", 1);
        older.put("seq", 99);
        m.pipe(t.shimRlnc, SENDER_KEY, Json.write(older), T0 + 2000);
        List<MonitorDriver.Out> rejected = m.read(t.rejected);
        assertEquals(List.of("duplicate", "out_of_order"), rejected.stream().map(r -> r.value().get("reason").asText()).toList());
        assertEquals(List.of(), m.read(t.sessions));
    }

    @Test
    void theFiguresLeaveTheRecordWhenTheReportsStopForTheActivityWindow() {
        for (int k = 0; k <= 1; k++) {
            pipeTraffic(k);
        }
        pipeSender(1);
        pipeReceiver(1);
        m.read(t.sessions);
        pipeTraffic(3); // clock T0 + 4 s: the reports are 3 s old, exactly the window: kept
        assertEquals(List.of(), m.read(t.sessions));
        pipeTraffic(4); // T0 + 5 s: gone, the session stays active on its traffic
        JsonNode s = lastSession();
        assertFalse(s.has("transport"));
        assertFalse(s.has("rlnc"));
        assertEquals("active", s.get("state").asText());
        assertEquals(DocExamples.example("ff.mon.sessions.v1").size(), s.size(), "a plain session's fields");
    }

    @Test
    void anotherSessionsRlncReportsAloneMoveTheClockThatExpiresTheFigures() {
        pipeSender(1);
        m.read(t.sessions);
        ObjectNode other = rlnc("rlnc send", 5); // T0 + 5 s: 4 s after the first pair's report
        other.put("src", "10.0.0.3");
        other.put("host", "h3");
        m.pipe(t.shimRlnc, "h3/t1/vm3-vm7", Json.write(other), T0 + 5000);
        List<MonitorDriver.Out> mine = m.read(t.sessions).stream().filter(o -> o.key().equals(PAIR)).toList();
        assertEquals(1, mine.size());
        assertFalse(mine.get(0).value().has("transport"), "the first pair's figures left: " + mine.get(0).value());
    }

    @Test
    void aPairOnlyRlncReportedIsDroppedAfterTheLivenessTimeout() {
        pipeSender(1);
        m.read(t.sessions);
        ObjectNode other = DocExamples.example("ff.shim.pathbytes.v1");
        ((ObjectNode) other.get("entries").get(0)).put("src", "10.0.0.3");
        for (int k : new int[] {4, 30, 31}) { // another pair's bytes move the clock: T0 + 5 s, 31 s, 32 s
            other.put("seq", 100 + k);
            other.put("period_start_ms", T0 + k * 1000L);
            m.pipe(t.shimPathBytes, "h2", Json.write(other), T0 + (k + 1) * 1000L);
        }
        List<MonitorDriver.Out> mine = m.read(t.sessions).stream().filter(o -> o.key().equals(PAIR)).toList();
        assertEquals(2, mine.size(), "the figures leave, then the record: " + mine);
        assertFalse(mine.get(0).value().has("rlnc"));
        assertNull(mine.get(1).value(), "silent for 31 s after its last report (liveness timeout 30 s): a tombstone");
    }

    @Test
    void recordsThatBreakTheSchemaAreRejectedAsMalformed() {
        ObjectNode wrongRole = rlnc("rlnc send", 1);
        wrongRole.put("role", "relay");
        ObjectNode bothEnds = rlnc("rlnc send", 1);
        bothEnds.set("receiver", rlnc("rlnc recv", 1).get("receiver"));
        ObjectNode noEnd = rlnc("rlnc recv", 1);
        noEnd.remove("receiver");
        ObjectNode wideWindow = rlnc("rlnc send", 1);
        ((ObjectNode) wideWindow.get("sender")).put("window", 17);
        ObjectNode negativeRate = rlnc("rlnc send", 1);
        ((ObjectNode) negativeRate.at("/sender/paths/0")).put("sent_bps", -1.0);
        ObjectNode badAddress = rlnc("rlnc recv", 1);
        badAddress.put("src", "10.0.0");
        ObjectNode bigId = rlnc("rlnc send", 1);
        bigId.put("session_id", 1L << 32);
        for (ObjectNode v : List.of(wrongRole, bothEnds, noEnd, wideWindow, negativeRate, badAddress, bigId)) {
            m.pipe(t.shimRlnc, v.get("host").asText() + "/t1/vm3-vm7", Json.write(v), T0 + 1000);
        }
        m.pipe(t.shimRlnc, "h1", Json.write(rlnc("rlnc send", 1)), T0 + 1000); // key: not host/session
        List<MonitorDriver.Out> rejected = m.read(t.rejected);
        assertEquals(8, rejected.size());
        rejected.forEach(r -> {
            assertEquals("malformed", r.value().get("reason").asText(), r.value().get("detail").asText());
            assertEquals(t.shimRlnc, r.value().get("topic").asText());
        });
        assertEquals(List.of(), m.read(t.sessions), "a malformed record changes nothing");
    }
}
